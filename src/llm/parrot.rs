//! `ParrotLlm`: replies with its whole prompt, every message's content joined
//! by newlines. It is the worst possible model for secrecy, so secrecy tests
//! use it to prove that whatever a role is shown can never reach players
//! through that role's output unchecked.

use async_trait::async_trait;

use crate::core::llm::{ChatRequest, ChatResponse, LlmClient, LlmError};

/// A model that repeats everything it was told.
#[derive(Debug, Clone, Copy, Default)]
pub struct ParrotLlm;

#[async_trait]
impl LlmClient for ParrotLlm {
    fn describe(&self) -> String {
        "parrot".to_owned()
    }

    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError> {
        let contents: Vec<&str> = request.messages.iter().map(|m| m.content.as_str()).collect();
        Ok(ChatResponse { text: contents.join("\n"), ..ChatResponse::default() })
    }

    async fn health(&self) -> Result<(), LlmError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests;
