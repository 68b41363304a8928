//! The model port: what the game needs from a chat model, and nothing about
//! how a provider is reached. Implementations live in `crate::llm`.
//!
//! Model output is untrusted input: callers parse it into typed values and
//! never show it to players unchecked.

pub mod echo;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

/// Who wrote a chat message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChatRole {
    System,
    User,
    Assistant,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    pub role: ChatRole,
    pub content: String,
}

impl ChatMessage {
    pub fn system(content: impl Into<String>) -> Self {
        Self { role: ChatRole::System, content: content.into() }
    }
    pub fn user(content: impl Into<String>) -> Self {
        Self { role: ChatRole::User, content: content.into() }
    }
}

/// One chat completion request.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest {
    pub messages: Vec<ChatMessage>,
    /// Upper bound on generated tokens.
    pub max_tokens: u32,
    pub temperature: f32,
    /// Sampling seed, passed through where the provider supports it.
    pub seed: Option<u64>,
    /// A JSON schema the reply must follow, for providers with structured
    /// output (Ollama `format`, OpenAI `response_format`). Others ignore it;
    /// the caller's parser must cope either way.
    pub json_schema: Option<serde_json::Value>,
}

impl ChatRequest {
    pub fn new(messages: Vec<ChatMessage>) -> Self {
        Self { messages, max_tokens: 256, temperature: 0.2, seed: None, json_schema: None }
    }
}

/// A finished completion.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ChatResponse {
    pub text: String,
    /// Tokens in the prompt as the provider counted them (0 when unknown).
    pub prompt_tokens: u32,
    pub completion_tokens: u32,
}

/// Why a completion failed. Retries have already happened when a client
/// returns one of these.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum LlmError {
    /// Could not connect, or the provider is not running.
    #[error("model provider unreachable: {0}")]
    Unavailable(String),
    #[error("model provider timed out")]
    Timeout,
    /// The provider answered with an HTTP error status.
    #[error("model provider returned HTTP {status}: {body}")]
    Status { status: u16, body: String },
    /// The provider answered, but not in its documented format.
    #[error("model provider sent a malformed response: {0}")]
    Malformed(String),
    /// Configuration is incomplete (missing key, unknown model, ...).
    #[error("model provider misconfigured: {0}")]
    Config(String),
}

/// A chat model. Implementations MUST return `LlmError::Unavailable` for
/// connection failures and `LlmError::Timeout` when their deadline passes,
/// so callers can tell players "the model is unavailable" accurately.
#[async_trait]
pub trait LlmClient: Send + Sync {
    /// A short human label, e.g. `ollama:qwen2.5:3b`.
    fn describe(&self) -> String;

    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError>;

    /// Tokens in `text` by the model's own tokenizer, where the client has
    /// one at hand (the in-process model once loaded); `None` otherwise.
    fn count_tokens(&self, _text: &str) -> Option<usize> {
        None
    }

    /// Tokens of context the model takes (prompt and reply together):
    /// the configured `context_window`, the in-process model's own, or
    /// `None` when unknown (callers assume `DEFAULT_WINDOW`).
    fn context_window(&self) -> Option<usize> {
        None
    }

    /// A cheap reachability check (no generation) used at start-up.
    async fn health(&self) -> Result<(), LlmError>;
}

/// The context window assumed for a model that does not say (Ollama's
/// default `num_ctx` in recent versions).
pub const DEFAULT_WINDOW: usize = 4_096;

/// A model whose context window is configured (`context_window` in
/// `[llm]` or a role's table); everything else is the inner model's.
pub struct Windowed {
    pub inner: std::sync::Arc<dyn LlmClient>,
    pub window: usize,
}

#[async_trait]
impl LlmClient for Windowed {
    fn describe(&self) -> String {
        self.inner.describe()
    }

    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError> {
        self.inner.chat(request).await
    }

    fn count_tokens(&self, text: &str) -> Option<usize> {
        self.inner.count_tokens(text)
    }

    fn context_window(&self) -> Option<usize> {
        Some(self.window)
    }

    async fn health(&self) -> Result<(), LlmError> {
        self.inner.health().await
    }
}

/// The models behind each agent role. Roles may share one client.
#[derive(Clone)]
pub struct RoleModels {
    /// Holds the answer; its output is parsed into a closed verdict.
    pub judge: std::sync::Arc<dyn LlmClient>,
    /// Sees public material only; writes the short remark players read.
    pub narrator: std::sync::Arc<dyn LlmClient>,
}

impl RoleModels {
    /// The same models, each call counted and timed in `telemetry` under
    /// its role (the bot does this; `/metrics` shows it).
    pub fn metered(self) -> RoleModels {
        RoleModels {
            judge: std::sync::Arc::new(Metered { inner: self.judge, role: "judge" }),
            narrator: std::sync::Arc::new(Metered { inner: self.narrator, role: "narrator" }),
        }
    }
}

/// A model client whose calls are counted and timed.
struct Metered {
    inner: std::sync::Arc<dyn LlmClient>,
    role: &'static str,
}

#[async_trait]
impl LlmClient for Metered {
    fn describe(&self) -> String {
        self.inner.describe()
    }

    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError> {
        let started = std::time::Instant::now();
        let answer = self.inner.chat(request).await;
        super::telemetry::telemetry().model_call(self.role, answer.is_ok(), started.elapsed());
        answer
    }

    fn count_tokens(&self, text: &str) -> Option<usize> {
        self.inner.count_tokens(text)
    }

    fn context_window(&self) -> Option<usize> {
        self.inner.context_window()
    }

    async fn health(&self) -> Result<(), LlmError> {
        self.inner.health().await
    }
}
