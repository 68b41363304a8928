//! The `local` sentence embedder behind `core::embed::Embedder`:
//! all-MiniLM-L6-v2 run in process, mean-pooled over real tokens and
//! L2-normalised (what sentence-transformers does): on llama.cpp from its
//! GGUF by default, on candle from its safetensors where asked or where
//! the GGUF is missing (`sentence_model`).
//!
//! Loads once; `embed` runs on tokio's blocking pool so it never stalls
//! other tasks. Missing or broken files are `EmbedError::Unavailable` with
//! a message saying what to do, never a panic.
//!
//! # Layout
//! - this file: `LocalEmbedder`, on candle from the model's safetensors.
//! - `llama`: `LlamaEmbedder`, the same model on llama.cpp from its GGUF
//!   (the engine the chat models run on); the same labels and vectors.

mod llama;

use std::path::Path;
use std::sync::Arc;

use async_trait::async_trait;
use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer};

use crate::core::embed::{EmbedError, Embedder};
use crate::llm::settings::LocalSettings;
use crate::models::ModelDir;

pub use llama::LlamaEmbedder;

/// The sentence model `[knowledge] embedder` names, loaded: `llama` its
/// GGUF on llama.cpp; `candle` its safetensors on candle; `auto` the GGUF,
/// or the safetensors where the GGUF is not usable (no converter ran). The
/// `hashing` embedder is the caller's fallback, not a model.
pub async fn sentence_model(choice: &str, settings: &LocalSettings) -> Result<Arc<dyn Embedder>, EmbedError> {
    if choice == "candle" {
        return Ok(Arc::new(LocalEmbedder::from_settings(settings).await?));
    }
    match LlamaEmbedder::from_settings(settings).await {
        Ok(embedder) => Ok(Arc::new(embedder)),
        Err(gguf) if choice == "auto" => match LocalEmbedder::from_settings(settings).await {
            Ok(embedder) => {
                tracing::info!(error = %gguf, "the embedder's GGUF is not usable; its safetensors run on candle");
                Ok(Arc::new(embedder))
            }
            Err(_) => Err(gguf),
        },
        Err(e) => Err(e),
    }
}

/// Texts per forward pass: bounds memory on long inputs.
const BATCH: usize = 32;

/// all-MiniLM-L6-v2, or any BERT sentence model with the same files.
#[derive(Clone)]
pub struct LocalEmbedder {
    model: Arc<Loaded>,
}

struct Loaded {
    bert: BertModel,
    tokenizer: Tokenizer,
    dims: usize,
    label: String,
}

impl LocalEmbedder {
    /// Loads the embedder that `[llm.local]` points at, off the async threads.
    pub async fn from_settings(settings: &LocalSettings) -> Result<Self, EmbedError> {
        let dir = ModelDir::new(settings).embedder_sources().map_err(|e| EmbedError::Unavailable(e.to_string()))?;
        Self::open(&dir).await
    }

    pub async fn open(dir: &Path) -> Result<Self, EmbedError> {
        let dir = dir.to_owned();
        tokio::task::spawn_blocking(move || Self::load(&dir))
            .await
            .map_err(|e| EmbedError::Unavailable(format!("loading the embedder stopped: {e}")))?
    }

    /// Loads `config.json`, `tokenizer.json` and `model.safetensors` from
    /// `dir`, each checked against the hash recorded when it was fetched
    /// (`models::pins`). Blocking.
    pub fn load(dir: &Path) -> Result<Self, EmbedError> {
        let bad = |why: String| {
            EmbedError::Unavailable(format!(
                "the embedder in {} is not usable: {why}; delete it and run `echoes models fetch` again",
                dir.display()
            ))
        };
        for file in crate::models::EMBEDDER_SOURCES {
            crate::models::pins::check_recorded(&dir.join(file)).map_err(|e| bad(e.to_string()))?;
        }
        let config_text =
            std::fs::read_to_string(dir.join("config.json")).map_err(|e| bad(format!("config.json: {e}")))?;
        let config: Config = serde_json::from_str(&config_text).map_err(|e| bad(format!("config.json: {e}")))?;
        let dims: usize = serde_json::from_str::<serde_json::Value>(&config_text)
            .ok()
            .and_then(|v| v["hidden_size"].as_u64())
            .ok_or_else(|| bad("config.json has no hidden_size".to_owned()))? as usize;
        let mut tokenizer =
            Tokenizer::from_file(dir.join("tokenizer.json")).map_err(|e| bad(format!("tokenizer.json: {e}")))?;
        let padding = PaddingParams { strategy: PaddingStrategy::BatchLongest, ..PaddingParams::default() };
        tokenizer.with_padding(Some(padding));
        let weights = dir.join("model.safetensors");
        check_safetensors(&weights).map_err(bad)?;
        // SAFETY: the file is memory-mapped read-only; it is our own cache
        // file, not modified while the process runs.
        let vb = unsafe { VarBuilder::from_mmaped_safetensors(&[&weights], DType::F32, &Device::Cpu) }
            .map_err(|e| bad(format!("model.safetensors: {e}")))?;
        let bert = BertModel::load(vb, &config).map_err(|e| bad(format!("model.safetensors: {e}")))?;
        let label = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        Ok(Self { model: Arc::new(Loaded { bert, tokenizer, dims, label }) })
    }
}

impl Loaded {
    fn embed_batch(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, String> {
        let encodings = self.tokenizer.encode_batch(texts.to_vec(), true).map_err(|e| e.to_string())?;
        let rows = |f: &dyn Fn(&tokenizers::Encoding) -> Vec<u32>| -> candle_core::Result<Tensor> {
            let rows: Vec<Tensor> =
                encodings.iter().map(|e| Tensor::new(f(e).as_slice(), &Device::Cpu)).collect::<Result<_, _>>()?;
            Tensor::stack(&rows, 0)
        };
        let run = || -> candle_core::Result<Vec<Vec<f32>>> {
            let ids = rows(&|e| e.get_ids().to_vec())?;
            let mask = rows(&|e| e.get_attention_mask().to_vec())?;
            let types = ids.zeros_like()?;
            let hidden = self.bert.forward(&ids, &types, Some(&mask))?;
            let mask = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
            let summed = hidden.broadcast_mul(&mask)?.sum(1)?;
            let mean = summed.broadcast_div(&mask.sum(1)?.clamp(1e-9, f64::MAX)?)?;
            let norm = mean.sqr()?.sum_keepdim(1)?.sqrt()?.clamp(1e-12, f64::MAX)?;
            mean.broadcast_div(&norm)?.to_vec2::<f32>()
        };
        run().map_err(|e| e.to_string())
    }
}

#[async_trait]
impl Embedder for LocalEmbedder {
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
        tokio::task::spawn_blocking(move || {
            let mut out = Vec::with_capacity(texts.len());
            for chunk in texts.chunks(BATCH) {
                out.extend(model.embed_batch(chunk).map_err(EmbedError::Failed)?);
            }
            Ok(out)
        })
        .await
        .map_err(|e| EmbedError::Failed(format!("the embedder stopped: {e}")))?
    }
}

/// A safetensors file starts with an 8-byte header length and a JSON
/// header; a truncated or foreign file fails here instead of at mmap time.
fn check_safetensors(path: &Path) -> Result<(), String> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).map_err(|e| format!("model.safetensors: {e}"))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut len = [0u8; 8];
    file.read_exact(&mut len).map_err(|_| "model.safetensors is empty or truncated".to_owned())?;
    let header = u64::from_le_bytes(len);
    if header == 0 || header.saturating_add(8) > size {
        return Err("model.safetensors is not a safetensors file or is truncated".to_owned());
    }
    Ok(())
}

#[cfg(test)]
mod tests;
