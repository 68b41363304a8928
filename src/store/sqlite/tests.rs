use super::*;
use crate::core::fixtures::puzzle;
use crate::core::game::{Game, Points, TurnRecord};
use crate::core::pipeline::Usage;
use crate::core::puzzle::Language;
use crate::core::soup::{Phase, SoupEvent, SoupGame};

fn alice() -> Player {
    Player { id: "t:alice".into(), name: "Alice".into() }
}

async fn with_session() -> (SqliteStore, SoupGame) {
    let store = SqliteStore::in_memory().await.unwrap();
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
    }
}

fn question(usage: Usage) -> TurnRecord {
    TurnRecord { intent: Some(Intent::Question), usage, ..TurnRecord::default() }
}

#[tokio::test]
async fn a_turn_round_trips_with_its_snapshot() {
    let (store, game) = with_session().await;
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

#[tokio::test]
async fn a_repeated_event_id_writes_nothing() {
    let (store, _) = with_session().await;
    let reply = Reply { kind: ReplyKind::Verdict, text: "YES".into(), verdict: Some(Verdict::Yes) };
    let record = question(Usage::default());
    let player = alice();
    store.commit_turn(&commit(&reply, Some("e1"), None, &record, &player)).await.unwrap();
    let err = store.commit_turn(&commit(&reply, Some("e1"), None, &record, &player)).await.unwrap_err();
    assert!(matches!(err, StoreError::Duplicate(ref id) if id == "e1"), "{err}");
    assert_eq!(store.load_session("s1").await.unwrap().unwrap().turns.len(), 1);
    assert_eq!(store.unsent("s1").await.unwrap().len(), 1);
}

#[tokio::test]
async fn outbox_rows_are_unsent_until_marked() {
    let (store, _) = with_session().await;
    let reply = Reply { kind: ReplyKind::Hint, text: "hint".into(), verdict: None };
    let record = question(Usage::default());
    let player = alice();
    let c = store.commit_turn(&commit(&reply, None, None, &record, &player)).await.unwrap();
    assert_eq!(store.unsent("s1").await.unwrap()[0].id, c.outbox_id);
    store.mark_sent(c.outbox_id).await.unwrap();
    assert!(store.unsent("s1").await.unwrap().is_empty());
}

#[tokio::test]
async fn points_reach_the_leaderboard() {
    let (store, game) = with_session().await;
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
        let store = SqliteStore::open(&path).await.unwrap();
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
    let reopened = SqliteStore::open(&path).await.unwrap();
    assert!(reopened.load_session("s9").await.unwrap().is_some());
    assert!(reopened.load_session("nope").await.unwrap().is_none());
}

#[tokio::test]
async fn a_corrupt_snapshot_is_an_error_not_a_panic() {
    let (store, _) = with_session().await;
    sqlx::query("UPDATE sessions SET snapshot = '{broken' WHERE id = 's1'").execute(&store.writer).await.unwrap();
    assert!(matches!(store.load_session("s1").await, Err(StoreError::Corrupt(_))));
}

#[tokio::test]
async fn messages_keep_their_audience_and_deadlines_are_listed() {
    use crate::core::game::{Message, Snapshot};
    let (store, game) = with_session().await;
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
