//! The database going away in the middle of games: PostgreSQL (a server of
//! the test's own) stopped under two bot processes and started again. An
//! input that arrives meanwhile is refused as "the database is away"
//! (never a half-played turn), every process keeps running, and when the
//! server is back the pools reconnect, hand-overs and leases work again,
//! and play goes on with nothing lost or doubled.

use echoes::core::actor::Inbound;
use echoes::core::game::error::database_away;
use echoes::core::game::{ReplyKind, TurnInput};
use echoes::store::scratch::{OwnServer, ScratchDb};

use super::processes::{events, process};
use super::{ManualClock, game, send, who};

#[tokio::test]
async fn a_database_that_goes_away_and_comes_back_loses_and_doubles_nothing() {
    let server = OwnServer::start().unwrap_or_else(|e| panic!("{e:#}"));
    let db = ScratchDb::create_on(&server.url()).await.unwrap_or_else(|e| panic!("{e}"));
    let clock = ManualClock::starting_at(1_000);
    let a = process(&db, &clock, "process-a").await;
    let b = process(&db, &clock, "process-b").await;
    let on_a = game::open_lobby(&a.engine, &who("alice")).await.unwrap();
    assert_eq!(send(&on_a, &who("bob"), TurnInput::Join, "j1").await.reply.kind, ReplyKind::Lobby);
    let on_b = game::resume(&b.engine, &on_a.id).await;

    server.stop().unwrap();
    let join = |name: &str, event: &str| Inbound::new(who(name), TurnInput::Join).with_event(event);
    for (handle, event) in [(&on_a, "j2"), (&on_b, "j3")] {
        let refused =
            handle.send(join("carol", event)).await.expect_err("nothing is played while the database is away");
        assert!(refused.is_unavailable(), "{refused}");
        assert!(database_away(&refused), "the front ends' check sees it: {refused}");
    }
    assert!(a.inbox.got.lock().unwrap().is_empty() && b.inbox.got.lock().unwrap().is_empty(), "nothing shown");

    server.resume().unwrap();
    // The same inputs sent again: played once each, in order, by the holder.
    let played = send(&on_a, &who("carol"), TurnInput::Join, "j2").await;
    assert!(played.reply.text.contains("3 seats taken"), "{}", played.reply.text);
    assert!(send(&on_a, &who("carol"), TurnInput::Join, "j2").await.duplicate, "a repeat is answered from the record");
    assert!(send(&on_b, &who("dave"), TurnInput::Join, "j3").await.handed_off, "b hands over again");
    let shown = a.inbox.wait_for(|d| d.reply.kind == ReplyKind::Lobby).await;
    assert!(shown.reply.text.contains("4 seats taken"), "a's poller came back: {}", shown.reply.text);
    assert_eq!(events(&a, &on_a.id).await, ["j1", "j2", "j3"], "nothing lost, nothing doubled");
}
