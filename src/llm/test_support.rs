//! Shared fixtures for the adapter tests: fast settings, a representative
//! request and an address where nothing listens.

use std::time::Duration;

use super::settings::{HttpSettings, ProviderKind, ResolvedProvider};
use crate::core::llm::{ChatMessage, ChatRequest};

/// Generous deadline, tiny backoff: tests stay fast but not flaky.
pub fn fast_http() -> HttpSettings {
    HttpSettings {
        timeout: Duration::from_secs(5),
        connect_timeout: Duration::from_secs(1),
        max_retries: 2,
        retry_base_delay: Duration::from_millis(1),
        retry_max_delay: Duration::from_millis(20),
    }
}

pub fn resolved(provider: ProviderKind, base_url: &str, stream: bool) -> ResolvedProvider {
    ResolvedProvider {
        provider,
        model: "test-model".to_owned(),
        base_url: base_url.to_owned(),
        api_key_env: String::new(),
        api_key: None,
        http: fast_http(),
        stream,
        scripted_replies: Vec::new(),
        local: super::settings::LocalSettings::default(),
        context_window: None,
    }
}

pub fn schema() -> serde_json::Value {
    serde_json::json!({
        "title": "verdict",
        "type": "object",
        "properties": { "answer": { "type": "string", "enum": ["yes", "no", "irrelevant"] } },
        "required": ["answer"],
        "additionalProperties": false
    })
}

/// A request with every optional field set, so wire tests see them all.
pub fn full_request() -> ChatRequest {
    ChatRequest {
        messages: vec![ChatMessage::system("You are the judge."), ChatMessage::user("Was he alone?")],
        max_tokens: 50,
        temperature: 0.5,
        seed: Some(7),
        json_schema: Some(schema()),
    }
}

pub fn simple_request() -> ChatRequest {
    ChatRequest::new(vec![ChatMessage::user("Was he alone?")])
}

/// Binds a port and releases it: connecting there is refused.
pub fn refused_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    let address = listener.local_addr().expect("bound address");
    drop(listener);
    format!("http://{address}")
}
