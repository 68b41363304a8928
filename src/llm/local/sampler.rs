//! Picks the next token from logits: greedy at temperature 0, otherwise
//! top-k then top-p sampling from a seeded generator, so a seeded request
//! replays exactly.

use rand::SeedableRng;
use rand::distr::{Distribution, weighted::WeightedIndex};
use rand::rngs::StdRng;

/// Candidates kept before nucleus filtering (llama.cpp's default).
const TOP_K: usize = 40;
const TOP_P: f32 = 0.95;

pub struct Sampler {
    temperature: f32,
    rng: StdRng,
}

impl Sampler {
    /// `seed: None` draws a fresh seed.
    pub fn new(temperature: f32, seed: Option<u64>) -> Self {
        let seed = seed.unwrap_or_else(rand::random);
        Self { temperature, rng: StdRng::seed_from_u64(seed) }
    }

    pub fn sample(&mut self, logits: &[f32]) -> u32 {
        if self.temperature <= 1e-4 || !self.temperature.is_finite() {
            return argmax(logits);
        }
        let mut ranked: Vec<(usize, f32)> = logits.iter().copied().enumerate().filter(|(_, l)| l.is_finite()).collect();
        ranked.sort_unstable_by(|a, b| b.1.total_cmp(&a.1));
        ranked.truncate(TOP_K);
        let Some(&(_, top)) = ranked.first() else { return argmax(logits) };
        let mut weights: Vec<f32> = ranked.iter().map(|(_, l)| ((l - top) / self.temperature).exp()).collect();
        let total: f32 = weights.iter().sum();
        let mut cumulative = 0.0;
        for w in weights.iter_mut() {
            if cumulative >= TOP_P * total {
                *w = 0.0;
            }
            cumulative += *w;
        }
        match WeightedIndex::new(&weights) {
            Ok(dist) => ranked[dist.sample(&mut self.rng)].0 as u32,
            Err(_) => ranked[0].0 as u32,
        }
    }
}

/// The index of the largest finite logit (0 for an empty slice).
pub fn argmax(logits: &[f32]) -> u32 {
    let mut best = (0usize, f32::NEG_INFINITY);
    for (i, &l) in logits.iter().enumerate() {
        if l > best.1 {
            best = (i, l);
        }
    }
    best.0 as u32
}

/// `log softmax(logits)[id]`.
pub fn log_prob(logits: &[f32], id: u32) -> f32 {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f32 = logits.iter().map(|l| (l - max).exp()).sum();
    logits.get(id as usize).map_or(f32::NEG_INFINITY, |l| l - max - sum.ln())
}
