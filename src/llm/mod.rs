//! Model providers: adapters implementing `crate::core::llm::LlmClient`, and
//! the wiring that turns the `[llm]` config section into one client per role.
//!
//! # Layout
//! - `settings`: the `[llm]` section, per-role overrides, resolution.
//! - `http` (private): deadlines, retries with backoff, error mapping and
//!   streamed-line reading shared by the HTTP adapters.
//! - `ollama`, `openai`: the HTTP adapters.
//! - `local`: a GGUF model run in this process (llama.cpp), no service needed.
//! - `auto`: settles `provider = "auto"` (Ollama if it answers, else local).
//! - `scripted`, `parrot`: in-process models for demos and tests.
//!
//! # Invariants
//! - No prompt text is logged above `debug` level: prompts hold the answer.
//! - Connection failures are `LlmError::Unavailable` and missed deadlines
//!   `LlmError::Timeout`, as the port requires; retries have already
//!   happened when a client returns an error.
//! - Nothing here parses model output into game values; callers do.

pub mod auto;
mod http;
pub mod local;
pub mod ollama;
pub mod openai;
pub mod parrot;
pub mod scripted;
pub mod settings;
#[cfg(test)]
mod test_support;

use std::sync::Arc;

pub use local::LocalClient;
pub use ollama::OllamaClient;
pub use openai::OpenAiClient;
pub use parrot::ParrotLlm;
pub use scripted::{ScriptedLlm, ScriptedReply};
pub use settings::{LlmSettings, LocalSettings, ModelRole, ProviderKind, ResolvedProvider, RoleOverrides};

use crate::core::llm::{LlmClient, LlmError, RoleModels};

/// How to point Echoes at another provider, for start-up messages.
const OPENAI_ENV_HINT: &str = "ECHOES__LLM__PROVIDER=openai ECHOES__LLM__BASE_URL=... \
     ECHOES__LLM__MODEL=... and set OPENAI_API_KEY.";

/// Builds the judge's and the narrator's clients from the base settings and
/// their `[llm.judge]` / `[llm.narrator]` overrides. Roles that resolve to
/// identical settings share one client (and so one connection pool).
pub fn build_roles(settings: &LlmSettings) -> Result<RoleModels, LlmError> {
    build_roles_with_env(settings, |name| std::env::var(name).ok())
}

fn build_roles_with_env(settings: &LlmSettings, env: impl Fn(&str) -> Option<String>) -> Result<RoleModels, LlmError> {
    let judge = resolve_role(settings, ModelRole::Judge, &env)?;
    let narrator = resolve_role(settings, ModelRole::Narrator, &env)?;
    let judge_client = build_client(&judge).map_err(|e| in_role(ModelRole::Judge, e))?;
    let narrator_client = if narrator == judge {
        Arc::clone(&judge_client)
    } else {
        build_client(&narrator).map_err(|e| in_role(ModelRole::Narrator, e))?
    };
    Ok(RoleModels { judge: judge_client, narrator: narrator_client })
}

fn resolve_role(
    settings: &LlmSettings,
    role: ModelRole,
    env: &impl Fn(&str) -> Option<String>,
) -> Result<ResolvedProvider, LlmError> {
    settings.resolve_with_env(role, env).map_err(|e| in_role(role, e))
}

/// Says which role a configuration error belongs to; other errors already
/// carry their own context.
fn in_role(role: ModelRole, error: LlmError) -> LlmError {
    match error {
        LlmError::Config(message) => LlmError::Config(format!("{role} model: {message}")),
        other => other,
    }
}

/// Builds one client for already-resolved settings.
pub fn build_client(resolved: &ResolvedProvider) -> Result<Arc<dyn LlmClient>, LlmError> {
    let client = build_bare(resolved)?;
    Ok(match resolved.context_window {
        Some(window) => Arc::new(crate::core::llm::Windowed { inner: client, window }),
        None => client,
    })
}

fn build_bare(resolved: &ResolvedProvider) -> Result<Arc<dyn LlmClient>, LlmError> {
    Ok(match resolved.provider {
        ProviderKind::Ollama => Arc::new(OllamaClient::new(resolved)?),
        ProviderKind::OpenAi => Arc::new(OpenAiClient::new(resolved)?),
        ProviderKind::Scripted => Arc::new(scripted_from_config(resolved)?),
        ProviderKind::Parrot => Arc::new(ParrotLlm),
        ProviderKind::Local => Arc::new(LocalClient::new(resolved)?),
        ProviderKind::Auto => {
            return Err(LlmError::Config("provider `auto` must be settled first (`llm::auto::choose`)".to_owned()));
        }
    })
}

/// A configured script cycles: a demo should not die after N turns.
fn scripted_from_config(resolved: &ResolvedProvider) -> Result<ScriptedLlm, LlmError> {
    if resolved.scripted_replies.is_empty() {
        return Err(LlmError::Config("the scripted provider needs replies in llm.scripted_replies".to_owned()));
    }
    Ok(ScriptedLlm::from_texts(resolved.scripted_replies.clone()).cycling())
}

/// Checks every distinct role client once. On failure returns one message
/// for a person: what failed and how to configure a working provider.
pub async fn check_reachable(roles: &RoleModels) -> Result<(), String> {
    check_role(ModelRole::Judge, roles.judge.as_ref()).await?;
    if !Arc::ptr_eq(&roles.judge, &roles.narrator) {
        check_role(ModelRole::Narrator, roles.narrator.as_ref()).await?;
    }
    Ok(())
}

async fn check_role(role: ModelRole, client: &dyn LlmClient) -> Result<(), String> {
    let error = match client.health().await {
        Ok(()) => return Ok(()),
        Err(error) => error,
    };
    let label = client.describe();
    let lead = match error {
        LlmError::Unavailable(why) => {
            format!("No model provider answered for the {role} ({label}): {why}.")
        }
        LlmError::Timeout => {
            format!("No model provider answered for the {role} ({label}) within llm.timeout_secs.")
        }
        other => format!("The model provider for the {role} ({label}) is not usable: {other}."),
    };
    Err(format!("{lead} {}", setup_hint(&label)))
}

/// The port gives only `describe()`, so the hint keys on this module's own
/// label format (`ollama:MODEL`, `openai:MODEL`, `local:FILE`).
fn setup_hint(label: &str) -> String {
    if label.starts_with("local:") {
        return "Run `echoes models fetch` to fetch the local model again, or run Ollama (`ollama serve`) \
                for a larger model."
            .to_owned();
    }
    match label.strip_prefix("ollama:") {
        Some(model) => format!(
            "Start Ollama (`ollama serve` and `ollama pull {model}`), or point Echoes at any \
             OpenAI-compatible endpoint: {OPENAI_ENV_HINT}"
        ),
        None => format!(
            "Check that the endpoint in llm.base_url is running and that the key in the variable \
             named by llm.api_key_env is valid, or configure another OpenAI-compatible endpoint: \
             {OPENAI_ENV_HINT} A local Ollama (`ollama serve`) is the default provider."
        ),
    }
}

#[cfg(test)]
mod tests;
