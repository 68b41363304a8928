//! The chat model's tokenizer, rebuilt from the GGUF file's own metadata
//! (`tokenizer.ggml.*`): packaged models ship no `tokenizer.json`.
//!
//! Supports the byte-level BPE family ("gpt2" model) that SmolLM2 and most
//! small llama-architecture models use; anything else is refused with a
//! message naming the tokenizer, never guessed at.

use candle_core::quantized::gguf_file::{Content, Value};
use tokenizers::models::bpe::{BPE, Vocab};
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::digits::Digits;
use tokenizers::pre_tokenizers::sequence::Sequence;
use tokenizers::{AddedToken, Tokenizer};

/// GGUF token types (llama.cpp's `llama_token_type`) that are special:
/// control tokens and user-defined ones.
const CONTROL: i32 = 3;
const USER_DEFINED: i32 = 4;

/// A tokenizer and the ids generation needs.
pub struct ChatTokenizer {
    inner: Tokenizer,
    /// The GGUF's end-of-sequence id, when it names one.
    pub eos: Option<u32>,
}

impl ChatTokenizer {
    /// Builds the tokenizer from GGUF metadata.
    pub fn from_gguf(content: &Content) -> Result<Self, String> {
        let model = string(content, "tokenizer.ggml.model")?;
        if model != "gpt2" {
            return Err(format!(
                "its tokenizer is `{model}`; only byte-level BPE (`gpt2`) GGUF tokenizers are supported"
            ));
        }
        let tokens = strings(content, "tokenizer.ggml.tokens")?;
        let merges = strings(content, "tokenizer.ggml.merges")?;
        let types = token_types(content, tokens.len());
        let vocab: Vocab = tokens.iter().enumerate().map(|(id, t)| (t.clone(), id as u32)).collect();
        let merges: Vec<(String, String)> =
            merges.iter().filter_map(|m| m.split_once(' ').map(|(a, b)| (a.to_owned(), b.to_owned()))).collect();
        let bpe = BPE::builder()
            .vocab_and_merges(vocab, merges)
            .build()
            .map_err(|e| format!("its tokenizer metadata is invalid: {e}"))?;
        let mut inner = Tokenizer::new(bpe);
        let digits_then_bytes = Sequence::new(vec![Digits::new(true).into(), ByteLevel::new(false, true, true).into()]);
        inner.with_pre_tokenizer(Some(digits_then_bytes));
        inner.with_decoder(Some(ByteLevel::default()));
        let specials: Vec<AddedToken> = tokens
            .iter()
            .zip(&types)
            .filter(|(_, ty)| matches!(**ty, CONTROL | USER_DEFINED))
            .map(|(t, _)| AddedToken::from(t.clone(), true))
            .collect();
        inner.add_special_tokens(&specials);
        let eos = content.metadata.get("tokenizer.ggml.eos_token_id").and_then(|v| v.to_u32().ok());
        Ok(Self { inner, eos })
    }

    /// Token ids for `text`; special tokens written in it (`<|im_start|>`)
    /// become their single ids, which is how chat templates are fed.
    pub fn encode(&self, text: &str) -> Result<Vec<u32>, String> {
        self.inner.encode(text, false).map(|e| e.get_ids().to_vec()).map_err(|e| format!("tokenizing failed: {e}"))
    }

    /// Text for `ids`, with special tokens left out.
    pub fn decode(&self, ids: &[u32]) -> Result<String, String> {
        self.inner.decode(ids, true).map_err(|e| format!("decoding failed: {e}"))
    }

    /// The id of one token, e.g. `<|im_end|>`.
    pub fn id(&self, token: &str) -> Option<u32> {
        self.inner.token_to_id(token)
    }

    pub fn vocab_size(&self) -> usize {
        self.inner.get_vocab_size(true)
    }
}

fn string<'a>(content: &'a Content, key: &str) -> Result<&'a str, String> {
    match content.metadata.get(key) {
        Some(Value::String(s)) => Ok(s),
        _ => Err(format!("it has no `{key}` metadata")),
    }
}

fn strings(content: &Content, key: &str) -> Result<Vec<String>, String> {
    let Some(Value::Array(values)) = content.metadata.get(key) else {
        return Err(format!("it has no `{key}` metadata"));
    };
    values.iter().map(|v| v.to_string().cloned().map_err(|_| format!("`{key}` holds a non-string"))).collect()
}

/// Token types, or all-normal when the file has none.
fn token_types(content: &Content, count: usize) -> Vec<i32> {
    match content.metadata.get("tokenizer.ggml.token_type") {
        Some(Value::Array(values)) => values.iter().map(|v| v.to_i32().unwrap_or(1)).collect(),
        _ => vec![1; count],
    }
}
