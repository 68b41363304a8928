//! One generation's decoding state: llama.cpp's context with the prefix
//! cache that says what it holds (`Model`), the model held for one
//! generation (`Lm`), and a generation in progress with its budget
//! (`Run`), which free sampling and structured output (`structured`) both
//! drive. The engine (`engine`) makes them; neither side names the other.

use std::sync::MutexGuard;
use std::sync::atomic::{AtomicBool, Ordering};

use llama_cpp_2::context::session::SeqState;

use super::cache::{self, PrefixCache, Start};
use super::llama::Llama;
use super::sampler::Sampler;
use super::tokenizer::ChatTokenizer;

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

/// llama.cpp's context and the prefix cache that says what it holds.
pub(super) struct Model {
    pub(super) llama: Llama,
    pub(super) cache: PrefixCache<SeqState>,
}

impl Model {
    /// Makes the context hold the longest prefix of `prompt` it can
    /// (from the live state or a saved one) and returns its length.
    pub(super) fn start(&mut self, prompt: &[u32]) -> usize {
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
    pub(super) fn cut(&mut self, keep: usize) -> usize {
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
    pub(super) model: MutexGuard<'a, Model>,
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
    pub(super) cancel: &'a AtomicBool,
    /// Tokens produced so far (forced ones included).
    pub produced: usize,
    pub(super) budget: usize,
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
