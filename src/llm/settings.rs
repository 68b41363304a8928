//! The `[llm]` configuration section and its resolution into one concrete
//! provider description per role.
//!
//! Owns defaults, per-role overrides and validation. It reads the API key from
//! the environment variable the config names, never from the config itself,
//! and it builds no clients (that is `super::build_client`'s job).

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::core::llm::LlmError;
pub use crate::models::settings::LocalSettings;

const OLLAMA_DEFAULT_URL: &str = "http://127.0.0.1:11434";
const OPENAI_DEFAULT_URL: &str = "https://api.openai.com/v1";

/// Which kind of model answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    /// Ollama when it answers on its address, otherwise the in-process
    /// model; `super::auto::choose` settles it before clients are built.
    #[default]
    Auto,
    /// A local Ollama server (`/api/chat`).
    Ollama,
    /// Any OpenAI-compatible `/chat/completions` endpoint.
    #[serde(rename = "openai")]
    OpenAi,
    /// Canned replies from `scripted_replies`, for demos and tests.
    Scripted,
    /// Echoes its prompt back: the worst model for secrecy, for tests.
    Parrot,
    /// A GGUF model run in this process (`[llm.local]`).
    Local,
}

impl ProviderKind {
    /// The base URL used when the config leaves `base_url` empty.
    pub fn default_base_url(self) -> &'static str {
        match self {
            Self::Ollama | Self::Auto => OLLAMA_DEFAULT_URL,
            Self::OpenAi => OPENAI_DEFAULT_URL,
            Self::Scripted | Self::Parrot | Self::Local => "",
        }
    }

    /// The context window assumed when none is configured: Ollama's
    /// default `num_ctx`, a modest one for OpenAI-compatible endpoints
    /// (most take far more), room for anything for the test models;
    /// `None` for the in-process model, which knows its own.
    pub fn default_window(self) -> Option<usize> {
        match self {
            Self::Ollama | Self::Auto => Some(4_096),
            Self::OpenAi => Some(16_384),
            Self::Scripted | Self::Parrot => Some(8_192),
            Self::Local => None,
        }
    }

    /// Whether this provider talks HTTP (and so needs a model and a URL).
    pub fn is_remote(self) -> bool {
        matches!(self, Self::Ollama | Self::OpenAi)
    }
}

impl fmt::Display for ProviderKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Auto => "auto",
            Self::Ollama => "ollama",
            Self::OpenAi => "openai",
            Self::Scripted => "scripted",
            Self::Parrot => "parrot",
            Self::Local => "local",
        })
    }
}

/// The agent roles that each get a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelRole {
    Judge,
    Narrator,
}

impl fmt::Display for ModelRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Judge => "judge",
            Self::Narrator => "narrator",
        })
    }
}

/// `[llm.judge]` / `[llm.narrator]`: any field set here replaces the base one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RoleOverrides {
    pub provider: Option<ProviderKind>,
    pub model: Option<String>,
    pub base_url: Option<String>,
    pub api_key_env: Option<String>,
    pub context_window: Option<usize>,
}

/// The `[llm]` config section. Every field has a default, so an empty table
/// (or no table) gives `auto`: Ollama with `qwen2.5:3b` when it runs, else
/// the in-process model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
// Unknown keys are rejected so a typo (`modle`) or an attempt to put the key
// itself in config (`api_key`) fails loudly instead of being ignored.
#[serde(default, deny_unknown_fields)]
pub struct LlmSettings {
    pub provider: ProviderKind,
    pub model: String,
    /// Empty means the provider's default URL. OpenAI URLs include `/v1`.
    pub base_url: String,
    /// Name of the environment variable holding the API key.
    pub api_key_env: String,
    pub timeout_secs: u64,
    pub connect_timeout_secs: u64,
    /// Retries after the first attempt, for 429, 5xx, timeouts and
    /// connection failures.
    pub max_retries: u32,
    /// First retry delay; later ones grow exponentially with jitter.
    pub retry_base_delay_ms: u64,
    /// Cap on any single retry delay, including a server's `Retry-After`.
    pub retry_max_delay_ms: u64,
    pub stream: bool,
    /// Replies for the `scripted` provider, replayed in a cycle.
    pub scripted_replies: Vec<String>,
    /// Tokens of context the model takes; 0: the provider's default
    /// (`ProviderKind::default_window`; the in-process model knows its
    /// own). Prompts' layered context is fitted to it.
    pub context_window: usize,
    pub judge: RoleOverrides,
    pub narrator: RoleOverrides,
    pub local: LocalSettings,
}

impl Default for LlmSettings {
    fn default() -> Self {
        Self {
            provider: ProviderKind::Auto,
            model: "qwen2.5:3b".to_owned(),
            base_url: String::new(),
            api_key_env: "OPENAI_API_KEY".to_owned(),
            timeout_secs: 60,
            connect_timeout_secs: 5,
            max_retries: 3,
            retry_base_delay_ms: 500,
            retry_max_delay_ms: 10_000,
            stream: true,
            scripted_replies: Vec::new(),
            context_window: 0,
            judge: RoleOverrides::default(),
            narrator: RoleOverrides::default(),
            local: LocalSettings::default(),
        }
    }
}

/// An API key read from the environment. Its `Debug` never shows the key,
/// so resolved settings can be logged.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> Self {
        Self(key.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// How an HTTP client waits and retries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpSettings {
    /// Deadline for one attempt, body included.
    pub timeout: Duration,
    pub connect_timeout: Duration,
    pub max_retries: u32,
    pub retry_base_delay: Duration,
    pub retry_max_delay: Duration,
}

/// Everything needed to build one client: the base settings with one role's
/// overrides applied, defaults filled in and the key read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedProvider {
    pub provider: ProviderKind,
    pub model: String,
    /// Without a trailing slash; empty for local providers.
    pub base_url: String,
    /// Name of the variable the key came from, for error messages.
    pub api_key_env: String,
    pub api_key: Option<ApiKey>,
    pub http: HttpSettings,
    pub stream: bool,
    pub scripted_replies: Vec<String>,
    pub local: LocalSettings,
    /// Tokens of context; `None`: the model's own or the provider's default.
    pub context_window: Option<usize>,
}

impl LlmSettings {
    fn overrides(&self, role: ModelRole) -> &RoleOverrides {
        match role {
            ModelRole::Judge => &self.judge,
            ModelRole::Narrator => &self.narrator,
        }
    }

    /// Resolves one role, reading the API key from the process environment.
    pub fn resolve(&self, role: ModelRole) -> Result<ResolvedProvider, LlmError> {
        self.resolve_with_env(role, |name| std::env::var(name).ok())
    }

    /// Resolves one role with `env` standing in for the process environment
    /// (tests cannot safely mutate the real one).
    pub fn resolve_with_env(
        &self,
        role: ModelRole,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<ResolvedProvider, LlmError> {
        let overrides = self.overrides(role);
        let provider = overrides.provider.unwrap_or(self.provider);
        let model = overrides.model.clone().unwrap_or_else(|| self.model.clone());
        let api_key_env = overrides.api_key_env.clone().unwrap_or_else(|| self.api_key_env.clone());
        let base_url = self.role_base_url(overrides, provider)?;
        let api_key = read_key(&api_key_env, env);
        if provider.is_remote() && model.trim().is_empty() {
            return Err(LlmError::Config(format!("llm.model is empty for the {role} ({provider})")));
        }
        Ok(ResolvedProvider {
            provider,
            model,
            base_url,
            api_key_env,
            api_key,
            http: self.http_settings()?,
            stream: self.stream,
            scripted_replies: self.scripted_replies.clone(),
            local: self.local.clone(),
            context_window: overrides
                .context_window
                .or((self.context_window > 0).then_some(self.context_window))
                .or(provider.default_window()),
        })
    }

    /// The base URL inherits from `[llm]` only while the role keeps the base
    /// provider: an Ollama URL is wrong for a role switched to OpenAI.
    fn role_base_url(&self, overrides: &RoleOverrides, provider: ProviderKind) -> Result<String, LlmError> {
        let configured = match (&overrides.base_url, provider == self.provider) {
            (Some(url), _) => url.as_str(),
            (None, true) => self.base_url.as_str(),
            (None, false) => "",
        };
        normalise_base_url(configured, provider)
    }

    fn http_settings(&self) -> Result<HttpSettings, LlmError> {
        if self.timeout_secs == 0 {
            return Err(LlmError::Config("llm.timeout_secs must be at least 1".to_owned()));
        }
        Ok(HttpSettings {
            timeout: Duration::from_secs(self.timeout_secs),
            connect_timeout: Duration::from_secs(self.connect_timeout_secs.max(1)),
            max_retries: self.max_retries,
            retry_base_delay: Duration::from_millis(self.retry_base_delay_ms),
            retry_max_delay: Duration::from_millis(self.retry_max_delay_ms),
        })
    }
}

fn read_key(var: &str, env: impl Fn(&str) -> Option<String>) -> Option<ApiKey> {
    if var.trim().is_empty() {
        return None;
    }
    env(var).map(|key| key.trim().to_owned()).filter(|key| !key.is_empty()).map(ApiKey)
}

/// Fills in the provider default and checks the URL parses, so a typo fails
/// at start-up rather than on the first turn.
fn normalise_base_url(configured: &str, provider: ProviderKind) -> Result<String, LlmError> {
    if !provider.is_remote() {
        return Ok(String::new());
    }
    let url = match configured.trim() {
        "" => provider.default_base_url(),
        url => url,
    };
    match reqwest::Url::parse(url) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") => Ok(url.trim_end_matches('/').to_owned()),
        _ => Err(LlmError::Config(format!("llm.base_url `{url}` for {provider} is not an http(s) URL"))),
    }
}

#[cfg(test)]
mod tests;
