//! A database written before "one engine, many games" (made by that code:
//! `tests/data/legacy-v0.sqlite`, one solved game of en-noon-gun by Ann
//! and one running game of en-library-card by Bo) opens with the new
//! schema, its Turtle Soup games resume and play on, and its leaderboard
//! is intact.

use echoes::core::soup::verbs::SoupVerb;
use std::sync::Arc;

use echoes::core::actor::{Engine, Inbound};
use echoes::core::game::ReplyKind;
use echoes::core::game::TurnInput;
use echoes::core::llm::RoleModels;
use echoes::core::services::{Pipeline, PipelineSettings};
use echoes::core::soup::verdict::Verdict;
use echoes::core::soup::{Phase, SoupGame};
use echoes::core::store::{SessionRecord, Stats, SystemClock};
use echoes::core::vocab::Player;
use echoes::llm::ScriptedLlm;
use echoes::store::SqlStore;

const SOLVED: &str = "10c35227104d4b97810507a79f72661f";
const RUNNING: &str = "ff16d343129248ab8e057a7eea73073e";

async fn legacy_store() -> (Arc<SqlStore>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("echoes.db");
    let legacy = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/legacy-v0.sqlite");
    std::fs::copy(legacy, &path).unwrap();
    (Arc::new(SqlStore::open(&path).await.unwrap()), dir)
}

#[tokio::test]
async fn the_leaderboard_and_finished_games_survive_the_migration() {
    let (store, _dir) = legacy_store().await;
    let board = store.leaderboard(None, 10).await.unwrap();
    assert_eq!(board.iter().map(|r| (r.name.as_str(), r.points, r.solves)).collect::<Vec<_>>(), [("Ann", 103, 1)]);
    let sessions = store.recent_sessions(10).await.unwrap();
    assert_eq!(sessions.len(), 2);
    assert!(sessions.iter().all(|s| s.kind == "soup"), "every old session is Turtle Soup");
    let solved: SoupGame = store.load_session(SOLVED).await.unwrap().unwrap().game().unwrap();
    assert_eq!((solved.phase, solved.solver.as_deref(), solved.hints_used), (Phase::Solved, Some("console:ann"), 1));
    assert_eq!(store.player_stats("console:ann").await.unwrap().solves, 1);
    assert!(store.pending_deadlines().await.unwrap().is_empty());
    assert!(store.unsent(SOLVED).await.unwrap().iter().all(|i| !i.audience.is_private()));
}

#[tokio::test]
async fn a_running_game_from_before_resumes_and_plays_on() {
    let (store, _dir) = legacy_store().await;
    let judge = Arc::new(ScriptedLlm::new([r#"{"kind": "question", "verdict": "YES", "facts": []}"#.into()]));
    let models = RoleModels { judge: judge.clone(), narrator: judge };
    let settings = PipelineSettings { narrator: false, ..PipelineSettings::default() };
    let pipeline = Pipeline::new(models, Arc::new(echoes::assets::load_prompts(None).unwrap()), settings);
    let engine = Arc::new(Engine::new(pipeline, store.clone(), Arc::new(SystemClock), 0));
    let (library, _) = echoes::puzzles::PuzzleLibrary::load(None);
    let (handle, loaded) = engine.resume_session(RUNNING, |id| library.get(id)).await.unwrap();
    assert_eq!(loaded.turns.len(), 2, "the start and Bo's question");
    let bo = Player { id: "console:bo".into(), name: "Bo".into() };
    let asked =
        handle.send(Inbound::new(bo, TurnInput::from(SoupVerb::Ask("Was the card overdue?".into())))).await.unwrap();
    assert_eq!((asked.reply.kind, asked.reply.verdict), (ReplyKind::Verdict, Some(Verdict::Yes)));
    let game: SoupGame = store.load_session(RUNNING).await.unwrap().unwrap().game().unwrap();
    assert_eq!((game.phase, game.questions), (Phase::InProgress, 2));
}
