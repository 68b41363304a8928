//! The chat model's tokenizer: llama.cpp's own, the vocabulary of the
//! loaded model (byte-level BPE for SmolLM2 and Qwen, SentencePiece for
//! Gemma, each with its file's pre-tokenizer), so the ids fed are exactly
//! those llama.cpp's own tools would feed.

use std::sync::Arc;

use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::token::LlamaToken;

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
}
