//! The `auto` provider choice: Ollama when it answers on its address with
//! the configured model pulled, otherwise the in-process `local` model.
//!
//! Owns only the decision and its reason; building clients stays with
//! `super::build_roles`, which never sees `auto`.

use std::time::Duration;

use super::OllamaClient;
use super::settings::{LlmSettings, ModelRole, ProviderKind};
use crate::core::llm::{LlmClient, LlmError};

/// How long the Ollama probe may take: a start-up check, not a wait.
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

/// Settings with every `auto` replaced, and why the local model was picked
/// (for the player's one-line notice); `None` when nothing was `auto` or
/// Ollama was chosen.
#[derive(Debug, Clone)]
pub struct Choice {
    pub settings: LlmSettings,
    pub local_because: Option<String>,
}

/// Settles `auto` by probing Ollama once.
pub async fn choose(settings: &LlmSettings) -> Choice {
    let uses_auto = settings.provider == ProviderKind::Auto
        || [&settings.judge, &settings.narrator].iter().any(|o| o.provider == Some(ProviderKind::Auto));
    if !uses_auto {
        return Choice { settings: settings.clone(), local_because: None };
    }
    let (kind, local_because) = match probe_ollama(settings).await {
        Ok(()) => (ProviderKind::Ollama, None),
        Err(why) => (ProviderKind::Local, Some(why)),
    };
    let mut chosen = settings.clone();
    if chosen.provider == ProviderKind::Auto {
        chosen.provider = kind;
    }
    for role in [&mut chosen.judge, &mut chosen.narrator] {
        if role.provider == Some(ProviderKind::Auto) {
            role.provider = Some(kind);
        }
    }
    Choice { settings: chosen, local_because }
}

/// `Ok` when Ollama answers with the configured model pulled; otherwise a
/// short reason for the notice.
async fn probe_ollama(settings: &LlmSettings) -> Result<(), String> {
    let probe = LlmSettings {
        provider: ProviderKind::Ollama,
        timeout_secs: PROBE_TIMEOUT.as_secs(),
        connect_timeout_secs: 1,
        max_retries: 0,
        ..settings.clone()
    };
    let resolved = probe.resolve_with_env(ModelRole::Judge, |_| None).map_err(|e| e.to_string())?;
    let address = resolved.base_url.clone();
    let client = OllamaClient::new(&resolved).map_err(|e| e.to_string())?;
    match tokio::time::timeout(PROBE_TIMEOUT, client.health()).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(LlmError::Config(_))) => Err(format!("Ollama at {address} has no `{}` pulled", resolved.model)),
        Ok(Err(_)) | Err(_) => Err(format!("no Ollama answered at {address}")),
    }
}

#[cfg(test)]
mod tests;
