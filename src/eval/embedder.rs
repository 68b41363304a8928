//! `echoes eval embedder`: the sentence embedder on llama.cpp against the
//! same model on candle, over every text the Judge's memory embeds: each
//! bundled puzzle's known questions and its key facts (with the other
//! ways players state them). For each text the cosine between its two
//! vectors; the report gives the worst, the mean, how many fall under
//! `AGREE` and the wall time each engine took for all of them.

use std::time::{Duration, Instant};

use crate::core::embed::{EmbedError, Embedder};
use crate::core::soup::puzzle::Puzzle;

/// Two engines agree on a text when its vectors' cosine reaches this.
pub const AGREE: f64 = 0.999;
/// Texts per `embed` call, as the Judge's memory batches a puzzle.
const CALL: usize = 64;

/// What one comparison found.
#[derive(Debug, Clone)]
pub struct Agreement {
    pub texts: usize,
    pub worst: f64,
    pub mean: f64,
    /// Texts whose cosine is under `AGREE`, the worst first (at most 10).
    pub under: Vec<(f64, String)>,
    pub under_count: usize,
    /// Wall time for every text, each engine (first, second).
    pub times: (Duration, Duration),
}

/// Every text the Judge embeds for `puzzles`, each once, in order.
pub fn texts(puzzles: &[&Puzzle]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for p in puzzles {
        let known = p.known.iter().map(|k| k.question.clone());
        let facts = p.facts.iter().flat_map(|f| std::iter::once(f.text.clone()).chain(f.also.iter().cloned()));
        for text in known.chain(facts) {
            if seen.insert(text.clone()) {
                out.push(text);
            }
        }
    }
    out
}

/// Embeds `texts` with both engines and compares each text's two vectors.
pub async fn compare(texts: &[String], first: &dyn Embedder, second: &dyn Embedder) -> Result<Agreement, EmbedError> {
    let (a, first_time) = embed_all(first, texts).await?;
    let (b, second_time) = embed_all(second, texts).await?;
    let mut scored: Vec<(f64, String)> =
        a.iter().zip(&b).zip(texts).map(|((x, y), text)| (cosine(x, y), text.clone())).collect();
    scored.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mean = scored.iter().map(|(c, _)| c).sum::<f64>() / scored.len().max(1) as f64;
    let under: Vec<(f64, String)> = scored.iter().filter(|(c, _)| *c < AGREE).cloned().collect();
    Ok(Agreement {
        texts: texts.len(),
        worst: scored.first().map_or(1.0, |(c, _)| *c),
        mean,
        under_count: under.len(),
        under: under.into_iter().take(10).collect(),
        times: (first_time, second_time),
    })
}

async fn embed_all(embedder: &dyn Embedder, texts: &[String]) -> Result<(Vec<Vec<f32>>, Duration), EmbedError> {
    let started = Instant::now();
    let mut out = Vec::with_capacity(texts.len());
    for chunk in texts.chunks(CALL) {
        out.extend(embedder.embed(chunk).await?);
    }
    Ok((out, started.elapsed()))
}

/// The cosine of two vectors (1 for two empty ones).
fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum();
    let norm = |v: &[f32]| v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    let (na, nb) = (norm(a), norm(b));
    if na == 0.0 || nb == 0.0 { if na == nb { 1.0 } else { 0.0 } } else { dot / (na * nb) }
}

/// The report: one line of figures, then the texts under `AGREE`.
pub fn render(first: &str, second: &str, found: &Agreement) -> String {
    let mut out = format!(
        "{} texts · cosine {second} vs {first}: worst {:.5}, mean {:.6}, under {AGREE}: {}\n\
         time: {first} {:.2} s, {second} {:.2} s\n",
        found.texts,
        found.worst,
        found.mean,
        found.under_count,
        found.times.0.as_secs_f64(),
        found.times.1.as_secs_f64()
    );
    for (c, text) in &found.under {
        out.push_str(&format!("  {c:.5}  {text}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::HashingEmbedder;

    #[test]
    fn cosine_is_one_for_the_same_direction_and_zero_for_orthogonal() {
        assert!((cosine(&[1.0, 2.0], &[2.0, 4.0]) - 1.0).abs() < 1e-12);
        assert!(cosine(&[1.0, 0.0], &[0.0, 3.0]).abs() < 1e-12);
        assert_eq!(cosine(&[], &[]), 1.0);
    }

    #[tokio::test]
    async fn one_engine_agrees_with_itself_and_not_with_another() {
        let texts: Vec<String> =
            ["Was he alone?", "Did the lamp go out?", "Was it raining?"].map(String::from).to_vec();
        let a = HashingEmbedder::new(64);
        let same = compare(&texts, &a, &a).await.unwrap();
        assert_eq!((same.texts, same.under_count), (3, 0));
        assert!((same.worst - 1.0).abs() < 1e-9, "{same:?}");
        let other = compare(&texts[..1], &a, &Offset(HashingEmbedder::new(64))).await.unwrap();
        assert_eq!(other.under_count, 1, "{other:?}");
        assert!(render("a", "b", &other).contains("under 0.999: 1"));
    }

    /// Another engine: the same texts land elsewhere.
    struct Offset(HashingEmbedder);

    #[async_trait::async_trait]
    impl Embedder for Offset {
        fn describe(&self) -> String {
            "offset".into()
        }
        fn dimensions(&self) -> usize {
            64
        }
        async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
            let mut out = self.0.embed(texts).await?;
            for v in &mut out {
                v.rotate_right(7);
            }
            Ok(out)
        }
    }
}
