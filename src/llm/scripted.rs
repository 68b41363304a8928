//! `ScriptedLlm`: a hand-written test double (and demo model) that replays
//! canned replies in order and records every request it receives.
//!
//! By default it fails with `LlmError::Config` once the script runs out, so a
//! test that makes more calls than it scripted fails loudly instead of
//! silently reusing replies. `cycling()` replays the script forever instead,
//! which is what the `scripted` provider in config uses for demos.

use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use async_trait::async_trait;

use crate::core::llm::{ChatRequest, ChatResponse, LlmClient, LlmError};

/// One scripted outcome of a `chat` call.
#[derive(Debug, Clone, PartialEq)]
pub enum ScriptedReply {
    Text(String),
    Error(LlmError),
    /// Waits, then behaves like the inner reply; lets callers test their
    /// own deadlines.
    Delay(Duration, Box<ScriptedReply>),
}

impl ScriptedReply {
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(text.into())
    }

    pub fn delayed(delay: Duration, then: ScriptedReply) -> Self {
        Self::Delay(delay, Box::new(then))
    }
}

impl From<&str> for ScriptedReply {
    fn from(text: &str) -> Self {
        Self::text(text)
    }
}

impl From<String> for ScriptedReply {
    fn from(text: String) -> Self {
        Self::Text(text)
    }
}

#[derive(Debug, Default)]
struct Log {
    served: usize,
    requests: Vec<ChatRequest>,
}

/// Replays a script of replies; see the module docs for what happens when
/// it runs out.
#[derive(Debug)]
pub struct ScriptedLlm {
    script: Vec<ScriptedReply>,
    cycle: bool,
    log: Mutex<Log>,
}

impl ScriptedLlm {
    /// A script that fails once every reply has been served.
    pub fn new(script: impl IntoIterator<Item = ScriptedReply>) -> Self {
        Self { script: script.into_iter().collect(), cycle: false, log: Mutex::default() }
    }

    /// A script of plain text replies.
    pub fn from_texts<S: Into<String>>(texts: impl IntoIterator<Item = S>) -> Self {
        Self::new(texts.into_iter().map(|text| ScriptedReply::Text(text.into())))
    }

    /// Replays the script from the start once it runs out.
    pub fn cycling(mut self) -> Self {
        self.cycle = true;
        self
    }

    /// Every request received so far, oldest first.
    pub fn requests(&self) -> Vec<ChatRequest> {
        self.lock().requests.clone()
    }

    /// A test double must keep working after a panicking test thread, so a
    /// poisoned lock is simply taken over.
    fn lock(&self) -> MutexGuard<'_, Log> {
        self.log.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records the request and picks the reply for it.
    fn next_reply(&self, request: ChatRequest) -> Result<ScriptedReply, LlmError> {
        let mut log = self.lock();
        log.requests.push(request);
        // `checked_rem` is `None` for an empty script, which then fails
        // like an exhausted one instead of dividing by zero.
        let index = if self.cycle { log.served.checked_rem(self.script.len()) } else { Some(log.served) };
        log.served += 1;
        index.and_then(|index| self.script.get(index).cloned()).ok_or_else(|| self.exhausted(log.served))
    }

    fn exhausted(&self, calls: usize) -> LlmError {
        LlmError::Config(format!("scripted model has {} replies but was called {calls} times", self.script.len()))
    }
}

/// Unwinds `Delay`s iteratively, sleeping for each.
async fn play(mut reply: ScriptedReply) -> Result<ChatResponse, LlmError> {
    loop {
        match reply {
            ScriptedReply::Text(text) => {
                return Ok(ChatResponse { text, ..ChatResponse::default() });
            }
            ScriptedReply::Error(error) => return Err(error),
            ScriptedReply::Delay(delay, then) => {
                tokio::time::sleep(delay).await;
                reply = *then;
            }
        }
    }
}

#[async_trait]
impl LlmClient for ScriptedLlm {
    fn describe(&self) -> String {
        "scripted".to_owned()
    }

    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError> {
        play(self.next_reply(request)?).await
    }

    async fn health(&self) -> Result<(), LlmError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests;
