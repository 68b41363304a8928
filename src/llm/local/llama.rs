//! llama.cpp through the `llama-cpp-2` bindings: one loaded model with one
//! context (its KV cache), fed token ids and giving back logits. This is
//! the number crunching; the model's vocabulary tokenizes
//! (`super::tokenizer`), and templates, sampling and the prefix cache are
//! in Rust (`super::template`, `super::sampler`, `super::cache`).
//!
//! Everything here blocks. One sequence (id 0) holds the tokens fed so
//! far, at positions `0..len`; its state can be saved and restored whole.

use std::num::NonZeroU32;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::context::session::{LlamaStateSeqFlags, SeqState};
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::token::LlamaToken;

/// Tokens decoded in one call: a longer prompt goes in several, each
/// starting on a prefix-cache block (`super::cache` reuses whole blocks).
const BATCH: usize = 512;
const _: () = assert!(BATCH.is_multiple_of(super::cache::BLOCK));
/// llama.cpp's `LLAMA_FLASH_ATTN_TYPE_DISABLED`. Its CPU flash attention
/// (on by default) sums a query's scores in an order that depends on the
/// batch the query came in, so a prompt cut at any point would not give
/// the logits the whole prompt gives, and the prefix cache would change
/// replies. Plain attention sums the same way in every batch.
pub(crate) const FLASH_ATTENTION_OFF: i32 = 0;
/// The one sequence every generation uses.
const SEQ: i32 = 0;

/// llama.cpp's process-wide initialisation, done once and shared by every
/// model in the process (the chat model, the sentence embedder):
/// `LlamaBackend::init` fails when called twice.
pub(crate) fn backend() -> Result<&'static LlamaBackend, String> {
    static BACKEND: OnceLock<Result<LlamaBackend, String>> = OnceLock::new();
    BACKEND
        .get_or_init(|| {
            // llama.cpp's own log lines (loading details, warnings about
            // unused context) reach the log only when ours is at debug.
            let verbose = tracing::enabled!(tracing::Level::DEBUG);
            llama_cpp_2::send_logs_to_tracing(llama_cpp_2::LogOptions::default().with_logs_enabled(verbose));
            super::cpu::kernels()?;
            LlamaBackend::init().map_err(|e| format!("llama.cpp did not start: {e}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// A model and its context.
pub struct Llama {
    // Field order matters: the context is dropped before the model it uses.
    ctx: LlamaContext<'static>,
    model: Arc<LlamaModel>,
    vocab: usize,
}

// SAFETY: the context is `Send` (llama-cpp-2 says so) and the model is
// `Send + Sync`; `Llama` is used by one thread at a time behind a mutex.
unsafe impl Send for Llama {}

impl Llama {
    /// Loads `path` with a context of `context` tokens, using every core.
    pub fn load(path: &Path, context: usize) -> Result<Self, String> {
        let backend = backend()?;
        let model = LlamaModel::load_from_file(backend, path, &LlamaModelParams::default())
            .map_err(|e| format!("llama.cpp could not load it ({e})"))?;
        let model = Arc::new(model);
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as i32;
        let params = LlamaContextParams::default()
            .with_n_ctx(NonZeroU32::new(context as u32))
            .with_n_batch(BATCH as u32)
            .with_n_ubatch(BATCH as u32)
            .with_n_threads(threads)
            .with_n_threads_batch(threads)
            // Gemma's sliding-window layers keep every position, so a
            // cached prefix can be cut back anywhere (`truncate`).
            .with_swa_full(true)
            .with_flash_attention_policy(FLASH_ATTENTION_OFF);
        // SAFETY: the context borrows the model, which is shared (its address
        // never changes) and held by the same struct, which drops the
        // context first: the model outlives it.
        let model_ref: &'static LlamaModel = unsafe { &*Arc::as_ptr(&model) };
        let ctx = model_ref
            .new_context(backend, params)
            .map_err(|e| format!("llama.cpp could not make a context for it ({e})"))?;
        let vocab = usize::try_from(model.n_vocab()).unwrap_or(0);
        Ok(Self { ctx, model, vocab })
    }

    /// The loaded model (its vocabulary tokenizes).
    pub fn model(&self) -> Arc<LlamaModel> {
        Arc::clone(&self.model)
    }

    /// Feeds `ids` at positions `from..`, returns the logits after the last.
    pub fn decode(&mut self, ids: &[u32], from: usize) -> Result<Vec<f32>, String> {
        if ids.is_empty() {
            return Err("nothing to decode".to_owned());
        }
        let mut batch = LlamaBatch::new(BATCH, 1);
        let chunks = ids.chunks(BATCH).count();
        for (c, chunk) in ids.chunks(BATCH).enumerate() {
            batch.clear();
            let start = from + c * BATCH;
            for (i, &id) in chunk.iter().enumerate() {
                let last = c + 1 == chunks && i + 1 == chunk.len();
                batch
                    .add(LlamaToken::new(id as i32), (start + i) as i32, &[SEQ], last)
                    .map_err(|e| format!("inference failed: {e}"))?;
            }
            self.ctx.decode(&mut batch).map_err(|e| format!("inference failed: {e}"))?;
        }
        let logits = self.ctx.get_logits_ith(batch.n_tokens() - 1);
        Ok(logits[..self.vocab.min(logits.len())].to_vec())
    }

    /// Forgets positions `len..`; `false` when this model's memory cannot
    /// drop part of a sequence (the caller then starts afresh).
    pub fn truncate(&mut self, len: usize) -> bool {
        self.ctx.clear_kv_cache_seq(Some(SEQ as u32), Some(len as u32), None).unwrap_or(false)
    }

    /// Forgets every position.
    pub fn clear(&mut self) {
        self.ctx.clear_kv_cache();
    }

    /// The sequence's state: what `restore` puts back.
    pub fn save(&self) -> Result<SeqState, String> {
        self.ctx.state_seq_get(SEQ, LlamaStateSeqFlags::empty()).map_err(|e| e.to_string())
    }

    /// Replaces the sequence with a saved state; `false` if it did not fit.
    pub fn restore(&mut self, state: &SeqState) -> bool {
        self.clear();
        let restored = self.ctx.state_seq_set(state, SEQ).is_ok();
        if !restored {
            self.clear();
        }
        restored
    }
}
