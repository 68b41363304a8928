use super::*;
use crate::core::fixtures::puzzle;
use crate::core::game::{Game, Points, TurnRecord};
use crate::core::services::Usage;
use crate::core::soup::{Phase, SoupEvent, SoupGame};
use crate::core::store::{Leases, PlayerStats, SoupStats, Stats};
use crate::core::vocab::Language;
use crate::store::Backend;
use crate::store::scratch::ScratchDb;

fn alice() -> Player {
    Player { id: "t:alice".into(), name: "Alice".into() }
}

/// A store on a fresh database of one backend; PostgreSQL's is a scratch
/// database on the local server, dropped with this value.
pub(in crate::store) struct Fresh {
    pub store: SqlStore,
    _scratch: Option<ScratchDb>,
}

impl std::ops::Deref for Fresh {
    type Target = SqlStore;
    fn deref(&self) -> &SqlStore {
        &self.store
    }
}

pub(in crate::store) async fn fresh(backend: Backend) -> Fresh {
    match backend {
        Backend::Sqlite => Fresh { store: SqlStore::in_memory().await.unwrap(), _scratch: None },
        Backend::Postgres => {
            let scratch = ScratchDb::create().await.unwrap_or_else(|e| panic!("{e}"));
            let store = SqlStore::connect(&scratch.database()).await.unwrap();
            Fresh { store, _scratch: Some(scratch) }
        }
    }
}

/// The store contract: each named test runs on SQLite and on PostgreSQL.
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test]
            async fn sqlite() {
                super::$name(crate::store::Backend::Sqlite).await
            }
            #[tokio::test]
            async fn postgres() {
                super::$name(crate::store::Backend::Postgres).await
            }
        }
    )*};
}
pub(in crate::store) use on_both_backends;

on_both_backends!(
    a_turn_round_trips_with_its_snapshot,
    a_repeated_event_id_writes_nothing,
    outbox_rows_are_unsent_until_marked,
    the_whole_outbox_stays_readable_after_it_is_sent,
    points_reach_the_leaderboard,
    a_corrupt_snapshot_is_an_error_not_a_panic,
    messages_keep_their_audience_and_deadlines_are_listed,
    finished_games_feed_stats_memory_and_erasure,
    two_writers_racing_on_one_event_commit_it_once,
    a_lease_is_held_renewed_taken_over_after_expiry_and_fences_commits,
    handed_events_wait_for_the_lease_holder_once_each,
    a_holder_is_told_of_inputs_handed_to_it,
    memory_changes_come_in_commit_order_compacted_and_erasable,
);

async fn with_session(backend: Backend) -> (Fresh, SoupGame) {
    let store = fresh(backend).await;
    let p = puzzle();
    let game = SoupGame::new(&p, 3).apply(&SoupEvent::Start, &p).unwrap();
    let new = NewSession {
        id: "s1".into(),
        puzzle_id: p.id.clone(),
        language: Language::En,
        channel: "test".into(),
        canary: "CANARY-1".into(),
        snapshot: game.snapshot().unwrap(),
        created_ms: 10,
    };
    store.create_session(&new).await.unwrap();
    (store, game)
}

fn commit<'a>(
    reply: &'a Reply,
    event: Option<&'a str>,
    next: Option<&'a Snapshot>,
    record: &'a TurnRecord,
    player: &'a Player,
) -> TurnCommit<'a> {
    TurnCommit {
        session_id: "s1",
        event_id: event,
        player,
        kind: "ask",
        input: "Was he alone?",
        record,
        reply,
        messages: &[],
        next,
        points: &[],
        created_ms: 20,
        lease: None,
    }
}

fn question(usage: Usage) -> TurnRecord {
    TurnRecord { intent: Some(Intent::Question), usage, ..TurnRecord::default() }
}

async fn a_turn_round_trips_with_its_snapshot(backend: Backend) {
    let (store, game) = with_session(backend).await;
    let mut next = game.clone();
    next.questions = 1;
    let reply = Reply { kind: ReplyKind::Verdict, text: "NO: try again".into(), verdict: Some(Verdict::No) };
    let usage = Usage { model_calls: 2, prompt_tokens: 300, completion_tokens: 9, judge_parse: "clean" };
    let record = question(usage);
    let player = alice();
    let snapshot = next.snapshot().unwrap();
    let c = store.commit_turn(&commit(&reply, Some("e1"), Some(&snapshot), &record, &player)).await.unwrap();
    assert_eq!(c.seq, 1);
    let loaded = store.load_session("s1").await.unwrap().unwrap();
    assert_eq!(loaded.game::<SoupGame>().unwrap(), next);
    let t = &loaded.turns[0];
    assert_eq!(
        (t.verdict, t.model_calls, t.prompt_tokens, t.judge_parse.as_str()),
        (Some(Verdict::No), 2, 300, "clean")
    );
    assert_eq!(t.reply, reply);
    assert_eq!(store.find_event("s1", "e1").await.unwrap(), Some(reply));
}

async fn a_repeated_event_id_writes_nothing(backend: Backend) {
    let (store, _) = with_session(backend).await;
    let reply = Reply { kind: ReplyKind::Verdict, text: "YES".into(), verdict: Some(Verdict::Yes) };
    let record = question(Usage::default());
    let player = alice();
    store.commit_turn(&commit(&reply, Some("e1"), None, &record, &player)).await.unwrap();
    let err = store.commit_turn(&commit(&reply, Some("e1"), None, &record, &player)).await.unwrap_err();
    assert!(matches!(err, StoreError::Duplicate(ref id) if id == "e1"), "{err}");
    assert_eq!(store.load_session("s1").await.unwrap().unwrap().turns.len(), 1);
    assert_eq!(store.unsent("s1").await.unwrap().len(), 1);
}

async fn outbox_rows_are_unsent_until_marked(backend: Backend) {
    let (store, _) = with_session(backend).await;
    let reply = Reply { kind: ReplyKind::Hint, text: "hint".into(), verdict: None };
    let record = question(Usage::default());
    let player = alice();
    let c = store.commit_turn(&commit(&reply, None, None, &record, &player)).await.unwrap();
    assert_eq!(store.unsent("s1").await.unwrap()[0].id, c.outbox_id);
    store.mark_sent(c.outbox_id).await.unwrap();
    assert!(store.unsent("s1").await.unwrap().is_empty());
}

async fn the_whole_outbox_stays_readable_after_it_is_sent(backend: Backend) {
    let (store, _) = with_session(backend).await;
    let record = question(Usage::default());
    let player = alice();
    let first = Reply { kind: ReplyKind::Hint, text: "hint".into(), verdict: None };
    let second = Reply { kind: ReplyKind::Notice, text: "later".into(), verdict: None };
    let a = store.commit_turn(&commit(&first, Some("e1"), None, &record, &player)).await.unwrap();
    let b = store.commit_turn(&commit(&second, Some("e2"), None, &record, &player)).await.unwrap();
    store.mark_sent(a.outbox_id).await.unwrap();
    let all = store.outbox("s1").await.unwrap();
    let rows: Vec<(i64, i64, &str)> = all.iter().map(|o| (o.id, o.seq, o.body.as_str())).collect();
    assert_eq!(rows, [(a.outbox_id, a.seq, "hint"), (b.outbox_id, b.seq, "later")]);
    assert_eq!(store.unsent("s1").await.unwrap().len(), 1, "only the unsent one is left to show");
}

async fn points_reach_the_leaderboard(backend: Backend) {
    let (store, game) = with_session(backend).await;
    let mut solved = game.clone();
    solved.phase = Phase::Solved;
    solved.solver = Some("t:alice".into());
    let reply = Reply { kind: ReplyKind::Solved, text: "solved".into(), verdict: None };
    let usage = Usage::default();
    let player = alice();
    let points = [
        Points { player: Player { id: "t:alice".into(), name: "Alice".into() }, points: 90, solved: true, role: None },
        Points { player: Player { id: "t:bob".into(), name: "Bob".into() }, points: 5, solved: false, role: None },
    ];
    let record = question(usage);
    let snapshot = solved.snapshot().unwrap();
    let mut c = commit(&reply, None, Some(&snapshot), &record, &player);
    c.points = &points;
    store.commit_turn(&c).await.unwrap();
    let board = store.leaderboard(None, 10).await.unwrap();
    assert_eq!(
        board.iter().map(|r| (r.name.as_str(), r.points, r.solves)).collect::<Vec<_>>(),
        [("Alice", 90, 1), ("Bob", 5, 0)]
    );
    let sessions = store.recent_sessions(5).await.unwrap();
    assert_eq!(sessions[0].phase, Phase::Solved.as_str());

    // Per server: only games whose thread is bound in that scope count.
    use crate::core::guild::{GuildStore, ThreadBinding};
    assert!(store.leaderboard(Some("discord:g1"), 10).await.unwrap().is_empty(), "no game in that scope yet");
    let binding = ThreadBinding {
        thread: "discord:t1".into(),
        scope: "discord:g1".into(),
        session_id: "s1".into(),
        started_by: "t:alice".into(),
        created_ms: 1,
        ended_ms: None,
    };
    store.bind_thread(&binding).await.unwrap();
    assert_eq!(store.leaderboard(Some("discord:g1"), 10).await.unwrap().len(), 2);
    let stats = store.soup_stats("t:alice", Some("discord:g1")).await.unwrap();
    assert_eq!((stats.games, stats.solves, stats.puzzles.len()), (1, 1, 1));
    assert_eq!(store.soup_stats("t:alice", Some("discord:g2")).await.unwrap(), SoupStats::default());
    assert_eq!(store.soup_stats("t:nobody", None).await.unwrap(), SoupStats::default());
}

#[tokio::test]
async fn a_file_database_survives_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested/echoes.db");
    {
        let store = SqlStore::open(&path).await.unwrap();
        let p = puzzle();
        let game = SoupGame::new(&p, 3);
        let new = NewSession {
            id: "s9".into(),
            puzzle_id: p.id,
            language: Language::En,
            channel: "c".into(),
            canary: "k".into(),
            snapshot: game.snapshot().unwrap(),
            created_ms: 1,
        };
        store.create_session(&new).await.unwrap();
    }
    let reopened = SqlStore::open(&path).await.unwrap();
    assert!(reopened.load_session("s9").await.unwrap().is_some());
    assert!(reopened.load_session("nope").await.unwrap().is_none());
}

async fn a_corrupt_snapshot_is_an_error_not_a_panic(backend: Backend) {
    let (store, _) = with_session(backend).await;
    sqlx::query("UPDATE sessions SET snapshot = '{broken' WHERE id = 's1'").execute(&store.writer).await.unwrap();
    assert!(matches!(store.load_session("s1").await, Err(StoreError::Corrupt(_))));
}

async fn messages_keep_their_audience_and_deadlines_are_listed(backend: Backend) {
    use crate::core::game::{Message, Snapshot};
    let (store, game) = with_session(backend).await;
    let reply = Reply { kind: ReplyKind::Ballot, text: "Voting is open.".into(), verdict: None };
    let messages = [
        Message::to(Audience::Seat("t:alice".into()), ReplyKind::Private, "Your word: lantern"),
        Message::to(Audience::Moderators, ReplyKind::Notice, "A vote opened."),
    ];
    let record = question(Usage::default());
    let player = alice();
    let snapshot = Snapshot { deadline_ms: Some(45_000), ..game.snapshot().unwrap() };
    let mut c = commit(&reply, Some("e1"), Some(&snapshot), &record, &player);
    c.messages = &messages;
    let committed = store.commit_turn(&c).await.unwrap();
    assert_eq!(committed.message_ids.len(), 2);
    let unsent = store.unsent("s1").await.unwrap();
    let audiences: Vec<&Audience> = unsent.iter().map(|i| &i.audience).collect();
    assert_eq!(audiences, [&Audience::Everyone, &Audience::Seat("t:alice".into()), &Audience::Moderators]);
    assert_eq!(unsent[1].body, "Your word: lantern");
    assert_eq!(store.pending_deadlines().await.unwrap(), vec![("s1".to_string(), 45_000)]);
    let loaded = store.load_session("s1").await.unwrap().unwrap();
    assert_eq!(loaded.snapshot.deadline_ms, Some(45_000));
}

async fn finished_games_feed_stats_memory_and_erasure(backend: Backend) {
    let (store, game) = with_session(backend).await;
    assert_eq!(store.last_finished("test", "soup").await.unwrap(), None, "not over yet");
    let mut solved = game.clone();
    solved.phase = Phase::Solved;
    solved.questions = 4;
    solved.solver = Some("t:alice".into());
    let reply = Reply { kind: ReplyKind::Solved, text: "solved".into(), verdict: None };
    let record = TurnRecord { intent: Some(Intent::Guess), ..TurnRecord::default() };
    let player = alice();
    let points = [Points { player: alice(), points: 80, solved: true, role: Some("solver".into()) }];
    let snapshot = solved.snapshot().unwrap();
    let mut c = commit(&reply, Some("g1"), Some(&snapshot), &record, &player);
    c.points = &points;
    store.commit_turn(&c).await.unwrap();
    store.set_summary("s1", "Alice solved it in four questions.").await.unwrap();
    assert_eq!(store.last_finished("test", "soup").await.unwrap().as_deref(), Some("s1"));
    assert_eq!(store.last_finished("elsewhere", "soup").await.unwrap(), None);
    assert_eq!(store.last_finished("tes", "soup").await.unwrap(), None, "a prefix is not a place");
    assert_eq!(store.last_finished("test", "undercover").await.unwrap(), None);

    let finished = store.finished_sessions().await.unwrap();
    assert_eq!(finished.len(), 1);
    assert_eq!(
        (finished[0].summary.as_deref(), finished[0].players.as_slice()),
        (Some("Alice solved it in four questions."), [alice()].as_slice())
    );
    let stats = store.player_stats("t:alice").await.unwrap();
    assert_eq!((stats.games, stats.solves, stats.questions_in_solves, stats.guesses), (1, 1, 4, 1));
    let puzzle = store.puzzle_stats(&puzzle().id).await.unwrap();
    assert_eq!((puzzle.plays, puzzle.solves, puzzle.median_questions), (1, 1, Some(4.0)));
    let roles = store.role_stats("soup", None, 10).await.unwrap();
    assert_eq!(roles.iter().map(|r| (r.role.as_str(), r.games, r.wins)).collect::<Vec<_>>(), [("solver", 1, 1)]);
    assert_eq!(store.find_players("alice").await.unwrap(), [alice()], "names match without case");
    assert_eq!(store.session_kind("s1").await.unwrap().as_deref(), Some("soup"));
    assert_eq!(store.session_kind("nope").await.unwrap(), None);
    assert!(store.custom_puzzles().await.unwrap().is_empty());

    // Erasing a player's memory hides every game before it.
    store.erase_player_memory("t:alice", 10_000).await.unwrap();
    assert!(store.finished_sessions().await.unwrap().is_empty());
    assert_eq!(store.player_stats("t:alice").await.unwrap(), PlayerStats::default());
    assert!(store.leaderboard(None, 10).await.unwrap().is_empty());
}

async fn two_writers_racing_on_one_event_commit_it_once(backend: Backend) {
    let (store, _) = with_session(backend).await;
    let reply = Reply { kind: ReplyKind::Verdict, text: "YES".into(), verdict: Some(Verdict::Yes) };
    let record = question(Usage::default());
    let player = alice();
    let turn = commit(&reply, Some("e7"), None, &record, &player);
    let (a, b) = tokio::join!(store.commit_turn(&turn), store.commit_turn(&turn));
    let duplicates = [&a, &b].iter().filter(|r| matches!(r, Err(StoreError::Duplicate(id)) if id == "e7")).count();
    assert_eq!((a.is_ok() as u8 + b.is_ok() as u8, duplicates), (1, 1), "{a:?} {b:?}");
    assert_eq!(store.load_session("s1").await.unwrap().unwrap().turns.len(), 1);
    assert_eq!(store.unsent("s1").await.unwrap().len(), 1);
}

async fn a_lease_is_held_renewed_taken_over_after_expiry_and_fences_commits(backend: Backend) {
    use crate::core::store::{Lease, LeaseRenewal};
    let (store, _) = with_session(backend).await;
    assert_eq!(store.claim_lease("s1", "a", 100, 1_100).await.unwrap(), Lease::Held);
    assert_eq!(store.claim_lease("s1", "a", 500, 1_500).await.unwrap(), Lease::Held, "the holder renews");
    let refused = store.claim_lease("s1", "b", 600, 1_600).await.unwrap();
    assert_eq!(refused, Lease::HeldBy { owner: "a".into(), until_ms: 1_500 });

    // a's turn commits under its lease (and renews it).
    let reply = Reply { kind: ReplyKind::Verdict, text: "YES".into(), verdict: Some(Verdict::Yes) };
    let record = question(Usage::default());
    let player = alice();
    let mut turn = commit(&reply, Some("e1"), None, &record, &player);
    turn.lease = Some(LeaseRenewal { owner: "a", until_ms: 2_000 });
    store.commit_turn(&turn).await.unwrap();
    assert!(matches!(store.claim_lease("s1", "b", 1_800, 2_800).await.unwrap(), Lease::HeldBy { until_ms: 2_000, .. }));

    // a stalls past its expiry; b takes the session over; a's late turn is refused.
    assert_eq!(store.claim_lease("s1", "b", 2_001, 3_000).await.unwrap(), Lease::Held);
    let mut late = commit(&reply, Some("e2"), None, &record, &player);
    late.lease = Some(LeaseRenewal { owner: "a", until_ms: 3_000 });
    assert!(matches!(store.commit_turn(&late).await, Err(StoreError::LeaseLost(ref s)) if s == "s1"));
    assert_eq!(store.load_session("s1").await.unwrap().unwrap().turns.len(), 1, "nothing of the late turn");

    store.release_lease("s1", "a").await.unwrap();
    assert!(
        matches!(store.claim_lease("s1", "c", 2_100, 3_100).await.unwrap(), Lease::HeldBy { .. }),
        "only b releases b's"
    );
    store.release_lease("s1", "b").await.unwrap();
    assert_eq!(store.claim_lease("s1", "c", 2_100, 3_100).await.unwrap(), Lease::Held);
}

async fn handed_events_wait_for_the_lease_holder_once_each(backend: Backend) {
    use crate::core::store::Handed;
    let (store, _) = with_session(backend).await;
    store.claim_lease("s1", "a", 100, 1_000).await.unwrap();
    let event = Handed { session_id: "s1".into(), event_id: "e9".into(), inbound: "{}".into() };
    assert!(store.hand_off(&event, 110).await.unwrap());
    assert!(!store.hand_off(&event, 120).await.unwrap(), "a redelivered event is queued once");
    assert_eq!(store.handed("a", 200, 10).await.unwrap(), std::slice::from_ref(&event));
    assert!(store.handed("b", 200, 10).await.unwrap().is_empty(), "not b's while a holds the lease");
    assert_eq!(store.handed("b", 1_001, 10).await.unwrap(), std::slice::from_ref(&event), "b's once a's lease ran out");
    assert_eq!(store.handed_to("s1").await.unwrap(), std::slice::from_ref(&event));
    assert!(store.handed_to("s2").await.unwrap().is_empty());
    store.drop_handed("s1", "e9").await.unwrap();
    assert!(store.handed("a", 200, 10).await.unwrap().is_empty());
}

async fn a_holder_is_told_of_inputs_handed_to_it(backend: Backend) {
    use std::time::Duration;

    use crate::core::store::Handed;
    let (store, _) = with_session(backend).await;
    store.claim_lease("s1", "a", 100, 1_000).await.unwrap();
    let (a, b) = (store.handoff_signals("a").await.unwrap(), store.handoff_signals("b").await.unwrap());
    let (Some(mut a), Some(mut b)) = (a, b) else {
        assert_eq!(backend, Backend::Sqlite, "PostgreSQL tells holders; SQLite's poll");
        return;
    };
    let event = |id: &str| Handed { session_id: "s1".into(), event_id: id.into(), inbound: "{}".into() };
    assert!(store.hand_off(&event("e1"), 110).await.unwrap());
    tokio::time::timeout(Duration::from_secs(10), a.recv()).await.expect("the holder is told").unwrap();
    assert!(!store.hand_off(&event("e1"), 120).await.unwrap());
    store.release_lease("s1", "a").await.unwrap();
    assert!(store.hand_off(&event("e2"), 130).await.unwrap());
    tokio::time::timeout(Duration::from_secs(10), b.recv())
        .await
        .expect("anyone is told of a session nobody holds")
        .unwrap();
    assert!(b.try_recv().is_err(), "b was not told of a's session, nor twice");
    tokio::time::timeout(Duration::from_secs(10), a.recv()).await.expect("a too").unwrap();
    assert!(a.try_recv().is_err(), "one wake-up each");
}

/// Player memory's record: changes in commit order, a memory written again
/// keeping only its newest row, an erased namespace gone from the record
/// (one forget left for the followers), and followers told on PostgreSQL.
async fn memory_changes_come_in_commit_order_compacted_and_erasable(backend: Backend) {
    use crate::core::memory::{MemoryItem, MemoryKind};
    use crate::core::store::{MemoryOp, MemoryRecord};
    use std::time::Duration;
    let store = fresh(backend).await;
    let signals = store.memory_signals().await.unwrap();
    assert_eq!(signals.is_some(), backend == Backend::Postgres, "PostgreSQL tells followers; SQLite's poll");
    let item = |id: &str, ns: &str, text: &str| MemoryItem {
        id: id.into(),
        namespace: ns.into(),
        kind: MemoryKind::Summary,
        text: text.into(),
        updated_ms: 5,
    };
    store.record_memories(&[item("a#1", "player:a", "old"), item("b#1", "player:b", "bee")]).await.unwrap();
    store.record_memories(&[item("a#1", "player:a", "new")]).await.unwrap();
    let all = store.memory_changes(0, 100).await.unwrap();
    let texts: Vec<&str> = all
        .iter()
        .map(|c| match &c.op {
            MemoryOp::Put(m) => m.text.as_str(),
            MemoryOp::Forget { .. } => "-",
        })
        .collect();
    assert_eq!(texts, ["bee", "new"], "the rewrite replaced its row and comes last");
    assert!(all.windows(2).all(|w| w[0].seq < w[1].seq));
    let after = store.memory_changes(all[0].seq, 100).await.unwrap();
    assert_eq!(after.len(), 1, "only what came after");

    assert_eq!(store.record_forget("player:a", 9).await.unwrap(), 1);
    let now = store.memory_changes(0, 100).await.unwrap();
    assert_eq!(now.len(), 2, "b's memory and a's forget: {now:?}");
    assert_eq!(now[1].op, MemoryOp::Forget { namespace: "player:a".into() });
    assert!(now.iter().all(|c| !matches!(&c.op, MemoryOp::Put(m) if m.namespace == "player:a")), "a's text is gone");
    assert_eq!(store.record_forget("player:a", 10).await.unwrap(), 0, "nothing left to erase");
    assert_eq!(store.memory_changes(0, 100).await.unwrap().len(), 2, "one forget per namespace");
    assert_eq!(store.memory_changes(0, 1).await.unwrap().len(), 1, "a limit is a limit");

    if let Some(mut signals) = signals {
        tokio::time::timeout(Duration::from_secs(10), signals.recv()).await.expect("followers are told").unwrap();
    }
}
