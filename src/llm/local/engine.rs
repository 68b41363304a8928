//! The in-process model: a GGUF file checked and described from its
//! metadata, run by llama.cpp (`super::llama`), with its tokenizer and chat
//! template, the prefix cache (`super::cache`) and the blocking generation
//! loop.
//!
//! Everything here blocks the calling thread; `super::LocalClient` runs it
//! on tokio's blocking pool. Errors are plain strings for the caller to
//! wrap: loading errors say what is wrong with the file, never panic.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use candle_core::quantized::gguf_file::{Content, Value};
use llama_cpp_2::context::session::SeqState;

use super::arch::{self, MAX_CONTEXT};
use super::cache::{self, PrefixCache, Start};
use super::llama::Llama;
use super::sampler::Sampler;
use super::structured::{self, Shape};
use super::template::ChatTemplate;
use super::tokenizer::ChatTokenizer;
use crate::core::llm::ChatRequest;

/// The prefix cache's budget when none is configured (`[llm.local]
/// prefix_cache_mb`).
pub const DEFAULT_PREFIX_CACHE_MB: u64 = 256;

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
/// sees to that; the lock makes it so); each starts from the longest
/// prefix of its prompt the cache holds.
pub struct Engine {
    model: Mutex<Model>,
    tokenizer: ChatTokenizer,
    template: ChatTemplate,
    stops: Vec<u32>,
    pub info: ModelInfo,
}

/// llama.cpp's context and the prefix cache that says what it holds.
struct Model {
    llama: Llama,
    cache: PrefixCache<SeqState>,
}

/// One finished generation, with its timings.
#[derive(Debug, Clone, Default)]
pub struct Generation {
    pub text: String,
    pub prompt_tokens: usize,
    /// Prompt tokens the prefix cache already held (not processed again).
    pub cached_tokens: usize,
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
    /// Reads and checks a GGUF file and loads it, with the default prefix
    /// cache. Blocking.
    pub fn load(path: &Path) -> Result<Self, String> {
        Self::load_with(path, DEFAULT_PREFIX_CACHE_MB * 1024 * 1024)
    }

    /// As `load`, with a prefix cache of `cache_bytes` (0: none, every
    /// prompt is processed whole).
    pub fn load_with(path: &Path, cache_bytes: u64) -> Result<Self, String> {
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
        drop(content);
        let llama = Llama::load(path, context_tokens)?;
        let cache = PrefixCache::new(usize::try_from(cache_bytes).unwrap_or(usize::MAX));
        let info = ModelInfo {
            name,
            architecture: arch,
            path: path.to_owned(),
            file_bytes,
            context_tokens,
            load_time: started.elapsed(),
        };
        Ok(Self { model: Mutex::new(Model { llama, cache }), tokenizer, template, stops, info })
    }

    /// Tokens in `text` by this model's tokenizer.
    pub fn count_tokens(&self, text: &str) -> Option<usize> {
        self.tokenizer.encode(text).ok().map(|ids| ids.len())
    }

    /// Changes the prefix cache's budget (0: none); what no longer fits is
    /// dropped.
    pub fn set_prefix_cache(&self, bytes: usize) {
        let mut model = self.lock();
        model.cache.set_budget(bytes);
        if bytes == 0 {
            model.cut(0);
        }
    }

    /// Bytes of model state the prefix cache holds now, and in how many states.
    pub fn prefix_cache_use(&self) -> (usize, usize) {
        let model = self.lock();
        (model.cache.used(), model.cache.saved_count())
    }

    /// Runs one chat request to completion, or until `cancel` is set.
    pub fn generate(&self, request: &ChatRequest, cancel: &AtomicBool) -> Result<Generation, GenerateError> {
        let prompt = self.template.render(&request.messages);
        let ids = self.tokenizer.encode(&prompt).map_err(GenerateError::Failed)?;
        let budget = request.max_tokens.max(1) as usize;
        if ids.is_empty() || ids.len() + budget > self.info.context_tokens {
            return Err(GenerateError::TooLong { prompt: ids.len(), context: self.info.context_tokens });
        }
        let started = Instant::now();
        let (mut lm, cached) = self.session(&ids);
        let logits = lm.feed(&ids[cached..]).map_err(GenerateError::Failed)?;
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
            cached_tokens: cached,
            completion_tokens: run.produced,
            prompt_time,
            generation_time: started.elapsed() - prompt_time,
        })
    }

    /// The decoding state for `prompt`, holding the model until dropped,
    /// and how many of its tokens it already holds.
    fn session(&self, prompt: &[u32]) -> (Lm<'_>, usize) {
        let mut model = self.lock();
        let kept = model.start(prompt);
        (Lm { model }, kept)
    }

    /// An empty decoding state (benchmarks: nothing reused).
    fn fresh(&self) -> Lm<'_> {
        let mut model = self.lock();
        model.cut(0);
        Lm { model }
    }

    fn lock(&self) -> MutexGuard<'_, Model> {
        self.model.lock().unwrap_or_else(|poisoned| {
            // A generation that panicked left a state nobody knows: forget it.
            let mut model = PoisonError::into_inner(poisoned);
            model.cut(0);
            model
        })
    }

    pub fn tokenizer(&self) -> &ChatTokenizer {
        &self.tokenizer
    }

    /// Benchmark: the time to process `ids` as one prompt, from nothing.
    pub fn time_prompt(&self, ids: &[u32]) -> Result<Duration, String> {
        let started = Instant::now();
        self.fresh().feed(ids)?;
        Ok(started.elapsed())
    }

    /// Benchmark: after `prompt`, the time to generate exactly `n` tokens
    /// greedily (stop tokens ignored), prompt excluded.
    pub fn time_generation(&self, prompt: &[u32], n: usize) -> Result<Duration, String> {
        let mut lm = self.fresh();
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

impl Model {
    /// Makes the context hold the longest prefix of `prompt` it can
    /// (from the live state or a saved one) and returns its length.
    fn start(&mut self, prompt: &[u32]) -> usize {
        match self.cache.plan(prompt) {
            Start::Live(keep) => {
                if self.cache.worth_saving(keep) {
                    self.stash();
                }
                self.cut(keep)
            }
            Start::Restore { index, keep } => {
                if self.cache.worth_saving(cache::common(self.cache.live(), prompt)) {
                    self.stash();
                }
                let restored = match self.cache.take(index) {
                    Some(state) => self.llama.restore(state),
                    None => false,
                };
                if restored { self.cut(keep) } else { self.cut(0) }
            }
        }
    }

    /// Saves the live state in the cache (a failure only loses the saving).
    fn stash(&mut self) {
        if let Ok(state) = self.llama.save() {
            let bytes = state.byte_len();
            self.cache.save(state, bytes);
        }
    }

    /// Keeps the live state's first `keep` tokens (all of them are dropped
    /// when the model cannot drop part); returns how many were kept.
    fn cut(&mut self, keep: usize) -> usize {
        if keep > 0 && (keep >= self.cache.live().len() || self.llama.truncate(keep)) {
            self.cache.truncate(keep);
            return self.cache.live().len();
        }
        self.llama.clear();
        self.cache.truncate(0);
        0
    }
}

/// A decoding state: the model with what its context holds.
pub struct Lm<'a> {
    model: MutexGuard<'a, Model>,
}

impl Lm<'_> {
    /// Feeds tokens after those already seen; returns the logits that follow.
    pub fn feed(&mut self, ids: &[u32]) -> Result<Vec<f32>, String> {
        let model = &mut *self.model;
        match model.llama.decode(ids, model.cache.live().len()) {
            Ok(logits) => {
                model.cache.fed(ids);
                Ok(logits)
            }
            Err(why) => {
                // What the context holds is unknown now: start afresh next time.
                model.cut(0);
                Err(why)
            }
        }
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
