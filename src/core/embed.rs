//! The embedding port: what the game needs from a sentence embedder (the
//! knowledge features compare texts by meaning), and nothing about how the
//! vectors are made. Implementations live in `crate::embed`.

use async_trait::async_trait;

/// Why embedding failed.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum EmbedError {
    /// The model files are missing, unreadable or invalid.
    #[error("embedding model unavailable: {0}")]
    Unavailable(String),
    /// The model ran and failed.
    #[error("embedding failed: {0}")]
    Failed(String),
}

/// A sentence embedder. Vectors are L2-normalised, so a dot product is the
/// cosine similarity; every vector has `dimensions()` entries.
#[async_trait]
pub trait Embedder: Send + Sync {
    /// A short human label, e.g. `local:all-MiniLM-L6-v2`.
    fn describe(&self) -> String;

    /// The length of every returned vector.
    fn dimensions(&self) -> usize;

    /// One vector per text, in order. An empty slice gives an empty result.
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError>;
}

/// Vectors kept between processes under a key that names all they were
/// made from (the texts and the embedder), so a process that meets the
/// same texts again reads them instead of embedding them (a puzzle's
/// ~230 known answers take seconds to embed on two cores). A changed text
/// changes the key: nothing here is ever stale, only unused.
#[async_trait]
pub trait VectorCache: Send + Sync {
    /// The vectors stored under `key`, in order; none when there are none
    /// or they cannot be read (a cache miss, never an error to the turn).
    async fn load(&self, key: &str) -> Option<Vec<Vec<f32>>>;

    /// Stores `vectors` under `key`, replacing what was there. A failure
    /// is logged by the implementation: the vectors are only lost.
    async fn save(&self, key: &str, vectors: &[Vec<f32>]);
}

/// The cosine similarity of two L2-normalised vectors.
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
