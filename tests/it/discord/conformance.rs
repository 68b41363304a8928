//! The fake holds every call to Discord's published OpenAPI document
//! (`discord/fake/spec.rs`): it refuses a body Discord would refuse with
//! Discord's 400, and the test whose bot sent it fails. Every other
//! Discord test runs under the same check.

use echoes::discord::fake::{CHANNEL, FakeDiscord};
use serde_json::{Value, json};

#[tokio::test]
async fn the_fake_refuses_a_body_discord_would_refuse_with_discords_400() {
    let fake = FakeDiscord::start().await.unwrap();
    fake.allow_violations();
    let http = reqwest::Client::new();
    let url = format!("{}/api/v10/channels/{CHANNEL}/messages", fake.base_url());
    let bad = json!({"content": "hi", "embeds": [{"title": "t".repeat(257)}], "flags": "loud"});
    let refused = http.post(&url).json(&bad).send().await.unwrap();
    assert_eq!(refused.status(), 400);
    let body: Value = refused.json().await.unwrap();
    assert_eq!((body["code"].as_i64(), body["message"].as_str()), (Some(50035), Some("Invalid Form Body")));
    assert!(body["errors"]["embeds"]["0"]["title"]["_errors"].is_array(), "{body}");
    assert!(body["errors"]["flags"]["_errors"].is_array(), "{body}");
    let pointers: Vec<String> = fake.violations().iter().map(|v| v.pointer.clone()).collect();
    assert_eq!(pointers, ["/embeds/0/title", "/flags"]);
    assert!(fake.calls().is_empty(), "a refused call did nothing: {:?}", fake.calls());

    let good = http.post(&url).json(&json!({"content": "hi"})).send().await.unwrap();
    assert_eq!(good.status(), 200);
    assert_eq!(fake.violations().len(), 2);
}

#[tokio::test]
async fn a_route_discord_does_not_have_is_a_violation() {
    let fake = FakeDiscord::start().await.unwrap();
    fake.allow_violations();
    let url = format!("{}/api/v10/channels/{CHANNEL}/teleport", fake.base_url());
    let answer = reqwest::Client::new().post(&url).json(&json!({})).send().await.unwrap();
    assert_eq!(answer.status(), 404);
    let found = fake.violations();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].message, "no such route in Discord's API");
}

/// Without `allow_violations`, a fake that saw a refused body fails the
/// test when it is dropped, naming the route and the field.
#[tokio::test]
async fn a_test_whose_bot_breaks_the_spec_fails() {
    let fake = FakeDiscord::start().await.unwrap();
    let url = format!("{}/api/v10/channels/{CHANNEL}/messages", fake.base_url());
    let bad = json!({"embeds": [{"description": 7}]});
    reqwest::Client::new().post(&url).json(&bad).send().await.unwrap();
    let dropped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || drop(fake)));
    let message = dropped.expect_err("the fake let a violation pass");
    let text = message.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(text.contains("POST /channels/{channel_id}/messages: /embeds/0/description"), "{text}");
}
