use crate::core::soup::verbs::SoupVerb;
use crate::core::vocab::Player;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use super::*;
use crate::core::embed::Embedder;
use crate::core::fixtures::puzzle;
use crate::core::game::ReplyKind;
use crate::core::llm::RoleModels;
use crate::core::services::PipelineSettings;
use crate::core::soup::SoupGame;
use crate::core::store::{Clock, Stats};
use crate::llm::{ScriptedLlm, ScriptedReply};
use crate::store::SqlStore;

struct FixedClock(AtomicI64);

impl Clock for FixedClock {
    fn now_ms(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

async fn engine(judge: ScriptedLlm) -> (Arc<Engine>, Arc<FixedClock>) {
    let judge = Arc::new(judge);
    let clock = Arc::new(FixedClock(AtomicI64::new(1_000)));
    let settings = PipelineSettings { narrator: false, ..PipelineSettings::default() };
    let models = RoleModels { judge: judge.clone(), narrator: judge };
    let pipeline = Pipeline::new(models, Arc::new(crate::assets::load_prompts(None).unwrap()), settings);
    let store = Arc::new(SqlStore::in_memory().await.unwrap());
    let engine = Engine::new(pipeline, store, clock.clone(), 60_000);
    (Arc::new(engine), clock)
}

fn alice() -> Player {
    Player { id: "t:alice".into(), name: "Alice".into() }
}

fn ask(text: &str, event: Option<&str>) -> Inbound {
    let mut inbound = Inbound::new(alice(), TurnInput::from(SoupVerb::Ask(text.into())));
    inbound.event_id = event.map(str::to_string);
    inbound
}

fn verdict(v: &str) -> ScriptedReply {
    ScriptedReply::text(format!(r#"{{"kind":"question","verdict":"{v}","facts":[]}}"#))
}

#[tokio::test]
async fn a_repeated_event_is_answered_from_the_record() {
    let (engine, _) = engine(ScriptedLlm::new([verdict("NO")])).await;
    let (handle, intro) = engine.start_session(Arc::new(puzzle()), "test", 3, alice()).await.unwrap();
    assert_eq!(intro.reply.kind, ReplyKind::Intro);
    let first = handle.send(ask("Was he alone?", Some("evt-1"))).await.unwrap();
    let again = handle.send(ask("Was he alone?", Some("evt-1"))).await.unwrap();
    assert!(!first.duplicate && again.duplicate);
    assert_eq!(first.reply, again.reply);
    let loaded = engine.store.load_session(&handle.id).await.unwrap().unwrap();
    assert_eq!(loaded.turns.len(), 2, "start + one question, not two");
    assert_eq!(loaded.game::<SoupGame>().unwrap().questions, 1);
}

#[tokio::test]
async fn the_reply_is_committed_before_it_is_handed_over() {
    let (engine, _) = engine(ScriptedLlm::new([verdict("YES")])).await;
    let (handle, _) = engine.start_session(Arc::new(puzzle()), "test", 3, alice()).await.unwrap();
    let delivery = handle.send(ask("Did a ship sink?", None)).await.unwrap();
    let unsent = engine.store.unsent(&handle.id).await.unwrap();
    assert!(unsent.iter().any(|o| Some(o.id) == delivery.outbox_id && o.body == delivery.reply.text));
    handle.delivered(&delivery).await.unwrap();
    assert!(!engine.store.unsent(&handle.id).await.unwrap().iter().any(|o| Some(o.id) == delivery.outbox_id));
}

#[tokio::test]
async fn a_failed_turn_stores_nothing_and_a_retry_succeeds() {
    let script = [ScriptedReply::Error(crate::core::llm::LlmError::Timeout), verdict("YES")];
    let (engine, _) = engine(ScriptedLlm::new(script)).await;
    let (handle, _) = engine.start_session(Arc::new(puzzle()), "test", 3, alice()).await.unwrap();
    let failed = handle.send(ask("Did a ship sink?", Some("e1"))).await.unwrap();
    assert_eq!(failed.reply.kind, ReplyKind::Unavailable);
    assert!(failed.outbox_id.is_none());
    let retried = handle.send(ask("Did a ship sink?", Some("e1"))).await.unwrap();
    assert_eq!(retried.reply.verdict, Some(crate::core::soup::verdict::Verdict::Yes));
    assert!(!retried.duplicate);
}

#[tokio::test]
async fn turns_in_one_session_keep_their_order() {
    let replies: Vec<ScriptedReply> = (0..20).map(|i| verdict(if i % 2 == 0 { "YES" } else { "NO" })).collect();
    let (engine, _) = engine(ScriptedLlm::new(replies)).await;
    let (handle, _) = engine.start_session(Arc::new(puzzle()), "test", 3, alice()).await.unwrap();
    let sends: Vec<_> = (0..20)
        .map(|i| {
            let handle = handle.clone();
            async move { handle.send(ask(&format!("question number {i}"), None)).await.unwrap() }
        })
        .collect();
    futures::future::join_all(sends).await;
    let loaded = engine.store.load_session(&handle.id).await.unwrap().unwrap();
    let inputs: Vec<String> = loaded.turns.iter().skip(1).map(|t| t.input.clone()).collect();
    let expected: Vec<String> = (0..20).map(|i| format!("question number {i}")).collect();
    assert_eq!(inputs, expected, "queued turns are handled in arrival order");
}

#[tokio::test]
async fn sessions_run_concurrently() {
    // Each judge call takes 200 ms; ten sessions finishing in well under
    // 10 x 200 ms shows one slow session does not hold up the others.
    let slow = (0..10).map(|_| ScriptedReply::delayed(Duration::from_millis(200), verdict("YES")));
    let (engine, _) = engine(ScriptedLlm::new(slow)).await;
    let mut handles = Vec::new();
    for i in 0..10 {
        let (h, _) = engine.start_session(Arc::new(puzzle()), &format!("c{i}"), 3, alice()).await.unwrap();
        handles.push(h);
    }
    let started = std::time::Instant::now();
    let sends = handles.iter().map(|h| h.send(ask("Did a ship sink?", None)));
    for d in futures::future::join_all(sends).await {
        assert_eq!(d.unwrap().reply.kind, ReplyKind::Verdict);
    }
    assert!(started.elapsed() < Duration::from_millis(1_500), "took {:?}", started.elapsed());
}

#[tokio::test]
async fn an_idle_game_expires_and_shows_its_story() {
    let (engine, clock) = engine(ScriptedLlm::new([])).await;
    let (handle, _) = engine.start_session(Arc::new(puzzle()), "test", 3, alice()).await.unwrap();
    clock.0.store(1_000 + 61_000, Ordering::SeqCst);
    let d = handle.send(ask("Still there?", None)).await.unwrap();
    assert!(d.over, "the game expired");
    assert!(d.reply.text.contains("brother"), "{}", d.reply.text);
}

#[tokio::test]
async fn a_resumed_session_has_its_state_and_history() {
    let (engine, _) = engine(ScriptedLlm::new([verdict("YES")])).await;
    let p = Arc::new(puzzle());
    let (handle, _) = engine.start_session(p.clone(), "test", 3, alice()).await.unwrap();
    handle.send(ask("Did a ship sink?", None)).await.unwrap();
    handle.send(Inbound::new(alice(), TurnInput::from(SoupVerb::Hint))).await.unwrap();
    drop(handle);
    let sessions = engine.store.recent_sessions(5).await.unwrap();
    let (resumed, loaded) = engine.resume_session(&sessions[0].id, |_| Some(p.clone())).await.unwrap();
    assert_eq!(
        {
            let g: SoupGame = loaded.game().unwrap();
            (g.questions, g.hints_used)
        },
        (1, 1)
    );
    let history = resumed.send(Inbound::new(alice(), TurnInput::from(SoupVerb::History))).await.unwrap();
    assert!(history.reply.text.contains("Did a ship sink?"), "{}", history.reply.text);
}

#[tokio::test]
async fn a_finished_game_is_remembered_for_its_players_and_can_be_forgotten() {
    use crate::core::memory::{Memory, MemoryKind};
    let script = [
        verdict("YES"),
        ScriptedReply::text(r#"{"kind":"guess","facts":["f1","f2"]}"#),
        "Alice cracked it fast.".into(),
    ];
    let judge = Arc::new(ScriptedLlm::new(script));
    let models = RoleModels { judge: judge.clone(), narrator: judge.clone() };
    let settings = PipelineSettings { narrator: false, ..PipelineSettings::default() };
    let mut pipeline = Pipeline::new(models, Arc::new(crate::assets::load_prompts(None).unwrap()), settings);
    let dir = tempfile::tempdir().unwrap();
    let db = crate::knowledge::open_db(dir.path()).await.unwrap();
    let memory = Arc::new(
        crate::knowledge::LanceMemory::open(&db, Arc::new(crate::knowledge::HashingEmbedder::new(64))).await.unwrap(),
    );
    pipeline.memory = Some(memory.clone());
    let store = Arc::new(SqlStore::in_memory().await.unwrap());
    let engine = Arc::new(Engine::new(pipeline, store.clone(), Arc::new(crate::core::store::SystemClock), 0));

    let (handle, _) = engine.start_session(Arc::new(puzzle()), "test", 3, alice()).await.unwrap();
    handle.send(ask("Did a ship sink?", None)).await.unwrap();
    let solved = handle
        .send(Inbound::new(alice(), TurnInput::from(SoupVerb::Guess("the dark lamp drowned his brother".into()))))
        .await
        .unwrap();
    assert_eq!(solved.reply.kind, ReplyKind::Solved);
    engine.settle().await;

    let items = memory.list("player:t:alice").await.unwrap();
    let kinds: Vec<MemoryKind> = items.iter().map(|m| m.kind).collect();
    assert!(
        kinds.contains(&MemoryKind::Summary)
            && kinds.contains(&MemoryKind::Stats)
            && kinds.contains(&MemoryKind::Profile),
        "{items:?}"
    );
    assert!(items.iter().any(|m| m.text.contains("Alice cracked it fast.")), "the model's summary is kept");
    assert!(items.iter().any(|m| m.text.contains("played 1 games and solved 1")), "{items:?}");
    let summary_prompt = &judge.requests()[2].messages[0].content;
    assert!(
        !summary_prompt.contains("cargo ship") && !summary_prompt.contains("CANARY"),
        "summaries see public content only"
    );

    // Rebuilt from SQL after the index is emptied; forgetting survives a rebuild.
    memory.clear().await.unwrap();
    crate::core::soup::remember::rebuild_memory(store.as_ref(), memory.as_ref()).await.unwrap();
    assert_eq!(memory.list("player:t:alice").await.unwrap().len(), 3);
    memory.forget("player:t:alice").await.unwrap();
    store.erase_player_memory("t:alice", i64::MAX / 2).await.unwrap();
    memory.clear().await.unwrap();
    crate::core::soup::remember::rebuild_memory(store.as_ref(), memory.as_ref()).await.unwrap();
    let after: Vec<_> =
        memory.list("player:t:alice").await.unwrap().into_iter().filter(|m| m.kind == MemoryKind::Summary).collect();
    assert!(after.is_empty(), "{after:?}");
}

/// The hashing embedder, counting the texts it embeds, under a name no
/// other test prepares a puzzle with (prepared answers are kept per process).
struct CountingEmbedder(crate::knowledge::HashingEmbedder, std::sync::Mutex<usize>);

#[async_trait::async_trait]
impl Embedder for CountingEmbedder {
    fn describe(&self) -> String {
        "counting:warm-up".into()
    }
    fn dimensions(&self) -> usize {
        self.0.dimensions()
    }
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, crate::core::embed::EmbedError> {
        *self.1.lock().unwrap() += texts.len();
        self.0.embed(texts).await
    }
}

#[tokio::test]
async fn a_puzzles_known_answers_are_prepared_while_the_players_read_the_story() {
    let (engine, _) = engine(ScriptedLlm::new([verdict("NO")])).await;
    let embedder = Arc::new(CountingEmbedder(crate::knowledge::HashingEmbedder::new(16), Default::default()));
    let dir = tempfile::tempdir().unwrap();
    let db = crate::knowledge::open_db(dir.path()).await.unwrap();
    let cache = Arc::new(crate::knowledge::LanceVectorCache::open(&db, 16).await.unwrap());
    let mut pipeline = engine.pipeline.clone();
    pipeline.embedder = Some(embedder.clone());
    pipeline.vector_cache = Some(cache);
    let engine = Arc::new(Engine::new(pipeline, engine.store.clone(), Arc::new(crate::core::store::SystemClock), 0));

    let p = puzzle();
    let texts = p.known.len() + p.facts.iter().flat_map(|f| f.statements()).count();
    let (handle, _) = engine.start_session(Arc::new(p), "test", 3, alice()).await.unwrap();
    // No question yet: the warm-up embeds them in the background.
    for _ in 0..500 {
        if *embedder.1.lock().unwrap() >= texts {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(*embedder.1.lock().unwrap(), texts, "every known answer and fact, once");
    handle.send(ask("Was he alone?", None)).await.unwrap();
    let after = *embedder.1.lock().unwrap() - texts;
    assert!(after <= 2, "the question embeds itself, not the puzzle again ({after} texts)");
}
