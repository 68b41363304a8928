//! `echoes bench ledger`: tunes the semantic ledger's threshold on the
//! question pairs in `tests/data/question_pairs.toml` (paraphrases that must
//! share a verdict, and near-misses whose verdict can flip).

use serde::Deserialize;

use crate::core::embed::{Embedder, cosine};
use crate::core::text::normalize_question;

const PAIRS: &str = include_str!("../../tests/data/question_pairs.toml");

#[derive(Debug, Deserialize)]
struct Pairs {
    pairs: Vec<Pair>,
}

#[derive(Debug, Deserialize)]
struct Pair {
    a: String,
    b: String,
    same: bool,
}

/// One threshold's outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub threshold: f32,
    /// Paraphrase pairs that would reuse the verdict (higher is better).
    pub reuse_rate: f32,
    /// Near-miss pairs that would wrongly reuse a verdict (must be ~0).
    pub false_match_rate: f32,
}

/// Cosine similarity of each pair, with its label.
pub async fn scored_pairs(embedder: &dyn Embedder) -> anyhow::Result<Vec<(f32, bool)>> {
    let pairs: Pairs = toml::from_str(PAIRS)?;
    let texts: Vec<String> =
        pairs.pairs.iter().flat_map(|p| [normalize_question(&p.a), normalize_question(&p.b)]).collect();
    let vectors = embedder.embed(&texts).await?;
    Ok(pairs.pairs.iter().zip(vectors.chunks(2)).map(|(p, v)| (cosine(&v[0], &v[1]), p.same)).collect())
}

/// Reuse and false-match rates for thresholds from 0.80 to 0.99.
pub fn sweep(scored: &[(f32, bool)]) -> Vec<Row> {
    let same = scored.iter().filter(|(_, s)| *s).count().max(1) as f32;
    let different = scored.iter().filter(|(_, s)| !*s).count().max(1) as f32;
    (80..100)
        .map(|t| {
            let threshold = t as f32 / 100.0;
            let reused = scored.iter().filter(|(c, s)| *s && *c >= threshold).count() as f32;
            let wrong = scored.iter().filter(|(c, s)| !*s && *c >= threshold).count() as f32;
            Row { threshold, reuse_rate: reused / same, false_match_rate: wrong / different }
        })
        .collect()
}

pub fn render(rows: &[Row], chosen: f32) -> String {
    let mut lines = vec![format!("{:>9}  {:>10}  {:>16}", "threshold", "reuse rate", "false-match rate")];
    for r in rows {
        let mark = if (r.threshold - chosen).abs() < 0.005 { "  ← configured" } else { "" };
        lines.push(format!(
            "{:>9.2}  {:>9.0}%  {:>15.1}%{mark}",
            r.threshold,
            r.reuse_rate * 100.0,
            r.false_match_rate * 100.0
        ));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pair_file_is_balanced() {
        let pairs: Pairs = toml::from_str(PAIRS).unwrap();
        let same = pairs.pairs.iter().filter(|p| p.same).count();
        assert!(same >= 20 && pairs.pairs.len() - same >= 20);
    }

    #[test]
    fn the_sweep_counts_each_side() {
        let rows = sweep(&[(0.95, true), (0.85, true), (0.90, false), (0.5, false)]);
        let at = |t: f32| rows.iter().find(|r| (r.threshold - t).abs() < 0.001).unwrap().clone();
        assert_eq!((at(0.85).reuse_rate, at(0.85).false_match_rate), (1.0, 0.5));
        assert_eq!((at(0.93).reuse_rate, at(0.93).false_match_rate), (0.5, 0.0));
    }
}
