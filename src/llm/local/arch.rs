//! The model architectures the local provider is tested on, as GGUF files
//! name them (`general.architecture`), and the context each is given. Any
//! other that llama.cpp loads runs too, laid out by its own chat template
//! as llama.cpp applies it; these four have formats written here
//! (`super::template`).
//!
//! - `llama`: SmolLM2 (the packaged small model) and other llama-shaped files.
//! - `qwen2`: Qwen2.5 instruct (the default large model: multilingual).
//! - `qwen3`: Qwen3 (its "thinking" is switched off by the chat template).
//! - `gemma3`: Gemma 3.

use crate::models::gguf::Header;

/// Positions any model here is given at most, prompt and reply together:
/// the KV cache is allocated for all of them, and on a few cores a longer
/// prompt would take minutes anyway.
pub const MAX_CONTEXT: usize = 4096;

/// The GGUF architectures tested here, as `general.architecture` names them.
pub const SUPPORTED: [&str; 4] = ["llama", "qwen2", "qwen3", "gemma3"];

/// The context length the file was trained with, under its architecture's key.
pub fn trained_context(header: &Header, arch: &str) -> Option<usize> {
    header.unsigned(&format!("{arch}.context_length")).and_then(|n| usize::try_from(n).ok())
}
