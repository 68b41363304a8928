//! The in-process model: a GGUF file checked and described from its
//! metadata, run by llama.cpp (`super::llama`) with its own tokenizer, the
//! chat template, the prefix cache (`super::cache`) and the blocking
//! generation loop.
//!
//! Everything here blocks the calling thread; `super::LocalClient` runs it
//! on tokio's blocking pool. Errors are plain strings for the caller to
//! wrap: loading errors say what is wrong with the file, never panic.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::arch::{self, MAX_CONTEXT};
use super::cache::PrefixCache;
use super::llama::Llama;
pub use super::run::GenerateError;
use super::run::{Lm, Model, Run};
use super::sampler::Sampler;
use super::structured::{self, Shape};
use super::template::ChatTemplate;
use super::tokenizer::ChatTokenizer;
use crate::core::llm::{ChatMessage, ChatRequest};
pub use crate::models::gguf::verify_gguf;
use crate::models::gguf::{self, meta_string};
use llama_cpp_2::model::LlamaChatTemplate;

pub use crate::models::DEFAULT_PREFIX_CACHE_MB;

/// What a loaded model is, for notices and benchmarks.
#[derive(Debug, Clone)]
pub struct ModelInfo {
    /// The GGUF's `general.name`, or the file stem.
    pub name: String,
    /// Its `general.architecture` (`llama`, `qwen2`, `qwen3`, `gemma3`: the
    /// families tested here; any other llama.cpp loads).
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
    format: Format,
    stops: Vec<u32>,
    pub info: ModelInfo,
}

/// How a conversation becomes the prompt: one of the formats written here
/// for the families tested (`super::template`: ChatML, Qwen3's, Gemma's),
/// recognised from the file's own template; else the model's own template
/// as llama.cpp applies it (its built-in formats: Llama 3, Mistral, Phi,
/// DeepSeek, …), ended by the tokens its vocabulary marks as ending a turn.
enum Format {
    Written(ChatTemplate),
    Model(LlamaChatTemplate),
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
        let (header, file_bytes) = gguf::read_complete(path)?;
        let arch = meta_string(&header, "general.architecture").unwrap_or_default();
        let written = match meta_string(&header, "tokenizer.chat_template") {
            // A Gemma file without a template (a base model) still knows Gemma's turns.
            None if arch == "gemma3" => Some(ChatTemplate::Gemma),
            template => ChatTemplate::from_gguf(template.as_deref()).ok(),
        };
        let name = meta_string(&header, "general.name")
            .unwrap_or_else(|| path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default());
        let context_tokens = arch::trained_context(&header, &arch).map_or(MAX_CONTEXT, |n| n.min(MAX_CONTEXT));
        drop(header);
        let llama = Llama::load(path, context_tokens).map_err(|why| {
            if arch::SUPPORTED.contains(&arch.as_str()) {
                why
            } else {
                format!(
                    "its architecture is `{arch}` and {why}; the ones tested here are {}",
                    arch::SUPPORTED.map(|a| format!("`{a}`")).join(", ")
                )
            }
        })?;
        let tokenizer = ChatTokenizer::of(llama.model());
        let (format, stops) = match written {
            Some(template) => (Format::Written(template), template.stop_ids(&tokenizer)),
            None => {
                let own = tokenizer.model_template()?;
                // Refused now, not at the first turn, when llama.cpp does not know it.
                tokenizer.apply(&own, &[ChatMessage::system("rules"), ChatMessage::user("a question")])?;
                (Format::Model(own), tokenizer.end_of_generation())
            }
        };
        let cache = PrefixCache::new(usize::try_from(cache_bytes).unwrap_or(usize::MAX));
        let info = ModelInfo {
            name,
            architecture: arch,
            path: path.to_owned(),
            file_bytes,
            context_tokens,
            load_time: started.elapsed(),
        };
        Ok(Self { model: Mutex::new(Model { llama, cache }), tokenizer, format, stops, info })
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
        let prompt = self.prompt(&request.messages).map_err(GenerateError::Failed)?;
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

    /// The prompt text a request becomes.
    pub fn render(&self, request: &ChatRequest) -> Result<String, String> {
        self.prompt(&request.messages)
    }

    fn prompt(&self, messages: &[ChatMessage]) -> Result<String, String> {
        match &self.format {
            Format::Written(template) => Ok(template.render(messages)),
            Format::Model(own) => self.tokenizer.apply(own, messages),
        }
    }
}
