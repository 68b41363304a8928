//! Tiny GGUF chat models for tests: random weights in the real tensor names,
//! shapes and quantisations of an architecture, with real metadata and a
//! byte-level BPE tokenizer (the metadata llama.cpp builds its vocabulary
//! from), so an architecture's loading and generation path runs without its
//! multi-gigabyte download. What they say is noise.

use std::path::Path;

use llama_cpp_sys_2::{GGML_TYPE_F32, GGML_TYPE_Q4_K, GGML_TYPE_Q6_K, GGML_TYPE_Q8_0};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::models::gguf::Value;
use crate::models::gguf::write::{self, Tensor};

/// Hidden width: a multiple of 256, as the k-quants' blocks need.
const HIDDEN: usize = 256;
const FFN: usize = 512;
const HEADS: usize = 4;
const KV_HEADS: usize = 2;
const HEAD_DIM: usize = HIDDEN / HEADS;
const BLOCKS: usize = 2;
pub const TRAINED_CONTEXT: u32 = 32_768;
const SEED: u64 = 0x5eed;

/// Two merges on top of the 256 byte tokens, so BPE has work to do.
const MERGES: [(&str, &str); 2] = [("Y", "E"), ("YE", "S")];

/// Each family's special tokens; the second one ends a reply.
pub fn specials(arch: &str) -> &'static [&'static str] {
    match arch {
        "gemma3" => &["<pad>", "<eos>", "<bos>", "<unk>", "<start_of_turn>", "<end_of_turn>"],
        _ => &["<|im_start|>", "<|im_end|>", "<|endoftext|>"],
    }
}

/// Writes a tiny `arch` model (`llama`, `qwen2`, `qwen3` or `gemma3`) to `path`.
pub fn write(arch: &str, path: &Path) {
    write_model(arch, arch, template(arch), path);
}

/// A tiny `arch` model whose `general.architecture` says `label`: a file
/// of an architecture the engine does not run.
pub fn write_labelled(arch: &str, label: &str, path: &Path) {
    write_model(arch, label, template(arch), path);
}

/// A tiny `arch` model with `chat_template` as its own template.
pub fn write_with_template(arch: &str, chat_template: &str, path: &Path) {
    write_model(arch, arch, chat_template, path);
}

fn write_model(arch: &str, label: &str, chat_template: &str, path: &Path) {
    let tokens = if arch == "gemma3" { pieces() } else { vocabulary(specials(arch)) };
    let vocab = tokens.len();
    // Seeded: the same weights every run, so a test that compares two
    // paths through the model (with and without the prefix cache) meets
    // the same near-ties every time, not a new draw of them.
    let mut rng = StdRng::seed_from_u64(SEED);
    let mut tensors: Vec<(String, Tensor)> = vec![
        ("token_embd.weight".into(), random(&mut rng, &[vocab, HIDDEN], GGML_TYPE_Q8_0)),
        ("output_norm.weight".into(), ones(HIDDEN)),
    ];
    // Gemma ties its output to the embeddings; the others have their own.
    if arch != "gemma3" {
        tensors.push(("output.weight".into(), random(&mut rng, &[vocab, HIDDEN], GGML_TYPE_Q6_K)));
    }
    for block in 0..BLOCKS {
        let name = |t: &str| format!("blk.{block}.{t}");
        let mut add = |t: &str, tensor: Tensor| tensors.push((name(t), tensor));
        add("attn_norm.weight", ones(HIDDEN));
        add("ffn_norm.weight", ones(HIDDEN));
        add("attn_q.weight", random(&mut rng, &[HEADS * HEAD_DIM, HIDDEN], GGML_TYPE_Q4_K));
        add("attn_k.weight", random(&mut rng, &[KV_HEADS * HEAD_DIM, HIDDEN], GGML_TYPE_Q4_K));
        add("attn_v.weight", random(&mut rng, &[KV_HEADS * HEAD_DIM, HIDDEN], GGML_TYPE_Q6_K));
        add("attn_output.weight", random(&mut rng, &[HIDDEN, HEADS * HEAD_DIM], GGML_TYPE_Q4_K));
        add("ffn_gate.weight", random(&mut rng, &[FFN, HIDDEN], GGML_TYPE_Q4_K));
        add("ffn_up.weight", random(&mut rng, &[FFN, HIDDEN], GGML_TYPE_Q4_K));
        add("ffn_down.weight", random(&mut rng, &[HIDDEN, FFN], GGML_TYPE_Q6_K));
        match arch {
            "qwen2" => {
                add("attn_q.bias", random(&mut rng, &[HEADS * HEAD_DIM], GGML_TYPE_F32));
                add("attn_k.bias", random(&mut rng, &[KV_HEADS * HEAD_DIM], GGML_TYPE_F32));
                add("attn_v.bias", random(&mut rng, &[KV_HEADS * HEAD_DIM], GGML_TYPE_F32));
            }
            "qwen3" => {
                add("attn_q_norm.weight", ones(HEAD_DIM));
                add("attn_k_norm.weight", ones(HEAD_DIM));
            }
            "gemma3" => {
                add("attn_q_norm.weight", ones(HEAD_DIM));
                add("attn_k_norm.weight", ones(HEAD_DIM));
                add("post_attention_norm.weight", ones(HIDDEN));
                add("post_ffw_norm.weight", ones(HIDDEN));
            }
            "llama" => {}
            other => panic!("no tiny model for `{other}`"),
        }
    }

    let mut metadata: Vec<(String, Value)> = vec![
        ("general.architecture".into(), Value::String(label.into())),
        ("general.name".into(), Value::String(format!("tiny-{arch}"))),
        ("tokenizer.chat_template".into(), Value::String(chat_template.into())),
    ];
    metadata.extend(tokenizer(arch, &tokens));
    let key = |k: &str| format!("{arch}.{k}");
    let mut shape = vec![
        (key("block_count"), Value::U32(BLOCKS as u32)),
        (key("context_length"), Value::U32(TRAINED_CONTEXT)),
        (key("embedding_length"), Value::U32(HIDDEN as u32)),
        (key("feed_forward_length"), Value::U32(FFN as u32)),
        (key("attention.head_count"), Value::U32(HEADS as u32)),
        (key("attention.head_count_kv"), Value::U32(KV_HEADS as u32)),
        (key("attention.key_length"), Value::U32(HEAD_DIM as u32)),
        (key("attention.value_length"), Value::U32(HEAD_DIM as u32)),
        (key("attention.layer_norm_rms_epsilon"), Value::F32(1e-6)),
        (key("rope.freq_base"), Value::F32(1_000_000.0)),
    ];
    if arch == "gemma3" {
        shape.push((key("attention.sliding_window"), Value::U32(512)));
    }
    metadata.extend(shape);

    let mut file = std::io::BufWriter::new(std::fs::File::create(path).expect("create the tiny model"));
    write::write(&mut file, &metadata, &tensors).expect("write the tiny model");
}

/// The tokenizer's metadata: byte-level BPE, or SentencePiece BPE for Gemma.
fn tokenizer(arch: &str, tokens: &[String]) -> Vec<(String, Value)> {
    let specials = specials(arch);
    let kind = |t: &String| {
        if specials.contains(&t.as_str()) {
            3
        } else if t.starts_with("<0x") {
            6
        } else {
            1
        }
    };
    let mut out = vec![
        ("tokenizer.ggml.tokens".into(), Value::Array(tokens.iter().cloned().map(Value::String).collect())),
        ("tokenizer.ggml.token_type".into(), Value::Array(tokens.iter().map(|t| Value::I32(kind(t))).collect())),
        ("tokenizer.ggml.eos_token_id".into(), Value::U32(id(tokens, specials[1]))),
    ];
    if arch == "gemma3" {
        // SentencePiece scores rank merges: longer pieces last, as trained.
        let scores = tokens.iter().enumerate().map(|(i, _)| Value::F32(-(i as f32))).collect();
        out.extend([
            ("tokenizer.ggml.model".into(), Value::String("llama".into())),
            ("tokenizer.ggml.scores".into(), Value::Array(scores)),
            ("tokenizer.ggml.add_space_prefix".into(), Value::Bool(false)),
        ]);
    } else {
        let merges = MERGES.iter().map(|(a, b)| Value::String(format!("{a} {b}"))).collect();
        // SmolLM2's split (GPT-2's, digits one by one) for llama, Qwen's for the others.
        let pre = if arch == "llama" { "smollm" } else { "qwen2" };
        out.extend([
            ("tokenizer.ggml.model".into(), Value::String("gpt2".into())),
            ("tokenizer.ggml.pre".into(), Value::String(pre.into())),
            ("tokenizer.ggml.merges".into(), Value::Array(merges)),
        ]);
    }
    out
}

/// Gemma's kind of vocabulary: special tokens, the 256 byte tokens unknown
/// characters fall back to, then pieces (`▁` is a space).
fn pieces() -> Vec<String> {
    let mut tokens: Vec<String> = specials("gemma3").iter().map(|s| s.to_string()).collect();
    tokens.extend((0..=255u8).map(|b| format!("<0x{b:02X}>")));
    let words = ["\u{2581}", "Y", "E", "S", "YE", "YES", "\u{2581}YES", "s", "i", "t", "it", "\u{2581}it"];
    tokens.extend(words.iter().map(|w| w.to_string()));
    tokens
}

/// GPT-2's byte alphabet (each byte as the printable character byte-level
/// BPE uses for it), the merged tokens, then the special tokens.
fn vocabulary(specials: &[&str]) -> Vec<String> {
    let printable = |b: u32| (33..=126).contains(&b) || (161..=172).contains(&b) || (174..=255).contains(&b);
    let mut extra = 0;
    let mut tokens: Vec<String> = (0..256u32)
        .map(|b| {
            let c = if printable(b) {
                b
            } else {
                extra += 1;
                255 + extra
            };
            char::from_u32(c).expect("a valid char").to_string()
        })
        .collect();
    tokens.extend(MERGES.iter().map(|(a, b)| format!("{a}{b}")));
    tokens.extend(specials.iter().map(|s| s.to_string()));
    tokens
}

fn id(tokens: &[String], token: &str) -> u32 {
    tokens.iter().position(|t| t == token).expect("a known token") as u32
}

/// Enough of each family's own template for the engine to recognise it.
fn template(arch: &str) -> &'static str {
    match arch {
        "qwen3" => {
            "{%- for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{%- endfor %}{%- if enable_thinking is false %}<think>\n\n</think>\n\n{%- endif %}"
        }
        "gemma3" => {
            "{{ bos_token }}{%- for m in messages %}<start_of_turn>{{ m.role }}\n{{ m.content }}<end_of_turn>\n{%- endfor %}<start_of_turn>model\n"
        }
        _ => {
            "{%- for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{%- endfor %}<|im_start|>assistant\n"
        }
    }
}

/// Uniform noise with a standard deviation of 0.05, in `shape` (outermost
/// dimension first, as the weights' matrices are written).
fn random(rng: &mut StdRng, shape: &[usize], kind: u32) -> Tensor {
    let bound = 0.05 * 3f32.sqrt();
    let values: Vec<f32> = (0..shape.iter().product()).map(|_| rng.random_range(-bound..bound)).collect();
    let dims: Vec<u64> = shape.iter().rev().map(|&d| d as u64).collect();
    if kind == GGML_TYPE_F32 { Tensor::f32(&dims, &values) } else { Tensor::quantized(&dims, kind, &values) }
}

fn ones(len: usize) -> Tensor {
    Tensor::f32(&[len as u64], &vec![1.0; len])
}
