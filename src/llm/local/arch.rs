//! The model architectures the local provider runs, each one of candle's
//! quantized models, behind one type: build from a GGUF, feed tokens, start
//! afresh.
//!
//! - `llama`: SmolLM2 (the packaged small model) and other llama-shaped files.
//! - `qwen2`: Qwen2.5 instruct (the default large model: multilingual).
//! - `qwen3`: Qwen3 (its "thinking" is switched off by the chat template).
//! - `gemma3`: Gemma 3.

use std::io::{Read, Seek};

use candle_core::quantized::gguf_file::Content;
use candle_core::{Device, Tensor};
use candle_transformers::models::{quantized_gemma3, quantized_llama, quantized_qwen2, quantized_qwen3};

/// Positions any model here is given at most, prompt and reply together:
/// llama's and Qwen3's CPU caches stop at 4096, and on a few cores a longer
/// prompt would take minutes anyway.
pub const MAX_CONTEXT: usize = 4096;

/// The GGUF architectures supported, as `general.architecture` names them.
pub const SUPPORTED: [&str; 4] = ["llama", "qwen2", "qwen3", "gemma3"];

/// One model's weights and its decoding state (the KV cache).
pub enum Weights {
    Llama(quantized_llama::ModelWeights),
    Qwen2(quantized_qwen2::ModelWeights),
    Qwen3(quantized_qwen3::ModelWeights),
    /// Gemma 3's cache cannot be cleared, so a fresh copy (its tensors are
    /// shared, only the empty cache is new) replaces the used one.
    Gemma3 {
        live: Box<quantized_gemma3::ModelWeights>,
        fresh: Box<quantized_gemma3::ModelWeights>,
    },
}

impl Weights {
    /// Builds the model `arch` names from the file's tensors.
    pub fn load<R: Read + Seek>(arch: &str, content: Content, reader: &mut R, device: &Device) -> Result<Self, String> {
        let loaded = match arch {
            "llama" => quantized_llama::ModelWeights::from_gguf(content, reader, device).map(Self::Llama),
            "qwen2" => quantized_qwen2::ModelWeights::from_gguf(content, reader, device).map(Self::Qwen2),
            "qwen3" => quantized_qwen3::ModelWeights::from_gguf(content, reader, device).map(Self::Qwen3),
            "gemma3" => quantized_gemma3::ModelWeights::from_gguf(content, reader, device)
                .map(|w| Self::Gemma3 { live: Box::new(w.clone()), fresh: Box::new(w) }),
            other => {
                return Err(format!(
                    "its architecture is `{other}`; supported are {}",
                    SUPPORTED.map(|a| format!("`{a}`")).join(", ")
                ));
            }
        };
        loaded.map_err(|e| format!("its tensors could not be loaded ({e})"))
    }

    /// The logits after `input` (a batch of one), given `pos` tokens before it.
    pub fn forward(&mut self, input: &Tensor, pos: usize) -> candle_core::Result<Tensor> {
        match self {
            Self::Llama(w) => w.forward(input, pos),
            Self::Qwen2(w) => w.forward(input, pos),
            Self::Qwen3(w) => w.forward(input, pos),
            Self::Gemma3 { live, .. } => live.forward(input, pos),
        }
    }

    /// Whether several tokens can be fed at once after earlier ones.
    pub fn takes_runs(&self) -> bool {
        matches!(self, Self::Llama(_))
    }

    /// Forgets every token fed so far.
    pub fn reset(&mut self) {
        match self {
            Self::Llama(w) => w.clear_kv_cache(),
            Self::Qwen2(w) => w.clear_kv_cache(),
            Self::Qwen3(w) => w.clear_kv_cache(),
            Self::Gemma3 { live, fresh } => *live = fresh.clone(),
        }
    }
}

/// The context length the file was trained with, under its architecture's key.
pub fn trained_context(content: &Content, arch: &str) -> Option<usize> {
    content.metadata.get(&format!("{arch}.context_length")).and_then(|v| v.to_u32().ok()).map(|n| n as usize)
}
