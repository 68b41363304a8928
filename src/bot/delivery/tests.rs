use super::*;
use crate::core::game::ReplyKind;

fn row(id: i64, audience: Audience) -> OutboxItem {
    OutboxItem { id, session_id: "s".into(), seq: id, kind: ReplyKind::Notice, body: format!("row {id}"), audience }
}

#[test]
fn rows_split_into_the_place_of_play_and_private_ones_keeping_their_order() {
    let rows = vec![
        row(1, Audience::Everyone),
        row(2, Audience::Seat("console:ann".into())),
        row(3, Audience::Everyone),
        row(4, Audience::Moderators),
    ];
    let (public, private) = by_audience(rows);
    assert_eq!(public.iter().map(|r| r.id).collect::<Vec<_>>(), [1, 3]);
    assert_eq!(private.iter().map(|r| r.id).collect::<Vec<_>>(), [2, 4]);
}

#[test]
fn the_host_reads_everyones_the_moderators_and_their_own_seats_messages_only() {
    let ann = Player { id: "console:ann".into(), name: "Ann".into() };
    assert!(host_reads(&Audience::Everyone, &ann));
    assert!(host_reads(&Audience::Moderators, &ann));
    assert!(host_reads(&Audience::Seat("console:ann".into()), &ann));
    assert!(!host_reads(&Audience::Seat("ai:1".into()), &ann), "another seat's message is never the host's");
}

#[tokio::test]
async fn the_queue_courier_hands_deliveries_to_the_front_ends_loop() {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let courier = QueueCourier(tx);
    courier.deliver("s", Delivery::unsent(row(7, Audience::Everyone)));
    let got = rx.try_recv().unwrap();
    assert_eq!((got.outbox_id, got.reply.text.as_str()), (Some(7), "row 7"));
    drop(rx);
    // A loop that ended: the reply stays in the outbox, nothing panics.
    courier.deliver("s", Delivery::unsent(row(8, Audience::Everyone)));
}
