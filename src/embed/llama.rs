//! The sentence embedder on llama.cpp: a BERT-family GGUF (all-MiniLM-L6-v2
//! as `scripts/bert-to-gguf.py` converts it, which `echoes models fetch`
//! runs) in llama.cpp's embedding mode. The model's own WordPiece
//! vocabulary tokenizes ([CLS] text [SEP]), llama.cpp pools (mean, or the
//! [CLS] token when the file says so) and the vectors are L2-normalised
//! here: sentence-transformers' vectors to within float rounding (the
//! tests hold them against `scripts/embed-reference.py`'s).
//!
//! Loads once; `embed` runs on tokio's blocking pool, several texts per
//! llama.cpp call (one sequence each), one call at a time. A text longer
//! than `MAX_TOKENS` word pieces is cut there, as sentence-transformers
//! does. Missing or broken files are `EmbedError::Unavailable` with a
//! message saying what to do, never a panic.

use std::num::NonZeroU32;
use std::ops::Range;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;
use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::context::params::{LlamaAttentionType, LlamaContextParams, LlamaPoolingType};
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::token::LlamaToken;

use crate::core::embed::{EmbedError, Embedder};
use crate::llm::local::{FLASH_ATTENTION_OFF, backend, verify_gguf};
use crate::llm::settings::LocalSettings;
use crate::models::ModelDir;

/// Word pieces per text, [CLS] and [SEP] included: sentence-transformers'
/// `max_seq_length` for all-MiniLM-L6-v2. Longer texts keep their start.
const MAX_TOKENS: usize = 256;
/// Tokens per llama.cpp call. A non-causal model takes a call's tokens in
/// one piece (n_ubatch), and attention spans all of them, so its cost
/// grows with the square of this.
const CALL_TOKENS: usize = 512;
/// Texts per llama.cpp call, each its own sequence.
const CALL_TEXTS: usize = 32;
const _: () = assert!(MAX_TOKENS <= CALL_TOKENS);

/// A BERT-family sentence embedder in one GGUF file.
#[derive(Clone)]
pub struct LlamaEmbedder {
    model: Arc<Loaded>,
}

struct Loaded {
    // Field order matters: the context is dropped before the model it uses.
    ctx: Mutex<LlamaContext<'static>>,
    model: Box<LlamaModel>,
    dims: usize,
    /// `MAX_TOKENS`, or fewer where the model has fewer positions.
    max_tokens: usize,
    label: String,
}

impl LlamaEmbedder {
    /// Loads the embedder's GGUF that `[llm.local]` names, off the async
    /// threads.
    pub async fn from_settings(settings: &LocalSettings) -> Result<Self, EmbedError> {
        let path = ModelDir::new(settings).embedder_gguf().map_err(|e| EmbedError::Unavailable(e.to_string()))?;
        Self::open(&path).await
    }

    pub async fn open(path: &Path) -> Result<Self, EmbedError> {
        let path = path.to_owned();
        tokio::task::spawn_blocking(move || Self::load(&path))
            .await
            .map_err(|e| EmbedError::Unavailable(format!("loading the embedder stopped: {e}")))?
    }

    /// Checks and loads the GGUF at `path`. Blocking.
    pub fn load(path: &Path) -> Result<Self, EmbedError> {
        let bad = |why: String| {
            EmbedError::Unavailable(format!(
                "the embedder {} is not usable: {why}; delete it and run `echoes models fetch` again",
                path.display()
            ))
        };
        if !path.is_file() {
            return Err(EmbedError::Unavailable(format!(
                "the embedder's GGUF is missing ({}); run `echoes models fetch` to make it",
                path.display()
            )));
        }
        verify_gguf(path).map_err(&bad)?;
        let backend = backend().map_err(EmbedError::Unavailable)?;
        let model = LlamaModel::load_from_file(backend, path, &LlamaModelParams::default())
            .map_err(|e| bad(format!("llama.cpp could not load it ({e})")))?;
        let model = Box::new(model);
        let dims = usize::try_from(model.n_embd_out()).unwrap_or(0);
        if dims == 0 {
            return Err(bad("it has no embedding width".to_owned()));
        }
        let max_tokens = MAX_TOKENS.min(model.n_ctx_train() as usize);
        if max_tokens < 2 {
            return Err(bad("it has no room for [CLS] and [SEP]".to_owned()));
        }
        let params = context_params(pooling(&model));
        // SAFETY: the context borrows the model, which is boxed (its address
        // never changes), owned by the same struct and dropped after it.
        let model_ref: &'static LlamaModel = unsafe { &*(model.as_ref() as *const LlamaModel) };
        let ctx = model_ref
            .new_context(backend, params)
            .map_err(|e| bad(format!("llama.cpp could not make a context for it ({e})")))?;
        let label = label(&model, path);
        Ok(Self { model: Arc::new(Loaded { ctx: Mutex::new(ctx), model, dims, max_tokens, label }) })
    }
}

/// The file's `general.name` (the converter writes the model's directory
/// name: `all-MiniLM-L6-v2`), else its stem.
fn label(model: &LlamaModel, path: &Path) -> String {
    match model.meta_val_str("general.name") {
        Ok(name) if !name.trim().is_empty() => name,
        _ => path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(),
    }
}

/// An embedding context: vectors pooled per sequence, attention both ways,
/// room for one call, every core.
fn context_params(pooling: LlamaPoolingType) -> LlamaContextParams {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as i32;
    // n_ctx is split evenly between the sequences; each gets MAX_TOKENS.
    let context = (CALL_TEXTS * MAX_TOKENS) as u32;
    LlamaContextParams::default()
        .with_embeddings(true)
        .with_pooling_type(pooling)
        .with_attention_type(LlamaAttentionType::NonCausal)
        .with_n_ctx(NonZeroU32::new(context))
        .with_n_batch(CALL_TOKENS as u32)
        .with_n_ubatch(CALL_TOKENS as u32)
        .with_n_seq_max(CALL_TEXTS as u32)
        .with_n_threads(threads)
        .with_n_threads_batch(threads)
        .with_flash_attention_policy(FLASH_ATTENTION_OFF)
}

/// The pooling the file names when it is the [CLS] token's, else mean
/// (all-MiniLM-L6-v2's).
fn pooling(model: &LlamaModel) -> LlamaPoolingType {
    let arch = model.meta_val_str("general.architecture").unwrap_or_default();
    match model.meta_val_str(&format!("{arch}.pooling_type")).as_deref() {
        Ok("2") => LlamaPoolingType::Cls,
        _ => LlamaPoolingType::Mean,
    }
}

impl Loaded {
    /// One vector per text, in order. Blocking.
    fn embed_all(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, String> {
        let tokens: Vec<Vec<LlamaToken>> = texts.iter().map(|t| self.tokenize(t)).collect();
        let lengths: Vec<usize> = tokens.iter().map(Vec::len).collect();
        let mut out = Vec::with_capacity(texts.len());
        for call in calls(&lengths) {
            out.extend(self.embed_call(&tokens[call])?);
        }
        Ok(out)
    }

    /// [CLS] word pieces [SEP], cut to `max_tokens` with the [SEP] kept.
    fn tokenize(&self, text: &str) -> Vec<LlamaToken> {
        let mut tokens = self.model.vocab().tokenize(text.as_bytes(), true, false);
        if tokens.len() > self.max_tokens
            && let Some(&sep) = tokens.last()
        {
            tokens.truncate(self.max_tokens - 1);
            tokens.push(sep);
        }
        tokens
    }

    /// One llama.cpp call: each text its own sequence, numbered from 0.
    fn embed_call(&self, texts: &[Vec<LlamaToken>]) -> Result<Vec<Vec<f32>>, String> {
        let total: usize = texts.iter().map(Vec::len).sum();
        let mut batch = LlamaBatch::new(total.max(1), 1);
        for (seq, tokens) in texts.iter().enumerate() {
            for (pos, &token) in tokens.iter().enumerate() {
                batch.add(token, pos as i32, &[seq as i32], true).map_err(|e| format!("inference failed: {e}"))?;
            }
        }
        let mut ctx = self.ctx.lock().unwrap_or_else(PoisonError::into_inner);
        ctx.encode(&mut batch).map_err(|e| format!("inference failed: {e}"))?;
        (0..texts.len())
            .map(|seq| {
                let pooled = ctx.embeddings_seq_ith(seq as i32).map_err(|e| format!("no vector came back: {e}"))?;
                if pooled.len() < self.dims {
                    return Err(format!("a vector came back {} wide, not {}", pooled.len(), self.dims));
                }
                Ok(normalised(&pooled[..self.dims]))
            })
            .collect()
    }
}

/// Consecutive runs of texts (by their token counts) that fit one call
/// each: at most `CALL_TEXTS` texts and `CALL_TOKENS` tokens. A text is
/// never longer than a call.
fn calls(lengths: &[usize]) -> Vec<Range<usize>> {
    let mut runs = Vec::new();
    let (mut start, mut tokens) = (0, 0);
    for (i, &len) in lengths.iter().enumerate() {
        if i > start && (i - start == CALL_TEXTS || tokens + len > CALL_TOKENS) {
            runs.push(start..i);
            (start, tokens) = (i, 0);
        }
        tokens += len;
    }
    if start < lengths.len() {
        runs.push(start..lengths.len());
    }
    runs
}

/// `v` scaled to length 1 (a zero vector stays zero).
fn normalised(v: &[f32]) -> Vec<f32> {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12);
    v.iter().map(|x| x / norm).collect()
}

#[async_trait]
impl Embedder for LlamaEmbedder {
    fn describe(&self) -> String {
        format!("local:{}", self.model.label)
    }

    fn dimensions(&self) -> usize {
        self.model.dims
    }

    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let model = Arc::clone(&self.model);
        let texts = texts.to_vec();
        tokio::task::spawn_blocking(move || model.embed_all(&texts).map_err(EmbedError::Failed))
            .await
            .map_err(|e| EmbedError::Failed(format!("the embedder stopped: {e}")))?
    }
}

#[cfg(test)]
mod tests;
