use std::time::{Duration, Instant};

use serde_json::json;
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::*;
use crate::llm::settings::ProviderKind;
use crate::llm::test_support::{full_request, refused_url, resolved, schema, simple_request};

const CHAT_PATH: &str = "/v1/chat/completions";

fn base(server: &MockServer) -> String {
    format!("{}/v1", server.uri())
}

fn client(base_url: &str, stream: bool) -> OpenAiClient {
    OpenAiClient::new(&resolved(ProviderKind::OpenAi, base_url, stream)).expect("client builds")
}

fn client_with(base_url: &str, edit: impl FnOnce(&mut ResolvedProvider)) -> OpenAiClient {
    let mut settings = resolved(ProviderKind::OpenAi, base_url, false);
    edit(&mut settings);
    OpenAiClient::new(&settings).expect("client builds")
}

fn completion_json(content: &str) -> serde_json::Value {
    json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [{ "index": 0, "message": { "role": "assistant", "content": content }, "finish_reason": "stop" }],
        "usage": { "prompt_tokens": 31, "completion_tokens": 2, "total_tokens": 33 }
    })
}

fn error_json(message: &str, kind: &str) -> serde_json::Value {
    json!({ "error": { "message": message, "type": kind, "param": null, "code": null } })
}

async fn mount_chat(server: &MockServer, response: ResponseTemplate, times: Option<u64>) {
    let mock = Mock::given(method("POST")).and(path(CHAT_PATH)).respond_with(response);
    match times {
        Some(n) => mock.up_to_n_times(n).mount(server).await,
        None => mock.mount(server).await,
    }
}

async fn request_count(server: &MockServer) -> usize {
    server.received_requests().await.expect("recording is on").len()
}

async fn first_body(server: &MockServer) -> serde_json::Value {
    let received = server.received_requests().await.expect("recording is on");
    received[0].body_json().expect("JSON body")
}

#[tokio::test]
async fn non_streaming_reply_gives_text_and_token_counts() {
    let server = MockServer::start().await;
    mount_chat(&server, ResponseTemplate::new(200).set_body_json(completion_json("No.")), None).await;

    let reply = client(&base(&server), false).chat(simple_request()).await.expect("chat succeeds");

    assert_eq!(reply, ChatResponse { text: "No.".into(), prompt_tokens: 31, completion_tokens: 2 });
}

#[tokio::test]
async fn streaming_reply_joins_sse_deltas_and_reads_the_usage_chunk() {
    let server = MockServer::start().await;
    let body = [
        r#"data: {"choices":[{"index":0,"delta":{"role":"assistant","content":null},"finish_reason":null}],"usage":null}"#,
        r#"data: {"choices":[{"index":0,"delta":{"content":"No, "},"finish_reason":null}],"usage":null}"#,
        ": keep-alive comment",
        r#"data: {"choices":[{"index":0,"delta":{"content":"never."},"finish_reason":null}],"usage":null}"#,
        r#"data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":null}"#,
        r#"data: {"choices":[],"usage":{"prompt_tokens":20,"completion_tokens":5,"total_tokens":25}}"#,
        "data: [DONE]",
    ]
    .join("\r\n\r\n");
    mount_chat(&server, ResponseTemplate::new(200).set_body_raw(body, "text/event-stream"), None).await;

    let reply = client(&base(&server), true).chat(simple_request()).await.expect("chat succeeds");

    assert_eq!(reply, ChatResponse { text: "No, never.".into(), prompt_tokens: 20, completion_tokens: 5 });
}

#[tokio::test]
async fn stream_cut_before_done_is_malformed() {
    let server = MockServer::start().await;
    let body = "data: {\"choices\":[{\"delta\":{\"content\":\"No\"},\"finish_reason\":null}]}\n\n";
    mount_chat(&server, ResponseTemplate::new(200).set_body_raw(body, "text/event-stream"), None).await;

    let error = client(&base(&server), true).chat(simple_request()).await.expect_err("truncated");

    assert!(matches!(error, LlmError::Malformed(ref m) if m.contains("[DONE]")), "{error:?}");
}

#[tokio::test]
async fn request_carries_options_and_schema_in_openai_fields() {
    let server = MockServer::start().await;
    mount_chat(&server, ResponseTemplate::new(200).set_body_json(completion_json("ok")), None).await;

    client(&base(&server), false).chat(full_request()).await.expect("chat succeeds");

    let body = first_body(&server).await;
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["messages"][0], json!({ "role": "system", "content": "You are the judge." }));
    assert_eq!(body["max_tokens"], 50);
    assert_eq!(body["temperature"], 0.5);
    assert_eq!(body["seed"], 7);
    assert_eq!(body["stream"], false);
    assert!(body.get("stream_options").is_none(), "{body}");
    let expected =
        json!({ "type": "json_schema", "json_schema": { "name": "verdict", "schema": schema(), "strict": true } });
    assert_eq!(body["response_format"], expected);
}

#[tokio::test]
async fn streaming_request_asks_for_usage_and_omits_unset_fields() {
    let server = MockServer::start().await;
    mount_chat(&server, ResponseTemplate::new(200).set_body_raw("data: [DONE]\n\n", "text/event-stream"), None).await;

    client(&base(&server), true).chat(simple_request()).await.expect("empty reply is fine");

    let body = first_body(&server).await;
    assert_eq!(body["stream"], true);
    assert_eq!(body["stream_options"], json!({ "include_usage": true }));
    assert!(body.get("seed").is_none() && body.get("response_format").is_none(), "{body}");
}

#[tokio::test]
async fn api_key_is_sent_as_bearer_and_omitted_when_absent() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(CHAT_PATH))
        .and(header("authorization", "Bearer sk-test"))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion_json("keyed")))
        .mount(&server)
        .await;
    mount_chat(&server, ResponseTemplate::new(200).set_body_json(completion_json("anonymous")), None).await;
    let keyed = client_with(&base(&server), |s| s.api_key = Some(ApiKey::new("sk-test")));

    assert_eq!(keyed.chat(simple_request()).await.expect("keyed").text, "keyed");
    assert_eq!(client(&base(&server), false).chat(simple_request()).await.expect("local").text, "anonymous");
    let received = server.received_requests().await.expect("recording is on");
    assert!(received[1].headers.get("authorization").is_none());
}

#[test]
fn real_openai_without_a_key_is_a_config_error_naming_the_variable() {
    let mut settings = resolved(ProviderKind::OpenAi, "https://api.openai.com/v1", true);
    settings.api_key_env = "MY_OPENAI_KEY".into();

    let error = OpenAiClient::new(&settings).err().expect("key required");

    assert!(matches!(error, LlmError::Config(ref m) if m.contains("MY_OPENAI_KEY")), "{error:?}");
}

#[tokio::test]
async fn server_error_then_success_is_retried() {
    let server = MockServer::start().await;
    mount_chat(&server, ResponseTemplate::new(503).set_body_json(error_json("overloaded", "server_error")), Some(1))
        .await;
    mount_chat(&server, ResponseTemplate::new(200).set_body_json(completion_json("No.")), None).await;

    let reply = client(&base(&server), false).chat(simple_request()).await.expect("retry succeeds");

    assert_eq!(reply.text, "No.");
    assert_eq!(request_count(&server).await, 2);
}

#[tokio::test]
async fn too_many_requests_waits_for_retry_after_capped() {
    let server = MockServer::start().await;
    let limited = ResponseTemplate::new(429)
        .insert_header("Retry-After", "1")
        .set_body_json(error_json("Rate limit reached", "requests"));
    mount_chat(&server, limited, Some(1)).await;
    mount_chat(&server, ResponseTemplate::new(200).set_body_json(completion_json("No.")), None).await;
    // Backoff alone would wait about 1 ms; the header asks for 1 s, capped here to 150 ms.
    let client = client_with(&base(&server), |s| s.http.retry_max_delay = Duration::from_millis(150));

    let started = Instant::now();
    let reply = client.chat(simple_request()).await.expect("retry succeeds");

    assert_eq!(reply.text, "No.");
    assert_eq!(request_count(&server).await, 2);
    let waited = started.elapsed();
    assert!(waited >= Duration::from_millis(140) && waited < Duration::from_millis(900), "{waited:?}");
}

#[tokio::test]
async fn persistent_server_error_gives_status_after_max_retries() {
    let server = MockServer::start().await;
    mount_chat(&server, ResponseTemplate::new(500).set_body_json(error_json("boom", "server_error")), None).await;
    let client = client_with(&base(&server), |s| s.http.max_retries = 3);

    let error = client.chat(simple_request()).await.expect_err("keeps failing");

    assert_eq!(error, LlmError::Status { status: 500, body: "boom (server_error)".into() });
    assert_eq!(request_count(&server).await, 4, "one attempt plus max_retries = 3");
}

#[tokio::test]
async fn not_found_is_not_retried_and_surfaces_the_message() {
    let server = MockServer::start().await;
    let missing = error_json("The model `gpt-9` does not exist", "invalid_request_error");
    mount_chat(&server, ResponseTemplate::new(404).set_body_json(missing), None).await;

    let error = client(&base(&server), true).chat(simple_request()).await.expect_err("404");

    let body = "The model `gpt-9` does not exist (invalid_request_error)".to_owned();
    assert_eq!(error, LlmError::Status { status: 404, body });
    assert_eq!(request_count(&server).await, 1);
}

#[tokio::test]
async fn plain_text_error_body_is_kept_as_is() {
    let server = MockServer::start().await;
    mount_chat(&server, ResponseTemplate::new(401).set_body_string("Unauthorized\n"), None).await;

    let error = client(&base(&server), false).chat(simple_request()).await.expect_err("401");

    assert_eq!(error, LlmError::Status { status: 401, body: "Unauthorized".into() });
}

#[tokio::test]
async fn garbage_body_is_malformed_and_not_retried() {
    let server = MockServer::start().await;
    mount_chat(&server, ResponseTemplate::new(200).set_body_string("{\"choices\": 42"), None).await;

    let error = client(&base(&server), false).chat(simple_request()).await.expect_err("garbage");

    assert!(matches!(error, LlmError::Malformed(_)), "{error:?}");
    assert_eq!(request_count(&server).await, 1);
}

#[tokio::test]
async fn slow_response_times_out() {
    let server = MockServer::start().await;
    let slow = ResponseTemplate::new(200).set_body_json(completion_json("late")).set_delay(Duration::from_secs(3));
    mount_chat(&server, slow, None).await;
    let client = client_with(&base(&server), |s| {
        s.http.timeout = Duration::from_millis(150);
        s.http.max_retries = 0;
    });

    let started = Instant::now();
    let error = client.chat(simple_request()).await.expect_err("too slow");

    assert_eq!(error, LlmError::Timeout);
    assert!(started.elapsed() < Duration::from_secs(1), "{:?}", started.elapsed());
}

#[tokio::test]
async fn connection_refused_is_unavailable() {
    let base_url = format!("{}/v1", refused_url());

    let error = client(&base_url, true).chat(simple_request()).await.expect_err("nothing listens");

    assert!(matches!(error, LlmError::Unavailable(ref m) if m.contains("127.0.0.1")), "{error:?}");
}

#[tokio::test]
async fn health_lists_models_with_the_key() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .and(header("authorization", "Bearer sk-test"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "object": "list", "data": [] })))
        .mount(&server)
        .await;
    let keyed = client_with(&base(&server), |s| s.api_key = Some(ApiKey::new("sk-test")));

    assert_eq!(keyed.health().await, Ok(()));
    let anonymous = client(&base(&server), false).health().await.expect_err("no route without key");
    assert!(matches!(anonymous, LlmError::Status { status: 404, .. }), "{anonymous:?}");
}

#[test]
fn schema_name_uses_a_valid_title_or_falls_back() {
    assert_eq!(schema_name(&json!({ "title": "judge_verdict" })), "judge_verdict");
    assert_eq!(schema_name(&json!({ "title": "has spaces" })), "reply");
    assert_eq!(schema_name(&json!({ "type": "object" })), "reply");
}
