//! The `local` sentence embedder behind `core::embed::Embedder`:
//! all-MiniLM-L6-v2 (or any BERT-family sentence model in one GGUF file)
//! run in process on llama.cpp, the engine the chat models run on,
//! mean-pooled over real tokens and L2-normalised (what
//! sentence-transformers does).
//!
//! Loads once; `embed` runs on tokio's blocking pool so it never stalls
//! other tasks. Missing or broken files are `EmbedError::Unavailable` with
//! a message saying what to do, never a panic.
//!
//! # Layout
//! - this file: `sentence_model`, the embedder `[knowledge] embedder` names.
//! - `llama`: `LlamaEmbedder`, the model on llama.cpp from its GGUF.

mod llama;

use std::sync::Arc;

use crate::core::embed::{EmbedError, Embedder};
use crate::llm::settings::LocalSettings;

pub use llama::LlamaEmbedder;

/// The sentence model `[knowledge] embedder` names, loaded: `llama` (and
/// `auto`, the default, which is the same) its GGUF on llama.cpp. The
/// `hashing` embedder is the caller's fallback, not a model.
pub async fn sentence_model(choice: &str, settings: &LocalSettings) -> Result<Arc<dyn Embedder>, EmbedError> {
    match choice {
        "auto" | "llama" => Ok(Arc::new(LlamaEmbedder::from_settings(settings).await?)),
        other => Err(EmbedError::Unavailable(format!(
            "no sentence model is called {other:?}: `[knowledge] embedder` is \"auto\", \"llama\" or \"hashing\""
        ))),
    }
}
