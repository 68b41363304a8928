//! The chat model's tokenizer, rebuilt from the GGUF file's own metadata
//! (`tokenizer.ggml.*`): packaged models ship no `tokenizer.json`.
//!
//! Supports byte-level BPE ("gpt2": SmolLM2, Qwen) and SentencePiece BPE
//! ("llama": Gemma); anything else is refused with a message naming the
//! tokenizer, never guessed at.

use candle_core::quantized::gguf_file::{Content, Value};
use tokenizers::SplitDelimiterBehavior;
use tokenizers::decoders::DecoderWrapper;
use tokenizers::decoders::byte_fallback::ByteFallback;
use tokenizers::decoders::fuse::Fuse;
use tokenizers::decoders::sequence::Sequence as DecoderSequence;
use tokenizers::decoders::strip::Strip;
use tokenizers::models::bpe::{BPE, Vocab};
use tokenizers::normalizers::{NormalizerWrapper, Prepend, Replace, Sequence as NormalizerSequence};
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::digits::Digits;
use tokenizers::pre_tokenizers::sequence::Sequence;
use tokenizers::pre_tokenizers::split::{Split, SplitPattern};
use tokenizers::{AddedToken, Tokenizer};

/// GGUF token types (llama.cpp's `llama_token_type`) that are special:
/// control tokens and user-defined ones.
const CONTROL: i32 = 3;
const USER_DEFINED: i32 = 4;
const NORMAL: i32 = 1;

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
        let tokens = strings(content, "tokenizer.ggml.tokens")?;
        let types = token_types(content, tokens.len());
        let mut inner = match model {
            "gpt2" => byte_level(content, &tokens)?,
            "llama" => sentencepiece(content, &tokens, &types)?,
            other => {
                return Err(format!(
                    "its tokenizer is `{other}`; supported are byte-level BPE (`gpt2`) and SentencePiece BPE (`llama`)"
                ));
            }
        };
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

/// Byte-level BPE: the file's merges, its pre-tokenizer, bytes as characters.
fn byte_level(content: &Content, tokens: &[String]) -> Result<Tokenizer, String> {
    let merges = strings(content, "tokenizer.ggml.merges")?;
    let vocab: Vocab = tokens.iter().enumerate().map(|(id, t)| (t.clone(), id as u32)).collect();
    let merges: Vec<(String, String)> =
        merges.iter().filter_map(|m| m.split_once(' ').map(|(a, b)| (a.to_owned(), b.to_owned()))).collect();
    let bpe = BPE::builder()
        .vocab_and_merges(vocab, merges)
        .build()
        .map_err(|e| format!("its tokenizer metadata is invalid: {e}"))?;
    let mut inner = Tokenizer::new(bpe);
    let pre = match content.metadata.get("tokenizer.ggml.pre") {
        Some(Value::String(pre)) => pre.as_str(),
        _ => "",
    };
    inner.with_pre_tokenizer(Some(pre_tokenizer(pre)?));
    inner.with_decoder(Some(ByteLevel::default()));
    Ok(inner)
}

/// SentencePiece BPE (Gemma's, Llama 2's): spaces are `▁`, unknown
/// characters fall back to `<0xNN>` byte tokens, and the merges the file
/// does not list are those of its pieces, a piece's score ranking its merge
/// (as SentencePiece merges: the best-scoring pair first).
fn sentencepiece(content: &Content, tokens: &[String], types: &[i32]) -> Result<Tokenizer, String> {
    let scores: Vec<f32> = match content.metadata.get("tokenizer.ggml.scores") {
        Some(Value::Array(values)) => values.iter().map(|v| v.to_f32().unwrap_or(0.0)).collect(),
        _ => return Err("it has no `tokenizer.ggml.scores` metadata".to_owned()),
    };
    let ids: std::collections::HashMap<&str, u32> =
        tokens.iter().enumerate().map(|(id, t)| (t.as_str(), id as u32)).collect();
    let mut ranked: Vec<(f32, u32, (String, String))> = Vec::new();
    for (id, piece) in tokens.iter().enumerate() {
        if types.get(id).copied().unwrap_or(NORMAL) != NORMAL {
            continue;
        }
        let score = scores.get(id).copied().unwrap_or(0.0);
        for (at, _) in piece.char_indices().skip(1) {
            let (left, right) = piece.split_at(at);
            if ids.contains_key(left) && ids.contains_key(right) {
                ranked.push((score, id as u32, (left.to_owned(), right.to_owned())));
            }
        }
    }
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let merges: Vec<(String, String)> = ranked.into_iter().map(|(_, _, pair)| pair).collect();
    let vocab: Vocab = tokens.iter().enumerate().map(|(id, t)| (t.clone(), id as u32)).collect();
    let unk = content.metadata.get("tokenizer.ggml.unknown_token_id").and_then(|v| v.to_u32().ok());
    let mut builder = BPE::builder().vocab_and_merges(vocab, merges).byte_fallback(true).fuse_unk(true);
    if let Some(unk) = unk.and_then(|id| tokens.get(id as usize)) {
        builder = builder.unk_token(unk.clone());
    }
    let bpe = builder.build().map_err(|e| format!("its tokenizer metadata is invalid: {e}"))?;
    let mut inner = Tokenizer::new(bpe);
    let to_meta = Replace::new(" ", "\u{2581}").map_err(|e| e.to_string())?;
    let prefix = matches!(content.metadata.get("tokenizer.ggml.add_space_prefix"), Some(Value::Bool(true)));
    let normalizer: NormalizerWrapper = if prefix {
        NormalizerSequence::new(vec![Prepend::new("\u{2581}".to_owned()).into(), to_meta.into()]).into()
    } else {
        to_meta.into()
    };
    inner.with_normalizer(Some(normalizer));
    let from_meta = Replace::new("\u{2581}", " ").map_err(|e| e.to_string())?;
    let mut decoders: Vec<DecoderWrapper> = vec![from_meta.into(), ByteFallback::new().into(), Fuse::new().into()];
    if prefix {
        decoders.push(Strip::new(' ', 1, 0).into());
    }
    inner.with_decoder(Some(DecoderSequence::new(decoders)));
    Ok(inner)
}

/// How text is split into words before BPE, as `tokenizer.ggml.pre` names
/// it: Qwen's own split, else GPT-2's with each digit on its own (SmolLM2's).
fn pre_tokenizer(pre: &str) -> Result<Sequence, String> {
    const QWEN2: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
    Ok(match pre {
        "qwen2" => {
            let split = Split::new(SplitPattern::Regex(QWEN2.to_owned()), SplitDelimiterBehavior::Isolated, false)
                .map_err(|e| format!("its tokenizer's split pattern failed to build: {e}"))?;
            Sequence::new(vec![split.into(), ByteLevel::new(false, false, false).into()])
        }
        _ => Sequence::new(vec![Digits::new(true).into(), ByteLevel::new(false, true, true).into()]),
    })
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
