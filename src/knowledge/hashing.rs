//! `HashingEmbedder`: a deterministic bag-of-words embedder (feature
//! hashing of words and character trigrams into a fixed number of
//! dimensions, L2-normalised). It knows no synonyms, so it is no substitute
//! for a sentence model; it exists so tests and benchmarks of the storage
//! layer run without model files, and as a last-resort fallback.

use async_trait::async_trait;

use crate::core::embed::{EmbedError, Embedder};

#[derive(Debug, Clone, Copy)]
pub struct HashingEmbedder {
    dims: usize,
}

impl HashingEmbedder {
    pub fn new(dims: usize) -> Self {
        HashingEmbedder { dims: dims.max(8) }
    }

    pub fn embed_one(&self, text: &str) -> Vec<f32> {
        let mut v = vec![0.0f32; self.dims];
        let normalized = crate::core::text::normalize_question(text);
        for word in normalized.split(' ').filter(|w| !w.is_empty()) {
            self.add(&mut v, word, 1.0);
            let chars: Vec<char> = format!("#{word}#").chars().collect();
            for tri in chars.windows(3) {
                self.add(&mut v, &tri.iter().collect::<String>(), 0.5);
            }
        }
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 {
            v.iter_mut().for_each(|x| *x /= norm);
        }
        v
    }

    fn add(&self, v: &mut [f32], token: &str, weight: f32) {
        let h = u64::from_str_radix(&super::content_hash(&[token]), 16).unwrap_or_default();
        let sign = if h & 1 == 0 { 1.0 } else { -1.0 };
        v[(h >> 1) as usize % self.dims] += sign * weight;
    }
}

#[async_trait]
impl Embedder for HashingEmbedder {
    fn describe(&self) -> String {
        format!("hashing:{}", self.dims)
    }

    fn dimensions(&self) -> usize {
        self.dims
    }

    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(texts.iter().map(|t| self.embed_one(t)).collect())
    }
}
