//! The operator's endpoint over real HTTP: `/metrics` shows the turns an
//! engine played, the model calls a metered model made and the live
//! sessions; `/healthz` answers 200 while the database answers and 503
//! once it does not.

use std::sync::Arc;

use echoes::core::game::TurnInput;
use echoes::core::llm::{ChatMessage, ChatRequest};
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

    let addr = echoes::ops::http::start("127.0.0.1:0", Arc::new(store.clone())).await.unwrap();
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

    let healthy = http.get(format!("http://{addr}/healthz")).send().await.unwrap();
    assert_eq!(healthy.status(), 200);
    store.close().await;
    let down = http.get(format!("http://{addr}/healthz")).send().await.unwrap();
    assert_eq!(down.status(), 503);
    assert!(down.text().await.unwrap().starts_with("database:"));
}
