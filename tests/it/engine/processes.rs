//! Two bot processes on one PostgreSQL database, played in one test as two
//! engines with lease-holder names and connections of their own. The
//! process holding a session's lease plays it; an input that reaches the
//! other is handed over through the database and played once, shown by the
//! holder's courier, also when it reaches both. When the holder stops
//! renewing (it died), its lease runs out and the other process takes the
//! session over from the record, with every turn the first one committed.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use echoes::core::actor::{LEASE_MS, SessionHandle};
use echoes::core::game::{ReplyKind, TurnInput};
use echoes::store::SqlStore;
use echoes::store::scratch::ScratchDb;

use super::game::{self, BallotGame};
use super::{ManualClock, Rig, rig_of, send, who};

pub(super) async fn process(server: &ScratchDb, clock: &Arc<ManualClock>, owner: &str) -> Rig {
    let store = SqlStore::connect(&server.database()).await.unwrap();
    let rig = rig_of(store, clock.clone(), "t:bob", Some(owner)).await;
    // The courier reopens a session from the record and keeps its handle,
    // as a bot does.
    let engine = Arc::downgrade(&rig.engine);
    let kept: Arc<Mutex<Vec<SessionHandle>>> = Arc::default();
    *rig.inbox.reopen.lock().unwrap() = Some(Box::new(move |id: String| {
        let Some(engine) = engine.upgrade() else { return };
        let kept = kept.clone();
        tokio::spawn(async move {
            let handle = game::resume(&engine, &id).await;
            kept.lock().unwrap().push(handle);
        });
    }));
    rig.engine.poll_handoffs(Duration::from_millis(20));
    rig
}

/// A process whose poller stopped: what is handed to it waits in the store.
async fn process_without_poller(server: &ScratchDb, clock: &Arc<ManualClock>, owner: &str) -> Rig {
    let rig = process(server, clock, owner).await;
    // Started (this process takes hand-overs), then stopped.
    rig.engine.poll_handoffs(Duration::from_secs(3600)).abort();
    rig
}

/// The event ids of a session's turns, in the order they were committed
/// (`-` for a turn without one).
pub(super) async fn events(rig: &Rig, id: &str) -> Vec<String> {
    let turns = rig.engine.store.load_session(id).await.unwrap().unwrap().turns;
    turns.into_iter().map(|t| t.event_id.unwrap_or_else(|| "-".into())).collect()
}

async fn seats(rig: &Rig, id: &str) -> Vec<String> {
    let game: BallotGame = rig.engine.store.load_session(id).await.unwrap().unwrap().game().unwrap();
    game.seats.seats.iter().map(|s| s.player.id.clone()).collect()
}

#[tokio::test]
async fn a_session_is_played_by_its_lease_holder_and_taken_over_when_it_dies() {
    let server = ScratchDb::create().await.unwrap_or_else(|e| panic!("{e}"));
    let clock = ManualClock::starting_at(1_000);
    let a = process(&server, &clock, "process-a").await;
    let b = process(&server, &clock, "process-b").await;

    let on_a = game::open_lobby(&a.engine, &who("alice")).await.unwrap();
    let joined = send(&on_a, &who("bob"), TurnInput::Join, "j1").await;
    assert_eq!(joined.reply.kind, ReplyKind::Lobby, "the holder plays its own: {}", joined.reply.text);

    // The same session opened in b (a message reached the other process).
    let on_b = game::resume(&b.engine, &on_a.id).await;
    let handed = send(&on_b, &who("carol"), TurnInput::Join, "j2").await;
    assert!(handed.handed_off && handed.is_silent(), "b hands the input over and shows nothing");
    let shown = a.inbox.wait_for(|d| d.reply.kind == ReplyKind::Lobby).await;
    assert!(shown.reply.text.contains("3 seats taken"), "a played it and its courier shows it: {}", shown.reply.text);
    // Delivered again, to both: answered from the record, shown once.
    assert!(send(&on_a, &who("carol"), TurnInput::Join, "j2").await.duplicate);
    assert!(send(&on_b, &who("carol"), TurnInput::Join, "j2").await.handed_off);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(a.inbox.got.lock().unwrap().iter().filter(|d| !d.duplicate).count(), 1, "one reply shown for j2");
    assert!(b.inbox.got.lock().unwrap().is_empty(), "b shows nothing it did not play");
    assert_eq!(seats(&a, &on_a.id).await, ["t:alice", "t:bob", "t:carol"]);

    // a dies: it plays nothing more and keeps its lease, which runs out.
    // b's next input takes the session over, reloads it from the record
    // and plays the input.
    a.engine.stop();
    clock.advance_to(1_000 + LEASE_MS + 10_000);
    let late = send(&on_b, &who("dave"), TurnInput::Join, "j3").await;
    assert!(late.handed_off, "b's stale state is not played on");
    let took_over = b.inbox.wait_for(|d| d.reply.kind == ReplyKind::Lobby).await;
    assert!(took_over.reply.text.contains("4 seats taken"), "b played on from a's turns: {}", took_over.reply.text);
    assert_eq!(seats(&b, &on_b.id).await, ["t:alice", "t:bob", "t:carol", "t:dave"]);
    assert_eq!(events(&b, &on_b.id).await, ["j1", "j2", "j3"], "each committed once");
    let metrics = echoes::core::telemetry::telemetry().encode();
    assert!(metrics.contains("echoes_handoffs_total") && metrics.contains("echoes_leases_held"), "{metrics}");
    drop(on_a);
}

/// A holder that stalled past its lease while another process took the
/// session over writes nothing of the turn it was playing: the input goes
/// to the new holder, which plays it on the record, once.
#[tokio::test]
async fn an_input_whose_lease_ran_out_mid_turn_goes_to_the_new_holder() {
    let server = ScratchDb::create().await.unwrap_or_else(|e| panic!("{e}"));
    let clock = ManualClock::starting_at(1_000);
    let a = process(&server, &clock, "process-a").await;
    let b = process(&server, &clock, "process-b").await;
    let on_a = game::open_lobby(&a.engine, &who("alice")).await.unwrap();
    assert_eq!(send(&on_a, &who("bob"), TurnInput::Join, "j1").await.reply.kind, ReplyKind::Lobby);

    // As far as the database knows a's lease ran out, and b took the
    // session; a (stalled, its clock behind) still believes it holds it.
    let now = 1_000 + LEASE_MS + 1;
    let taken = b.engine.store.claim_lease(&on_a.id, "process-b", now, now + LEASE_MS).await.unwrap();
    assert_eq!(taken, echoes::core::store::Lease::Held);
    let lost = send(&on_a, &who("carol"), TurnInput::Join, "j2").await;
    assert!(lost.handed_off && lost.is_silent(), "a's turn is not committed: {}", lost.reply.text);
    let shown = b.inbox.wait_for(|d| d.reply.kind == ReplyKind::Lobby).await;
    assert!(shown.reply.text.contains("3 seats taken"), "b played it: {}", shown.reply.text);
    assert_eq!(events(&b, &on_a.id).await, ["j1", "j2"], "committed once, by b");
    assert!(a.inbox.got.lock().unwrap().is_empty(), "a shows nothing");
}

/// An input handed over through the database before another reached the
/// holder directly is played first: a session's inputs keep their order
/// across processes, whenever the holder's poller comes round.
#[tokio::test]
async fn inputs_keep_their_order_across_processes() {
    let server = ScratchDb::create().await.unwrap_or_else(|e| panic!("{e}"));
    let clock = ManualClock::starting_at(1_000);
    let a = process_without_poller(&server, &clock, "process-a").await;
    let b = process(&server, &clock, "process-b").await;
    let on_a = game::open_lobby(&a.engine, &who("alice")).await.unwrap();
    assert_eq!(send(&on_a, &who("bob"), TurnInput::Join, "j1").await.reply.kind, ReplyKind::Lobby);
    let on_b = game::resume(&b.engine, &on_a.id).await;
    assert!(send(&on_b, &who("carol"), TurnInput::Join, "j2").await.handed_off);
    let direct = send(&on_a, &who("dave"), TurnInput::Join, "j3").await;
    assert!(direct.reply.text.contains("4 seats taken"), "carol's join came first: {}", direct.reply.text);
    let shown = a.inbox.wait_for(|d| d.reply.kind == ReplyKind::Lobby).await;
    assert!(shown.reply.text.contains("3 seats taken"), "the handed input's reply is shown: {}", shown.reply.text);
    assert_eq!(seats(&a, &on_a.id).await, ["t:alice", "t:bob", "t:carol", "t:dave"]);
    assert_eq!(events(&a, &on_a.id).await, ["j1", "j2", "j3"]);
    assert!(a.engine.store.handed_to(&on_a.id).await.unwrap().is_empty(), "nothing left queued");
}
