//! The `local` provider: a GGUF chat model run in this process by
//! llama.cpp, so the game needs no model service at all.
//!
//! # Layout
//! - `arch`: the architectures supported (llama, qwen2, qwen3, gemma3).
//! - `engine`: checking and loading a GGUF file and the blocking
//!   generation loop.
//! - `llama`: llama.cpp (the `llama-cpp-2` bindings): tokens in, logits out;
//!   its process-wide backend, which `crate::embed` shares.
//! - `cpu`: which of ggml's CPU kernels run (built in, or the best module
//!   for this CPU in the portable build).
//! - `cache`: the prefix cache, so a turn processes only its new tokens.
//! - `tokenizer`: llama.cpp's own tokenizer for the loaded model.
//! - `template`: the prompt formats (ChatML, Qwen3's, Gemma's).
//! - `sampler`: greedy or seeded top-k/top-p sampling.
//! - `structured`: schema-guided replies (the local `format`).
//!
//! # Invariants
//! - The model is loaded once per client (on the first `health` or `chat`)
//!   and shared by every session using the client.
//! - The prefix cache changes only speed: a generation gives the same text
//!   with it or without it.
//! - Generation runs on tokio's blocking pool, one at a time, so a slow
//!   generation never stalls other sessions' I/O; a caller that gives up
//!   (deadline, dropped future) stops the generation at the next token.
//! - Unusable model files are `LlmError::Config` with a message saying what
//!   to do; nothing here panics on a bad file.

mod arch;
mod cache;
pub mod cpu;
mod engine;
mod llama;
mod run;
mod sampler;
mod structured;
mod template;
#[cfg(test)]
pub(crate) mod tiny;
mod tokenizer;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::{OnceCell, Semaphore};

pub use engine::{DEFAULT_PREFIX_CACHE_MB, Engine, GenerateError, Generation, ModelInfo, verify_gguf};
pub(crate) use llama::{FLASH_ATTENTION_OFF, backend};

use super::settings::ResolvedProvider;
use crate::core::llm::{ChatRequest, ChatResponse, LlmClient, LlmError};

/// A chat model run in process.
pub struct LocalClient {
    path: PathBuf,
    engine: OnceCell<Arc<Engine>>,
    /// One generation at a time: on a few cores, parallel ones only thrash.
    gate: Arc<Semaphore>,
    timeout: Duration,
    /// The prefix cache's budget in bytes (0: none).
    prefix_cache: u64,
}

impl LocalClient {
    /// A client for the chat model that `[llm.local]` selects. Checks only
    /// that the file exists; it is loaded on first use.
    pub fn new(resolved: &ResolvedProvider) -> Result<Self, LlmError> {
        let choice =
            crate::models::ModelDir::new(&resolved.local).chat_model().map_err(|e| LlmError::Config(e.to_string()))?;
        let client = Self::for_file(&choice.path, resolved.http.timeout);
        Ok(Self { prefix_cache: resolved.local.prefix_cache_mb.saturating_mul(1024 * 1024), ..client })
    }

    /// A client for one GGUF file; `timeout` bounds each `chat`.
    pub fn for_file(path: &Path, timeout: Duration) -> Self {
        Self {
            path: path.to_owned(),
            engine: OnceCell::new(),
            gate: Arc::new(Semaphore::new(1)),
            timeout,
            prefix_cache: DEFAULT_PREFIX_CACHE_MB * 1024 * 1024,
        }
    }

    /// A client around an engine already loaded (benchmarks, tests).
    pub fn from_engine(engine: Arc<Engine>, timeout: Duration) -> Self {
        let path = engine.info.path.clone();
        Self { engine: OnceCell::new_with(Some(engine)), ..Self::for_file(&path, timeout) }
    }

    /// Loads the model (once) off the async threads.
    pub async fn engine(&self) -> Result<Arc<Engine>, LlmError> {
        self.engine.get_or_try_init(|| load(self.path.clone(), self.prefix_cache)).await.cloned()
    }

    /// The loaded model's description, once loaded.
    pub fn info(&self) -> Option<ModelInfo> {
        self.engine.get().map(|e| e.info.clone())
    }

    async fn generate(&self, request: ChatRequest) -> Result<Generation, LlmError> {
        let engine = self.engine().await?;
        let deadline = tokio::time::Instant::now() + self.timeout;
        let permit = tokio::time::timeout_at(deadline, Arc::clone(&self.gate).acquire_owned())
            .await
            .map_err(|_| LlmError::Timeout)?
            .map_err(|_| LlmError::Unavailable("the local model is shutting down".to_owned()))?;
        let cancel = CancelOnDrop(Arc::new(AtomicBool::new(false)));
        let flag = Arc::clone(&cancel.0);
        let task = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            engine.generate(&request, &flag)
        });
        let joined = tokio::time::timeout_at(deadline, task).await.map_err(|_| LlmError::Timeout)?;
        let result = joined.map_err(|e| LlmError::Unavailable(format!("the local model stopped: {e}")))?;
        result.map_err(|e| match e {
            GenerateError::Cancelled => LlmError::Timeout,
            GenerateError::TooLong { prompt, context } => LlmError::Config(format!(
                "the prompt is {prompt} tokens, too long for the local model's {context}-token context"
            )),
            GenerateError::Failed(why) => LlmError::Unavailable(format!("the local model failed: {why}")),
        })
    }
}

/// Sets the flag when the waiting side goes away, so the blocking
/// generation stops at its next token instead of running on unseen.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

async fn load(path: PathBuf, prefix_cache: u64) -> Result<Arc<Engine>, LlmError> {
    let shown = path.display().to_string();
    let loaded = tokio::task::spawn_blocking(move || Engine::load_with(&path, prefix_cache))
        .await
        .map_err(|e| LlmError::Unavailable(format!("loading the local model stopped: {e}")))?;
    loaded.map(Arc::new).map_err(|why| {
        LlmError::Config(format!(
            "the model file {shown} is not usable: {why}; delete it and run `echoes models fetch` again"
        ))
    })
}

#[async_trait]
impl LlmClient for LocalClient {
    fn describe(&self) -> String {
        let stem = self.path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        format!("local:{stem}")
    }

    fn count_tokens(&self, text: &str) -> Option<usize> {
        self.engine.get().and_then(|e| e.count_tokens(text))
    }

    /// The loaded model's own context (capped), once it is loaded.
    fn context_window(&self) -> Option<usize> {
        self.engine.get().map(|e| e.info.context_tokens)
    }

    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError> {
        tracing::debug!(client = %self.describe(), messages = request.messages.len(), "generating locally");
        let generation = self.generate(request).await?;
        Ok(ChatResponse {
            text: generation.text,
            prompt_tokens: generation.prompt_tokens as u32,
            completion_tokens: generation.completion_tokens as u32,
        })
    }

    /// Loads the model: a missing or corrupt file fails here, at start-up.
    async fn health(&self) -> Result<(), LlmError> {
        self.engine().await.map(|_| ())
    }
}

#[cfg(test)]
mod tests;
