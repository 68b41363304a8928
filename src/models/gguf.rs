//! A GGUF file's header, read without loading its weights: the check that
//! every tensor's bytes are really in the file (a truncated download keeps
//! a valid header), its metadata strings, and `verify_gguf`, what `echoes
//! models fetch` runs on a file before keeping it and the in-process chat
//! model on a file before llama.cpp loads it.

use std::fs::File;
use std::path::Path;

use candle_core::quantized::gguf_file::{Content, Value};

/// The header of the GGUF file at `path`, checked complete, and the file's
/// size in bytes.
pub fn read_complete(path: &Path) -> Result<(Content, u64), String> {
    let mut file = File::open(path).map_err(|e| format!("cannot open it: {e}"))?;
    let file_bytes = file.metadata().map(|m| m.len()).unwrap_or(0);
    let content = Content::read(&mut file).map_err(|e| format!("it is not a valid GGUF file ({e})"))?;
    check_complete(&content, file_bytes)?;
    Ok((content, file_bytes))
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

pub fn meta_string(content: &Content, key: &str) -> Option<String> {
    match content.metadata.get(key) {
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    }
}

/// Reads only the header of a GGUF file and checks it is complete: what
/// `echoes models fetch` verifies without loading the weights.
pub fn verify_gguf(path: &Path) -> Result<String, String> {
    let (content, _) = read_complete(path)?;
    Ok(meta_string(&content, "general.name").unwrap_or_else(|| "unnamed".to_owned()))
}
