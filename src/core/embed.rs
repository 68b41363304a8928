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

/// The cosine similarity of two L2-normalised vectors.
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
