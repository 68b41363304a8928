//! The operator's endpoint over real HTTP: `/metrics` shows the turns an
//! engine played, the model calls a metered model made, the live sessions
//! and the build; `/healthz` answers 200 while the database answers and 503
//! once it does not; `/readyz` waits for the database, the knowledge index
//! and the model; `/livez` asks nothing. A 503 names what, never why.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use echoes::core::game::TurnInput;
use echoes::core::llm::{ChatMessage, ChatRequest, ChatResponse, LlmClient, LlmError, RoleModels};
use echoes::llm::ScriptedLlm;
use echoes::ops::http::{Probes, healthcheck, start};
use echoes::store::SqlStore;

use super::{ManualClock, game, rig, send, who};

#[tokio::test]
async fn metrics_count_turns_and_model_calls_and_healthz_follows_the_database() {
    let store = SqlStore::in_memory().await.unwrap();
    let rig = rig(store.clone(), ManualClock::starting_at(1_000), "t:bob").await;
    let alice = who("alice");
    let h = game::open_lobby(&rig.engine, &alice).await.unwrap();
    send(&h, &who("bob"), TurnInput::Join, "ops-j1").await;
    send(&h, &who("bob"), TurnInput::Join, "ops-j1").await;
    let metered = echoes::core::llm::RoleModels { judge: rig.agent.clone(), narrator: rig.agent.clone() }.metered();
    let request = ChatRequest::new(vec![ChatMessage::user("Whom do you trust?")]);
    metered.judge.chat(request).await.unwrap();

    let addr = start("127.0.0.1:0", Probes::new(Arc::new(store.clone()))).await.unwrap();
    let http = reqwest::Client::new();
    let metrics = http.get(format!("http://{addr}/metrics")).send().await.unwrap();
    assert_eq!(metrics.status(), 200);
    assert!(metrics.headers()["content-type"].to_str().unwrap().starts_with("application/openmetrics-text"));
    let text = metrics.text().await.unwrap();
    let value = |prefix: &str| -> f64 {
        let line = text.lines().find(|l| l.starts_with(prefix)).unwrap_or_else(|| panic!("{prefix} in\n{text}"));
        line.rsplit(' ').next().unwrap().parse().unwrap()
    };
    // Counters are per process and tests share it: at least this test's.
    assert!(value("echoes_turns_total{game=\"test-ballot\",outcome=\"committed\"}") >= 1.0, "{text}");
    assert!(value("echoes_turns_total{game=\"test-ballot\",outcome=\"duplicate\"}") >= 1.0, "{text}");
    assert!(value("echoes_model_calls_total{role=\"judge\",result=\"ok\"}") >= 1.0, "{text}");
    assert!(value("echoes_active_sessions") >= 1.0, "{text}");
    assert!(text.contains("echoes_turn_seconds_bucket{"), "{text}");
    assert!(text.contains(&format!("echoes_build_info{{version=\"{}\"", env!("CARGO_PKG_VERSION"))), "{text}");

    let healthy = http.get(format!("http://{addr}/healthz")).send().await.unwrap();
    assert_eq!(healthy.status(), 200);
    store.close().await;
    let down = http.get(format!("http://{addr}/healthz")).send().await.unwrap();
    assert_eq!(down.status(), 503);
    assert_eq!(down.text().await.unwrap(), "database unavailable\n", "the cause stays in the log");
}

/// GETs `path` on the endpoint at `addr`: the status and the body.
async fn get(addr: std::net::SocketAddr, path: &str) -> (u16, String) {
    let response = reqwest::get(format!("http://{addr}{path}")).await.unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

#[tokio::test]
async fn readyz_waits_for_the_database_and_the_knowledge_index_and_livez_for_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqlStore::open(&dir.path().join("ops.db")).await.unwrap();
    let model: Arc<dyn LlmClient> = Arc::new(ScriptedLlm::from_texts(["YES"]));
    let synced = Arc::new(AtomicBool::new(false));
    let flag = synced.clone();
    let probes = Probes::new(Arc::new(store.clone()))
        .knowledge(move || flag.load(Ordering::SeqCst))
        .models(RoleModels { judge: model.clone(), narrator: model });
    let addr = start("127.0.0.1:0", probes).await.unwrap();

    assert_eq!(get(addr, "/livez").await, (200, "ok\n".to_string()));
    assert_eq!(get(addr, "/healthz").await, (200, "ok\n".to_string()));
    assert_eq!(get(addr, "/readyz").await, (503, "not ready: knowledge\n".to_string()), "a sync holds the index");
    synced.store(true, Ordering::SeqCst);
    assert_eq!(get(addr, "/readyz").await, (200, "ready\n".to_string()));
    let url = format!("http://{addr}/healthz");
    assert_eq!(healthcheck(&url).await.unwrap(), format!("{url}: ok"));

    store.close().await;
    assert_eq!(get(addr, "/healthz").await, (503, "database unavailable\n".to_string()));
    assert_eq!(get(addr, "/readyz").await, (503, "not ready: database\n".to_string()));
    assert_eq!(get(addr, "/livez").await.0, 200, "the process still serves");
    let failed = healthcheck(&url).await.unwrap_err().to_string();
    assert!(failed.contains("503") && !failed.contains('\n'), "{failed}");
}

/// A provider that does not answer, its error naming where it was asked.
struct Unreachable;

#[async_trait::async_trait]
impl LlmClient for Unreachable {
    fn describe(&self) -> String {
        "unreachable".to_string()
    }

    async fn chat(&self, _request: ChatRequest) -> Result<ChatResponse, LlmError> {
        Err(LlmError::Unavailable("connection refused by 10.0.0.9:11434".to_string()))
    }

    async fn health(&self) -> Result<(), LlmError> {
        Err(LlmError::Unavailable("connection refused by 10.0.0.9:11434".to_string()))
    }
}

#[tokio::test]
async fn readyz_is_not_ready_while_the_model_does_not_answer_and_says_no_more() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqlStore::open(&dir.path().join("ops.db")).await.unwrap();
    let down: Arc<dyn LlmClient> = Arc::new(Unreachable);
    let probes = Probes::new(Arc::new(store)).models(RoleModels { judge: down.clone(), narrator: down });
    let addr = start("127.0.0.1:0", probes).await.unwrap();

    assert_eq!(get(addr, "/readyz").await, (503, "not ready: model\n".to_string()));
    assert_eq!(get(addr, "/healthz").await.0, 200, "health asks the database only");
    let nothing = start("127.0.0.1:0", Probes::new(Arc::new(SqlStore::in_memory().await.unwrap()))).await.unwrap();
    assert_eq!(get(nothing, "/readyz").await.0, 200, "without models or knowledge to wait for");
}
