//! The chat model's tokenizer: llama.cpp's own, the vocabulary of the
//! loaded model (byte-level BPE for SmolLM2 and Qwen, SentencePiece for
//! Gemma, each with its file's pre-tokenizer), so the ids fed are exactly
//! those llama.cpp's own tools would feed; and, for a model of a family
//! the engine has no format of its own for, the model's chat template as
//! llama.cpp applies it and the tokens that end its turn.

use std::sync::Arc;

use llama_cpp_2::model::{LlamaChatMessage, LlamaChatTemplate, LlamaModel};
use llama_cpp_2::token::LlamaToken;

use crate::core::llm::{ChatMessage, ChatRole};

/// A tokenizer and the ids generation needs.
pub struct ChatTokenizer {
    model: Arc<LlamaModel>,
    /// The model's end-of-sequence id, when it names one.
    pub eos: Option<u32>,
}

impl ChatTokenizer {
    /// The tokenizer of a loaded model.
    pub fn of(model: Arc<LlamaModel>) -> Self {
        let eos = u32::try_from(model.vocab().eos().0).ok();
        Self { model, eos }
    }

    /// Token ids for `text`; special tokens written in it (`<|im_start|>`)
    /// become their single ids, which is how chat templates are fed. No
    /// BOS is added: the templates write it where the model wants one.
    pub fn encode(&self, text: &str) -> Result<Vec<u32>, String> {
        self.model
            .vocab()
            .tokenize(text.as_bytes(), false, true)
            .into_iter()
            .map(|t| u32::try_from(t.0).map_err(|_| format!("tokenizing gave the id {}", t.0)))
            .collect()
    }

    /// Text for `ids`, with special tokens left out (a piece cut inside a
    /// character shows as U+FFFD until the rest of it comes).
    pub fn decode(&self, ids: &[u32]) -> Result<String, String> {
        let tokens = ids
            .iter()
            .map(|&id| i32::try_from(id).map(LlamaToken::new).map_err(|_| format!("no token has the id {id}")))
            .collect::<Result<Vec<_>, _>>()?;
        let bytes = self.model.vocab().detokenize(&tokens, false, false);
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// The id of one token, e.g. `<|im_end|>`: `None` when the vocabulary
    /// has no such single token.
    pub fn id(&self, token: &str) -> Option<u32> {
        match self.encode(token).ok()?.as_slice() {
            [id] => Some(*id),
            _ => None,
        }
    }

    /// The model's own chat template (its GGUF's), for `apply`.
    pub fn model_template(&self) -> Result<LlamaChatTemplate, String> {
        self.model.chat_template(None).map_err(|e| format!("it has no chat template llama.cpp can read ({e})"))
    }

    /// `messages` laid out by the model's own template as llama.cpp
    /// applies it (its built-in formats, recognised from the template's
    /// text), ending where the reply starts.
    pub fn apply(&self, template: &LlamaChatTemplate, messages: &[ChatMessage]) -> Result<String, String> {
        let chat = messages
            .iter()
            .map(|m| LlamaChatMessage::new(role(m.role).to_owned(), m.content.trim().to_owned()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("a message cannot be laid out ({e})"))?;
        self.model.apply_chat_template(template, &chat, true).map_err(|e| {
            format!(
                "its chat template is not one llama.cpp knows, nor ChatML or Gemma's, which this engine writes ({e})"
            )
        })
    }

    /// Every token that ends the model's turn (end of sequence, of turn,
    /// of text), as its vocabulary marks them.
    pub fn end_of_generation(&self) -> Vec<u32> {
        let vocab = self.model.vocab();
        (0..vocab.n_tokens())
            .filter(|&id| vocab.is_eog(LlamaToken::new(id)))
            .filter_map(|id| u32::try_from(id).ok())
            .collect()
    }
}

fn role(role: ChatRole) -> &'static str {
    match role {
        ChatRole::System => "system",
        ChatRole::User => "user",
        ChatRole::Assistant => "assistant",
    }
}
