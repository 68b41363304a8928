//! Writes GGUF files, for tests: the tiny chat models
//! (`llm::local::tiny`), foreign and broken files. Version 3, tensors
//! aligned at 32 bytes; quantised tensors are made by ggml's own
//! quantisers (`ggml_quantize_chunk`), as llama.cpp's tools make them.

use std::io::Write;

use super::{DEFAULT_ALIGNMENT, Value};

/// A tensor to write: its shape (innermost first), ggml type and bytes.
#[derive(Debug, Clone)]
pub struct Tensor {
    pub dims: Vec<u64>,
    pub kind: u32,
    pub data: Vec<u8>,
}

impl Tensor {
    /// An f32 tensor of `values`.
    pub fn f32(dims: &[u64], values: &[f32]) -> Tensor {
        assert_eq!(dims.iter().product::<u64>(), values.len() as u64, "shape and values differ");
        let data = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        Tensor { dims: dims.to_vec(), kind: llama_cpp_sys_2::GGML_TYPE_F32, data }
    }

    /// `values` quantised to ggml type `kind`, row by row (a row is the
    /// innermost dimension, whole blocks of the type).
    pub fn quantized(dims: &[u64], kind: u32, values: &[f32]) -> Tensor {
        assert_eq!(dims.iter().product::<u64>(), values.len() as u64, "shape and values differ");
        let per_row = dims[0] as i64;
        let rows = (values.len() as i64) / per_row;
        // SAFETY: a table lookup for a type the caller names.
        let row_bytes = unsafe { llama_cpp_sys_2::ggml_row_size(kind, per_row) };
        let mut data = vec![0u8; row_bytes * rows as usize];
        // SAFETY: `values` holds `rows * per_row` floats and `data` the
        // bytes ggml says those rows take in `kind`; no importance matrix
        // (the types used here need none).
        let written = unsafe {
            llama_cpp_sys_2::ggml_quantize_chunk(
                kind,
                values.as_ptr(),
                data.as_mut_ptr().cast(),
                0,
                rows,
                per_row,
                std::ptr::null(),
            )
        };
        assert_eq!(written, data.len(), "ggml quantised a different size");
        Tensor { dims: dims.to_vec(), kind, data }
    }
}

/// Writes a GGUF file of `metadata` and `tensors`, in their order.
pub fn write(
    out: &mut impl Write,
    metadata: &[(impl AsRef<str>, Value)],
    tensors: &[(impl AsRef<str>, Tensor)],
) -> std::io::Result<()> {
    let mut header = Vec::new();
    header.extend_from_slice(&super::MAGIC);
    header.extend_from_slice(&3u32.to_le_bytes());
    header.extend_from_slice(&(tensors.len() as u64).to_le_bytes());
    header.extend_from_slice(&(metadata.len() as u64).to_le_bytes());
    for (key, value) in metadata {
        string(&mut header, key.as_ref());
        header.extend_from_slice(&value.kind().to_le_bytes());
        put(&mut header, value);
    }
    let mut offset = 0u64;
    for (name, tensor) in tensors {
        string(&mut header, name.as_ref());
        header.extend_from_slice(&(tensor.dims.len() as u32).to_le_bytes());
        for d in &tensor.dims {
            header.extend_from_slice(&d.to_le_bytes());
        }
        header.extend_from_slice(&tensor.kind.to_le_bytes());
        header.extend_from_slice(&offset.to_le_bytes());
        offset = (offset + tensor.data.len() as u64).next_multiple_of(DEFAULT_ALIGNMENT);
    }
    pad(&mut header);
    out.write_all(&header)?;
    for (_, tensor) in tensors {
        let mut data = tensor.data.clone();
        pad(&mut data);
        out.write_all(&data)?;
    }
    Ok(())
}

fn pad(bytes: &mut Vec<u8>) {
    let len = (bytes.len() as u64).next_multiple_of(DEFAULT_ALIGNMENT) as usize;
    bytes.resize(len, 0);
}

fn string(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u64).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

fn put(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::U8(v) => out.push(*v),
        Value::I8(v) => out.extend_from_slice(&v.to_le_bytes()),
        Value::U16(v) => out.extend_from_slice(&v.to_le_bytes()),
        Value::I16(v) => out.extend_from_slice(&v.to_le_bytes()),
        Value::U32(v) => out.extend_from_slice(&v.to_le_bytes()),
        Value::I32(v) => out.extend_from_slice(&v.to_le_bytes()),
        Value::F32(v) => out.extend_from_slice(&v.to_le_bytes()),
        Value::Bool(v) => out.push(u8::from(*v)),
        Value::String(s) => string(out, s),
        Value::Array(items) => {
            // An array's items share one type: the first's (u8 when empty).
            let kind = items.first().map_or(0, Value::kind);
            out.extend_from_slice(&kind.to_le_bytes());
            out.extend_from_slice(&(items.len() as u64).to_le_bytes());
            for item in items {
                put(out, item);
            }
        }
        Value::U64(v) => out.extend_from_slice(&v.to_le_bytes()),
        Value::I64(v) => out.extend_from_slice(&v.to_le_bytes()),
        Value::F64(v) => out.extend_from_slice(&v.to_le_bytes()),
    }
}
