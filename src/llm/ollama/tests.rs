use std::time::{Duration, Instant};

use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::*;
use crate::llm::settings::ProviderKind;
use crate::llm::test_support::{full_request, refused_url, resolved, schema, simple_request};

fn client(base_url: &str, stream: bool) -> OllamaClient {
    OllamaClient::new(&resolved(ProviderKind::Ollama, base_url, stream)).expect("client builds")
}

fn client_with(base_url: &str, edit: impl FnOnce(&mut ResolvedProvider)) -> OllamaClient {
    let mut settings = resolved(ProviderKind::Ollama, base_url, false);
    edit(&mut settings);
    OllamaClient::new(&settings).expect("client builds")
}

fn reply_json(content: &str) -> serde_json::Value {
    json!({
        "model": "test-model",
        "message": { "role": "assistant", "content": content },
        "done": true,
        "prompt_eval_count": 42,
        "eval_count": 3
    })
}

async fn mount_chat(server: &MockServer, response: ResponseTemplate, times: Option<u64>) {
    let mock = Mock::given(method("POST")).and(path("/api/chat")).respond_with(response);
    match times {
        Some(n) => mock.up_to_n_times(n).mount(server).await,
        None => mock.mount(server).await,
    }
}

async fn request_count(server: &MockServer) -> usize {
    server.received_requests().await.expect("recording is on").len()
}

#[tokio::test]
async fn non_streaming_reply_gives_text_and_token_counts() {
    let server = MockServer::start().await;
    mount_chat(&server, ResponseTemplate::new(200).set_body_json(reply_json("Yes.")), None).await;

    let reply = client(&server.uri(), false).chat(simple_request()).await.expect("chat succeeds");

    assert_eq!(reply, ChatResponse { text: "Yes.".into(), prompt_tokens: 42, completion_tokens: 3 });
}

#[tokio::test]
async fn streaming_reply_joins_ndjson_chunks_and_reads_final_counts() {
    let server = MockServer::start().await;
    let body = [
        r#"{"message":{"role":"assistant","content":"Yes, "},"done":false}"#,
        r#"{"message":{"role":"assistant","content":"he was."},"done":false}"#,
        r#"{"message":{"role":"assistant","content":""},"done":true,"prompt_eval_count":12,"eval_count":4}"#,
    ]
    .join("\n");
    mount_chat(&server, ResponseTemplate::new(200).set_body_raw(body, "application/x-ndjson"), None).await;

    let reply = client(&server.uri(), true).chat(simple_request()).await.expect("chat succeeds");

    assert_eq!(reply, ChatResponse { text: "Yes, he was.".into(), prompt_tokens: 12, completion_tokens: 4 });
}

#[tokio::test]
async fn stream_cut_before_done_is_malformed() {
    let server = MockServer::start().await;
    let body = r#"{"message":{"role":"assistant","content":"Yes"},"done":false}"#.to_owned() + "\n";
    mount_chat(&server, ResponseTemplate::new(200).set_body_raw(body, "application/x-ndjson"), None).await;

    let error = client(&server.uri(), true).chat(simple_request()).await.expect_err("truncated");

    assert!(matches!(error, LlmError::Malformed(ref m) if m.contains("done")), "{error:?}");
}

#[tokio::test]
async fn request_carries_model_messages_and_options_in_ollama_fields() {
    let server = MockServer::start().await;
    mount_chat(&server, ResponseTemplate::new(200).set_body_json(reply_json("ok")), None).await;

    client(&server.uri(), false).chat(full_request()).await.expect("chat succeeds");

    let received = server.received_requests().await.expect("recording is on");
    let body: serde_json::Value = received[0].body_json().expect("JSON body");
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["stream"], false);
    assert_eq!(body["messages"][0], json!({ "role": "system", "content": "You are the judge." }));
    assert_eq!(body["messages"][1], json!({ "role": "user", "content": "Was he alone?" }));
    assert_eq!(body["options"], json!({ "num_predict": 50, "temperature": 0.5, "seed": 7 }));
    assert_eq!(body["format"], schema());
}

#[tokio::test]
async fn request_without_seed_or_schema_omits_those_fields() {
    let server = MockServer::start().await;
    mount_chat(&server, ResponseTemplate::new(200).set_body_json(reply_json("ok")), None).await;

    client(&server.uri(), true).chat(simple_request()).await.ok();

    let received = server.received_requests().await.expect("recording is on");
    let body: serde_json::Value = received[0].body_json().expect("JSON body");
    assert_eq!(body["stream"], true);
    assert!(body.get("format").is_none(), "{body}");
    assert!(body["options"].get("seed").is_none(), "{body}");
}

#[tokio::test]
async fn server_error_then_success_is_retried() {
    let server = MockServer::start().await;
    mount_chat(&server, ResponseTemplate::new(500).set_body_json(json!({"error": "busy"})), Some(1)).await;
    mount_chat(&server, ResponseTemplate::new(200).set_body_json(reply_json("Yes.")), None).await;

    let reply = client(&server.uri(), false).chat(simple_request()).await.expect("retry succeeds");

    assert_eq!(reply.text, "Yes.");
    assert_eq!(request_count(&server).await, 2);
}

#[tokio::test]
async fn too_many_requests_waits_for_retry_after_capped() {
    let server = MockServer::start().await;
    let limited = ResponseTemplate::new(429).insert_header("Retry-After", "1");
    mount_chat(&server, limited, Some(1)).await;
    mount_chat(&server, ResponseTemplate::new(200).set_body_json(reply_json("Yes.")), None).await;
    // Backoff alone would wait about 1 ms; the header asks for 1 s, capped here to 150 ms.
    let client = client_with(&server.uri(), |s| s.http.retry_max_delay = Duration::from_millis(150));

    let started = Instant::now();
    let reply = client.chat(simple_request()).await.expect("retry succeeds");

    assert_eq!(reply.text, "Yes.");
    assert_eq!(request_count(&server).await, 2);
    let waited = started.elapsed();
    assert!(waited >= Duration::from_millis(140) && waited < Duration::from_millis(900), "{waited:?}");
}

#[tokio::test]
async fn persistent_server_error_gives_status_after_max_retries() {
    let server = MockServer::start().await;
    mount_chat(&server, ResponseTemplate::new(500).set_body_json(json!({"error": "runner crashed"})), None).await;

    let error = client(&server.uri(), false).chat(simple_request()).await.expect_err("keeps failing");

    assert_eq!(error, LlmError::Status { status: 500, body: "runner crashed".into() });
    assert_eq!(request_count(&server).await, 3, "one attempt plus max_retries = 2");
}

#[tokio::test]
async fn model_not_found_is_not_retried_and_surfaces_the_message() {
    let server = MockServer::start().await;
    let not_found = ResponseTemplate::new(404).set_body_json(json!({"error": "model 'x' not found"}));
    mount_chat(&server, not_found, None).await;

    let error = client(&server.uri(), true).chat(simple_request()).await.expect_err("404");

    assert_eq!(error, LlmError::Status { status: 404, body: "model 'x' not found".into() });
    assert_eq!(request_count(&server).await, 1);
}

#[tokio::test]
async fn garbage_body_is_malformed_and_not_retried() {
    let server = MockServer::start().await;
    mount_chat(&server, ResponseTemplate::new(200).set_body_string("<html>proxy</html>"), None).await;

    let error = client(&server.uri(), false).chat(simple_request()).await.expect_err("garbage");

    assert!(matches!(error, LlmError::Malformed(_)), "{error:?}");
    assert_eq!(request_count(&server).await, 1);
}

#[tokio::test]
async fn slow_response_times_out_after_retries() {
    let server = MockServer::start().await;
    let slow = ResponseTemplate::new(200).set_body_json(reply_json("late")).set_delay(Duration::from_secs(3));
    mount_chat(&server, slow, None).await;
    let client = client_with(&server.uri(), |s| {
        s.http.timeout = Duration::from_millis(150);
        s.http.max_retries = 1;
    });

    let started = Instant::now();
    let error = client.chat(simple_request()).await.expect_err("too slow");

    assert_eq!(error, LlmError::Timeout);
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    assert_eq!(request_count(&server).await, 2, "timeouts are retried");
}

#[tokio::test]
async fn connection_refused_is_unavailable() {
    let url = refused_url();

    let error = client(&url, false).chat(simple_request()).await.expect_err("nothing listens");

    assert!(matches!(error, LlmError::Unavailable(ref m) if m.contains("127.0.0.1")), "{error:?}");
}

async fn mount_tags(server: &MockServer, names: &[&str]) {
    let models: Vec<_> = names.iter().map(|name| json!({ "name": name, "model": name })).collect();
    Mock::given(method("GET"))
        .and(path("/api/tags"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "models": models })))
        .mount(server)
        .await;
}

#[tokio::test]
async fn health_passes_when_the_model_is_pulled() {
    let server = MockServer::start().await;
    mount_tags(&server, &["llama3:latest", "test-model:latest"]).await;
    let untagged = client(&server.uri(), true);
    let tagged = client_with(&server.uri(), |s| s.model = "llama3:latest".into());

    assert_eq!(untagged.health().await, Ok(()));
    assert_eq!(tagged.health().await, Ok(()));
}

#[tokio::test]
async fn health_names_the_pull_command_when_the_model_is_missing() {
    let server = MockServer::start().await;
    mount_tags(&server, &["llama3:latest"]).await;

    let error = client(&server.uri(), true).health().await.expect_err("model missing");

    assert!(matches!(error, LlmError::Config(ref m) if m.contains("ollama pull test-model")), "{error:?}");
}

#[tokio::test]
async fn health_on_a_dead_port_is_unavailable() {
    let error = client(&refused_url(), true).health().await.expect_err("nothing listens");

    assert!(matches!(error, LlmError::Unavailable(_)), "{error:?}");
}

#[test]
fn model_names_without_a_tag_mean_latest() {
    assert_eq!(with_tag("qwen2.5"), "qwen2.5:latest");
    assert_eq!(with_tag("qwen2.5:3b"), "qwen2.5:3b");
    assert_eq!(with_tag("registry.local:5000/team/model"), "registry.local:5000/team/model:latest");
}
