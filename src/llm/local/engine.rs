//! The in-process model: a GGUF file loaded into one of candle's quantized
//! models (`super::arch`), its tokenizer and chat template, and the blocking
//! generation loop.
//!
//! Everything here blocks the calling thread; `super::LocalClient` runs it
//! on tokio's blocking pool. Errors are plain strings for the caller to
//! wrap: loading errors say what is wrong with the file, never panic.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use candle_core::quantized::gguf_file::{self, Content, Value};
use candle_core::quantized::{GgmlDType, QTensor};
use candle_core::{Device, Tensor};

use super::arch::{self, MAX_CONTEXT, Weights};
use super::sampler::Sampler;
use super::structured::{self, Shape};
use super::template::ChatTemplate;
use super::tokenizer::ChatTokenizer;
use crate::core::llm::ChatRequest;

/// What a loaded model is, for notices and benchmarks.
#[derive(Debug, Clone)]
pub struct ModelInfo {
    /// The GGUF's `general.name`, or the file stem.
    pub name: String,
    /// Its `general.architecture`: `llama`, `qwen2`, `qwen3` or `gemma3`.
    pub architecture: String,
    pub path: PathBuf,
    pub file_bytes: u64,
    /// Tokens of context this engine accepts (prompt plus reply).
    pub context_tokens: usize,
    pub load_time: Duration,
}

/// A loaded chat model. One generation runs at a time (the caller's gate
/// sees to that; the lock makes it so): each starts from an empty KV cache.
pub struct Engine {
    weights: Mutex<Weights>,
    tokenizer: ChatTokenizer,
    template: ChatTemplate,
    stops: Vec<u32>,
    device: Device,
    pub info: ModelInfo,
}

/// One finished generation, with its timings.
#[derive(Debug, Clone, Default)]
pub struct Generation {
    pub text: String,
    pub prompt_tokens: usize,
    pub completion_tokens: usize,
    pub prompt_time: Duration,
    pub generation_time: Duration,
}

/// Why a generation stopped early.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GenerateError {
    /// The deadline passed or the caller went away.
    Cancelled,
    /// The prompt does not fit the context window.
    TooLong {
        prompt: usize,
        context: usize,
    },
    Failed(String),
}

impl Engine {
    /// Reads and checks a GGUF file and builds the model. Blocking.
    pub fn load(path: &Path) -> Result<Self, String> {
        let started = Instant::now();
        let mut file = File::open(path).map_err(|e| format!("cannot open it: {e}"))?;
        let file_bytes = file.metadata().map(|m| m.len()).unwrap_or(0);
        let content = Content::read(&mut file).map_err(|e| format!("it is not a valid GGUF file ({e})"))?;
        check_complete(&content, file_bytes)?;
        let arch = meta_string(&content, "general.architecture").unwrap_or_default();
        if !arch::SUPPORTED.contains(&arch.as_str()) {
            return Err(format!(
                "its architecture is `{arch}`; supported are {}",
                arch::SUPPORTED.map(|a| format!("`{a}`")).join(", ")
            ));
        }
        let tokenizer = ChatTokenizer::from_gguf(&content)?;
        let template = match meta_string(&content, "tokenizer.chat_template") {
            // A Gemma file without a template (a base model) still knows Gemma's turns.
            None if arch == "gemma3" => ChatTemplate::Gemma,
            template => ChatTemplate::from_gguf(template.as_deref())?,
        };
        let stops = template.stop_ids(&tokenizer);
        let name = meta_string(&content, "general.name")
            .unwrap_or_else(|| path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default());
        let context_tokens = arch::trained_context(&content, &arch).map_or(MAX_CONTEXT, |n| n.min(MAX_CONTEXT));
        let device = Device::Cpu;
        let weights = match with_fast_types(&content, &mut file, &device) {
            Ok(Some(mut converted)) => {
                let content = Content::read(&mut converted).map_err(|e| format!("converting it failed ({e})"))?;
                Weights::load(&arch, content, &mut converted, &device)
            }
            Ok(None) => Weights::load(&arch, content, &mut file, &device),
            Err(e) => Err(format!("its tensors could not be loaded ({e})")),
        }?;
        let info = ModelInfo {
            name,
            architecture: arch,
            path: path.to_owned(),
            file_bytes,
            context_tokens,
            load_time: started.elapsed(),
        };
        Ok(Self { weights: Mutex::new(weights), tokenizer, template, stops, device, info })
    }

    /// Tokens in `text` by this model's tokenizer.
    pub fn count_tokens(&self, text: &str) -> Option<usize> {
        self.tokenizer.encode(text).ok().map(|ids| ids.len())
    }

    /// Runs one chat request to completion, or until `cancel` is set.
    pub fn generate(&self, request: &ChatRequest, cancel: &AtomicBool) -> Result<Generation, GenerateError> {
        let prompt = self.template.render(&request.messages);
        let ids = self.tokenizer.encode(&prompt).map_err(GenerateError::Failed)?;
        let budget = request.max_tokens.max(1) as usize;
        if ids.len() + budget > self.info.context_tokens {
            return Err(GenerateError::TooLong { prompt: ids.len(), context: self.info.context_tokens });
        }
        let mut lm = self.session();
        let started = Instant::now();
        let logits = lm.feed(&ids).map_err(GenerateError::Failed)?;
        let prompt_time = started.elapsed();
        let mut sampler = Sampler::new(request.temperature, request.seed);
        let mut run = Run { lm, logits, sampler: &mut sampler, cancel, produced: 0, budget };
        let text = match request.json_schema.as_ref().and_then(Shape::of) {
            Some(shape) => structured::generate(&shape, &mut run, &self.tokenizer, &self.stops)?,
            None => run.free(&self.tokenizer, &self.stops, usize::MAX, |_| false)?,
        };
        Ok(Generation {
            text,
            prompt_tokens: ids.len(),
            completion_tokens: run.produced,
            prompt_time,
            generation_time: started.elapsed() - prompt_time,
        })
    }

    /// The decoding state, emptied. Holds the model until dropped.
    fn session(&self) -> Lm<'_> {
        // A generation that panicked left only a stale cache, which is reset here.
        let mut weights = self.weights.lock().unwrap_or_else(PoisonError::into_inner);
        weights.reset();
        Lm { weights, pos: 0, device: self.device.clone() }
    }

    pub fn tokenizer(&self) -> &ChatTokenizer {
        &self.tokenizer
    }

    /// Benchmark: the time to process `ids` as one prompt.
    pub fn time_prompt(&self, ids: &[u32]) -> Result<Duration, String> {
        let started = Instant::now();
        self.session().feed(ids)?;
        Ok(started.elapsed())
    }

    /// Benchmark: after `prompt`, the time to generate exactly `n` tokens
    /// greedily (stop tokens ignored), prompt excluded.
    pub fn time_generation(&self, prompt: &[u32], n: usize) -> Result<Duration, String> {
        let mut lm = self.session();
        let mut logits = lm.feed(prompt)?;
        let started = Instant::now();
        for _ in 0..n {
            let next = super::sampler::argmax(&logits);
            logits = lm.feed(&[next])?;
        }
        Ok(started.elapsed())
    }

    /// The prompt text a request becomes, for benchmarks.
    pub fn render(&self, request: &ChatRequest) -> String {
        self.template.render(&request.messages)
    }
}

/// A decoding state: the model with its KV cache, and the position.
pub struct Lm<'a> {
    weights: MutexGuard<'a, Weights>,
    pos: usize,
    device: Device,
}

impl Lm<'_> {
    /// Feeds tokens after those already seen; returns the logits that follow.
    pub fn feed(&mut self, ids: &[u32]) -> Result<Vec<f32>, String> {
        // candle's qwen and gemma models take several tokens at once only
        // into an empty cache (their masks assume it): after the prompt,
        // forced text goes in one token at a time.
        if self.pos > 0 && ids.len() > 1 && !self.weights.takes_runs() {
            let mut logits = Vec::new();
            for id in ids {
                logits = self.feed(std::slice::from_ref(id))?;
            }
            return Ok(logits);
        }
        let input = Tensor::new(ids, &self.device).and_then(|t| t.unsqueeze(0)).map_err(|e| e.to_string())?;
        let logits = self.weights.forward(&input, self.pos).map_err(|e| format!("inference failed: {e}"))?;
        self.pos += ids.len();
        logits.squeeze(0).and_then(|t| t.to_vec1::<f32>()).map_err(|e| e.to_string())
    }
}

/// One generation in progress: the state, the next logits and the budget.
pub struct Run<'a> {
    pub lm: Lm<'a>,
    pub logits: Vec<f32>,
    pub sampler: &'a mut Sampler,
    cancel: &'a AtomicBool,
    /// Tokens produced so far (forced ones included).
    pub produced: usize,
    budget: usize,
}

impl Run<'_> {
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// Tokens left in the reply budget.
    pub fn left(&self) -> usize {
        self.budget.saturating_sub(self.produced)
    }

    /// Feeds tokens chosen by the caller (forced text or a sampled token).
    pub fn push(&mut self, ids: &[u32]) -> Result<(), GenerateError> {
        if self.cancelled() {
            return Err(GenerateError::Cancelled);
        }
        self.logits = self.lm.feed(ids).map_err(GenerateError::Failed)?;
        self.produced += ids.len();
        Ok(())
    }

    /// Samples freely until a stop token, the budget, `cap` tokens, or
    /// `done(text so far)`. Returns the decoded text without the stop token.
    pub fn free(
        &mut self,
        tokenizer: &ChatTokenizer,
        stops: &[u32],
        cap: usize,
        done: impl Fn(&str) -> bool,
    ) -> Result<String, GenerateError> {
        let mut out: Vec<u32> = Vec::new();
        let mut text = String::new();
        while self.left() > 0 && out.len() < cap {
            let next = self.sampler.sample(&self.logits);
            if stops.contains(&next) {
                break;
            }
            out.push(next);
            text = tokenizer.decode(&out).map_err(GenerateError::Failed)?;
            if done(&text) {
                // Structured output forces more text after this: the state
                // must have seen the token.
                self.push(&[next])?;
                break;
            }
            if self.left() <= 1 {
                self.produced += 1;
                break;
            }
            self.push(&[next])?;
        }
        Ok(text)
    }
}

/// Tensor types without SIMD kernels in candle on x86 (Q4_1, Q5_0, Q5_1)
/// run several times slower than the rest, so they are converted once, at
/// load, to Q8_0 (which has them); the converted model is rebuilt in memory.
/// `None` when every tensor is already of a fast type.
fn with_fast_types(
    content: &Content,
    file: &mut File,
    device: &Device,
) -> candle_core::Result<Option<std::io::Cursor<Vec<u8>>>> {
    let slow = |t: GgmlDType| matches!(t, GgmlDType::Q4_1 | GgmlDType::Q5_0 | GgmlDType::Q5_1);
    if !content.tensor_infos.values().any(|info| slow(info.ggml_dtype)) {
        return Ok(None);
    }
    let mut tensors: Vec<(&str, QTensor)> = Vec::with_capacity(content.tensor_infos.len());
    for name in content.tensor_infos.keys() {
        let tensor = content.tensor(file, name, device)?;
        let width = tensor.shape().dims().last().copied().unwrap_or(0);
        let tensor = if slow(tensor.dtype()) && width % 32 == 0 {
            QTensor::quantize(&tensor.dequantize(device)?, GgmlDType::Q8_0)?
        } else {
            tensor
        };
        tensors.push((name, tensor));
    }
    let metadata: Vec<(&str, &Value)> = content.metadata.iter().map(|(k, v)| (k.as_str(), v)).collect();
    let tensors: Vec<(&str, &QTensor)> = tensors.iter().map(|(k, v)| (*k, v)).collect();
    let mut out = std::io::Cursor::new(Vec::new());
    gguf_file::write(&mut out, &metadata, &tensors)?;
    out.set_position(0);
    Ok(Some(out))
}

/// A truncated download keeps a valid header: check every tensor's bytes
/// are really in the file before trusting it.
fn check_complete(content: &Content, file_bytes: u64) -> Result<(), String> {
    let mut needed = content.tensor_data_offset;
    for (name, info) in &content.tensor_infos {
        let elems = info.shape.elem_count();
        let block = info.ggml_dtype.block_size();
        if block == 0 || elems % block != 0 {
            return Err(format!("tensor `{name}` has an invalid shape"));
        }
        let bytes = (elems / block * info.ggml_dtype.type_size()) as u64;
        needed = needed.max(content.tensor_data_offset.saturating_add(info.offset).saturating_add(bytes));
    }
    if content.tensor_infos.is_empty() {
        return Err("it holds no tensors".to_owned());
    }
    if needed > file_bytes {
        return Err(format!("it is truncated ({file_bytes} of {needed} bytes)"));
    }
    Ok(())
}

fn meta_string(content: &Content, key: &str) -> Option<String> {
    match content.metadata.get(key) {
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    }
}

/// Reads only the header of a GGUF file and checks it is complete: what
/// `echoes models fetch` verifies without loading the weights.
pub fn verify_gguf(path: &Path) -> Result<String, String> {
    let mut file = File::open(path).map_err(|e| format!("cannot open it: {e}"))?;
    let file_bytes = file.metadata().map(|m| m.len()).unwrap_or(0);
    let content = Content::read(&mut file).map_err(|e| format!("it is not a valid GGUF file ({e})"))?;
    check_complete(&content, file_bytes)?;
    Ok(meta_string(&content, "general.name").unwrap_or_else(|| "unnamed".to_owned()))
}
