//! A GGUF file's header, read without loading its weights: its metadata
//! and tensor table (`Header`), the check that every tensor's bytes are
//! really in the file (a truncated download keeps a valid header), and
//! `verify_gguf`, what `echoes models fetch` runs on a file before keeping
//! it and the in-process chat model on a file before llama.cpp loads it.
//!
//! The header is read here, in Rust, so a corrupt file is an error message
//! and never an abort inside C; tensor sizes come from ggml's own type
//! table (`ggml_blck_size`, `ggml_type_size`), the one llama.cpp loads by.
//! GGUF versions 2 and 3 (every file llama.cpp has written since 2023).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

#[cfg(test)]
pub(crate) mod write;

/// The four bytes every GGUF file starts with.
const MAGIC: [u8; 4] = *b"GGUF";
/// Where tensor data is aligned when `general.alignment` says nothing.
const DEFAULT_ALIGNMENT: u64 = 32;
/// A corrupt header's lengths are refused before anything is allocated
/// for them: no real string (a chat template) comes near this ...
const MAX_STRING: u64 = 64 << 20;
/// ... nor array (a vocabulary, its merges), nor count of tensors or keys.
const MAX_ITEMS: u64 = 16 << 20;
/// ggml tensors have at most four dimensions.
const MAX_DIMS: u32 = 4;

/// One metadata value, as GGUF types it.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    U8(u8),
    I8(i8),
    U16(u16),
    I16(i16),
    U32(u32),
    I32(i32),
    F32(f32),
    Bool(bool),
    String(String),
    Array(Vec<Value>),
    U64(u64),
    I64(i64),
    F64(f64),
}

impl Value {
    /// GGUF's number for this value's type.
    pub fn kind(&self) -> u32 {
        match self {
            Value::U8(_) => 0,
            Value::I8(_) => 1,
            Value::U16(_) => 2,
            Value::I16(_) => 3,
            Value::U32(_) => 4,
            Value::I32(_) => 5,
            Value::F32(_) => 6,
            Value::Bool(_) => 7,
            Value::String(_) => 8,
            Value::Array(_) => 9,
            Value::U64(_) => 10,
            Value::I64(_) => 11,
            Value::F64(_) => 12,
        }
    }

    /// An integer value of any width, when it is a non-negative one.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Value::U8(v) => Some(v.into()),
            Value::U16(v) => Some(v.into()),
            Value::U32(v) => Some(v.into()),
            Value::U64(v) => Some(v),
            Value::I8(v) => u64::try_from(v).ok(),
            Value::I16(v) => u64::try_from(v).ok(),
            Value::I32(v) => u64::try_from(v).ok(),
            Value::I64(v) => u64::try_from(v).ok(),
            _ => None,
        }
    }
}

/// One tensor's entry in the table: where its bytes are, not the bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorInfo {
    pub name: String,
    /// Its shape, innermost dimension first (ggml's `ne`).
    pub dims: Vec<u64>,
    /// Its ggml type (`GGML_TYPE_*`).
    pub kind: u32,
    /// Where its bytes start, from `Header::data_offset`.
    pub offset: u64,
}

/// A GGUF file's header.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    pub version: u32,
    pub metadata: BTreeMap<String, Value>,
    pub tensors: Vec<TensorInfo>,
    /// Where the tensor data starts in the file.
    pub data_offset: u64,
}

impl Header {
    /// Reads the header from the start of a GGUF file.
    pub fn read(input: &mut impl Read) -> Result<Header, String> {
        let mut r = Reader { input, at: 0 };
        if r.array::<4>()? != MAGIC {
            return Err("it does not start with GGUF's magic bytes".to_owned());
        }
        let version = r.u32()?;
        if !(2..=3).contains(&version) {
            return Err(format!("its GGUF version is {version}; versions 2 and 3 are read"));
        }
        let tensor_count = r.count()?;
        let key_count = r.count()?;
        let mut metadata = BTreeMap::new();
        for _ in 0..key_count {
            let key = r.string()?;
            let kind = r.u32()?;
            let value = r.value(kind, true)?;
            metadata.insert(key, value);
        }
        let mut tensors = Vec::with_capacity(tensor_count.min(4096) as usize);
        for _ in 0..tensor_count {
            let name = r.string()?;
            let n_dims = r.u32()?;
            if n_dims == 0 || n_dims > MAX_DIMS {
                return Err(format!("tensor `{name}` has {n_dims} dimensions"));
            }
            let dims = (0..n_dims).map(|_| r.u64()).collect::<Result<Vec<u64>, String>>()?;
            let kind = r.u32()?;
            let offset = r.u64()?;
            tensors.push(TensorInfo { name, dims, kind, offset });
        }
        let alignment = match metadata.get("general.alignment") {
            None => DEFAULT_ALIGNMENT,
            Some(value) => value
                .as_u64()
                .filter(|a| a.is_power_of_two())
                .ok_or_else(|| "its `general.alignment` is not a power of two".to_owned())?,
        };
        let data_offset = r.at.next_multiple_of(alignment);
        Ok(Header { version, metadata, tensors, data_offset })
    }

    /// A metadata string.
    pub fn string(&self, key: &str) -> Option<&str> {
        match self.metadata.get(key) {
            Some(Value::String(s)) => Some(s),
            _ => None,
        }
    }

    /// A metadata integer (of any width), when it is a non-negative one.
    pub fn unsigned(&self, key: &str) -> Option<u64> {
        self.metadata.get(key).and_then(Value::as_u64)
    }

    /// The bytes the tensor data needs from the start of the file: past
    /// the end of the file, the file is truncated.
    pub fn bytes_needed(&self) -> Result<u64, String> {
        let mut needed = self.data_offset;
        for info in &self.tensors {
            let bytes = tensor_bytes(info)?;
            let end = self.data_offset.checked_add(info.offset).and_then(|at| at.checked_add(bytes));
            needed = needed.max(end.ok_or_else(|| format!("tensor `{}` lies past any file's end", info.name))?);
        }
        Ok(needed)
    }
}

/// The bytes of one tensor, by ggml's type table: each row (the innermost
/// dimension) is whole blocks of its type.
pub fn tensor_bytes(info: &TensorInfo) -> Result<u64, String> {
    let invalid = || format!("tensor `{}` has an invalid shape or type", info.name);
    let (block, block_bytes) = ggml_type(info.kind).ok_or_else(invalid)?;
    let (&row, outer) = info.dims.split_first().ok_or_else(invalid)?;
    if row % block != 0 {
        return Err(invalid());
    }
    let rows = outer.iter().try_fold(1u64, |n, d| n.checked_mul(*d)).ok_or_else(invalid)?;
    (row / block).checked_mul(block_bytes).and_then(|b| b.checked_mul(rows)).ok_or_else(invalid)
}

/// A ggml type's block (values) and its size in bytes; `None` for a type
/// this build of ggml does not have, or one it retired.
fn ggml_type(kind: u32) -> Option<(u64, u64)> {
    if kind >= llama_cpp_sys_2::GGML_TYPE_COUNT {
        return None;
    }
    // SAFETY: both read ggml's static type table at an index checked
    // above to be in it; neither keeps or writes anything.
    let (block, bytes) = unsafe { (llama_cpp_sys_2::ggml_blck_size(kind), llama_cpp_sys_2::ggml_type_size(kind)) };
    let block = u64::try_from(block).ok().filter(|b| *b > 0)?;
    let bytes = u64::try_from(bytes).ok().filter(|b| *b > 0)?;
    Some((block, bytes))
}

/// Reads GGUF's little-endian fields, counting the bytes read.
struct Reader<'a, R: Read> {
    input: &'a mut R,
    at: u64,
}

impl<R: Read> Reader<'_, R> {
    fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut buf = [0u8; N];
        self.input.read_exact(&mut buf).map_err(|e| short(&e))?;
        self.at += N as u64;
        Ok(buf)
    }

    fn u32(&mut self) -> Result<u32, String> {
        self.array().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Result<u64, String> {
        self.array().map(u64::from_le_bytes)
    }

    /// A count of items, bounded.
    fn count(&mut self) -> Result<u64, String> {
        let n = self.u64()?;
        if n > MAX_ITEMS {
            return Err(format!("its header counts {n} items, more than any model has"));
        }
        Ok(n)
    }

    fn string(&mut self) -> Result<String, String> {
        let len = self.u64()?;
        if len > MAX_STRING {
            return Err(format!("its header holds a string of {len} bytes"));
        }
        let mut bytes = Vec::with_capacity(len as usize);
        self.input.by_ref().take(len).read_to_end(&mut bytes).map_err(|e| short(&e))?;
        if bytes.len() as u64 != len {
            return Err("its header ends early".to_owned());
        }
        self.at += len;
        String::from_utf8(bytes).map_err(|_| "its header holds a string that is not UTF-8".to_owned())
    }

    /// A value of GGUF type `kind`; arrays of arrays only when `nested`.
    fn value(&mut self, kind: u32, nested: bool) -> Result<Value, String> {
        Ok(match kind {
            0 => Value::U8(u8::from_le_bytes(self.array()?)),
            1 => Value::I8(i8::from_le_bytes(self.array()?)),
            2 => Value::U16(u16::from_le_bytes(self.array()?)),
            3 => Value::I16(i16::from_le_bytes(self.array()?)),
            4 => Value::U32(self.u32()?),
            5 => Value::I32(i32::from_le_bytes(self.array()?)),
            6 => Value::F32(f32::from_le_bytes(self.array()?)),
            7 => match self.array::<1>()?[0] {
                0 => Value::Bool(false),
                1 => Value::Bool(true),
                other => return Err(format!("its header holds a boolean of {other}")),
            },
            8 => Value::String(self.string()?),
            9 if nested => {
                let item = self.u32()?;
                let n = self.count()?;
                let mut items = Vec::with_capacity(n.min(1 << 16) as usize);
                for _ in 0..n {
                    items.push(self.value(item, false)?);
                }
                Value::Array(items)
            }
            10 => Value::U64(self.u64()?),
            11 => Value::I64(i64::from_le_bytes(self.array()?)),
            12 => Value::F64(f64::from_le_bytes(self.array()?)),
            other => return Err(format!("its header holds a value of unknown type {other}")),
        })
    }
}

fn short(e: &std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        "its header ends early".to_owned()
    } else {
        format!("reading it failed ({e})")
    }
}

/// The header of the GGUF file at `path`, checked complete, and the file's
/// size in bytes.
pub fn read_complete(path: &Path) -> Result<(Header, u64), String> {
    let file = File::open(path).map_err(|e| format!("cannot open it: {e}"))?;
    let file_bytes = file.metadata().map(|m| m.len()).unwrap_or(0);
    let header = Header::read(&mut BufReader::new(file)).map_err(|e| format!("it is not a valid GGUF file ({e})"))?;
    if header.tensors.is_empty() {
        return Err("it holds no tensors".to_owned());
    }
    let needed = header.bytes_needed()?;
    if needed > file_bytes {
        return Err(format!("it is truncated ({file_bytes} of {needed} bytes)"));
    }
    Ok((header, file_bytes))
}

/// A metadata string of the header, owned.
pub fn meta_string(header: &Header, key: &str) -> Option<String> {
    header.string(key).map(str::to_owned)
}

/// Reads only the header of a GGUF file and checks it is complete: what
/// `echoes models fetch` verifies without loading the weights.
pub fn verify_gguf(path: &Path) -> Result<String, String> {
    let (header, _) = read_complete(path)?;
    Ok(meta_string(&header, "general.name").unwrap_or_else(|| "unnamed".to_owned()))
}

#[cfg(test)]
mod tests {
    use super::write::{Tensor, write};
    use super::*;

    fn file(tensors: &[(&str, Tensor)]) -> Vec<u8> {
        let metadata = [
            ("general.name", Value::String("tiny".into())),
            ("general.architecture", Value::String("llama".into())),
            ("tokenizer.ggml.tokens", Value::Array(vec![Value::String("a".into()), Value::String("b".into())])),
            ("llama.context_length", Value::U32(2048)),
        ];
        let mut out = Vec::new();
        write(&mut out, &metadata, tensors).unwrap();
        out
    }

    #[test]
    fn a_written_file_reads_back_with_its_metadata_and_tensors() {
        let values: Vec<f32> = (0..256).map(|i| i as f32 / 256.0).collect();
        let tensors = [
            ("a", Tensor::f32(&[4, 8], &values[..32])),
            ("b", Tensor::quantized(&[256], llama_cpp_sys_2::GGML_TYPE_Q4_K, &values)),
        ];
        let bytes = file(&tensors);
        let header = Header::read(&mut bytes.as_slice()).unwrap();
        assert_eq!(header.version, 3);
        assert_eq!(header.string("general.name"), Some("tiny"));
        assert_eq!(header.unsigned("llama.context_length"), Some(2048));
        assert_eq!(header.tensors.len(), 2);
        assert_eq!(header.tensors[0].dims, vec![4, 8]);
        assert_eq!(tensor_bytes(&header.tensors[0]).unwrap(), 128);
        // Q4_K: 256 values in one block of 144 bytes.
        assert_eq!(tensor_bytes(&header.tensors[1]).unwrap(), 144);
        // The last tensor's bytes end where the file ends, but for its padding.
        let needed = header.bytes_needed().unwrap();
        assert!(needed <= bytes.len() as u64 && bytes.len() as u64 - needed < 32, "{needed} of {}", bytes.len());
    }

    #[test]
    fn a_truncated_or_foreign_file_is_refused_with_a_reason() {
        let dir = tempfile::tempdir().unwrap();
        let bytes = file(&[("a", Tensor::f32(&[64], &[0.5; 64]))]);
        let path = dir.path().join("m.gguf");
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(verify_gguf(&path).unwrap(), "tiny");

        std::fs::write(&path, &bytes[..bytes.len() - 10]).unwrap();
        assert!(verify_gguf(&path).unwrap_err().contains("truncated"));
        std::fs::write(&path, &bytes[..40]).unwrap();
        assert!(verify_gguf(&path).unwrap_err().contains("ends early"));
        std::fs::write(&path, b"PK\x03\x04 not a model").unwrap();
        assert!(verify_gguf(&path).unwrap_err().contains("magic"));
        let mut huge = bytes.clone();
        huge[8..16].copy_from_slice(&u64::MAX.to_le_bytes());
        std::fs::write(&path, &huge).unwrap();
        assert!(verify_gguf(&path).unwrap_err().contains("items"));
        std::fs::write(&path, file(&[])).unwrap();
        assert!(verify_gguf(&path).unwrap_err().contains("no tensors"));
    }
}
