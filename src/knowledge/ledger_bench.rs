//! `echoes bench ledger`: tunes the semantic ledger's threshold on the
//! question pairs in `tests/data/question_pairs.toml` (paraphrases that must
//! share a verdict, and near-misses whose verdict can flip).

use serde::Deserialize;

use crate::core::embed::{Embedder, cosine};
use crate::core::text::{differ_by_contrast, is_cjk, normalize_question};

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

/// One labelled pair with its cosine similarity.
#[derive(Debug, Clone)]
pub struct Scored {
    pub a: String,
    pub b: String,
    pub cosine: f32,
    pub same: bool,
}

/// Cosine similarity of each pair, with its label.
pub async fn scored_pairs(embedder: &dyn Embedder) -> anyhow::Result<Vec<Scored>> {
    let pairs: Pairs = toml::from_str(PAIRS)?;
    let texts: Vec<String> =
        pairs.pairs.iter().flat_map(|p| [normalize_question(&p.a), normalize_question(&p.b)]).collect();
    let vectors = embedder.embed(&texts).await?;
    Ok(pairs
        .pairs
        .into_iter()
        .zip(vectors.chunks(2))
        .map(|(p, v)| Scored { cosine: cosine(&v[0], &v[1]), a: p.a, b: p.b, same: p.same })
        .collect())
}

/// Whether the ledger would reuse a verdict across this pair.
fn matches(s: &Scored, threshold: f32) -> bool {
    let (a, b) = (normalize_question(&s.a), normalize_question(&s.b));
    let english = !a.chars().chain(b.chars()).any(is_cjk);
    english && s.cosine >= threshold && !differ_by_contrast(&a, &b)
}

/// The near-miss pairs that would wrongly share a verdict at `threshold`.
pub fn false_matches(scored: &[Scored], threshold: f32) -> Vec<String> {
    scored
        .iter()
        .filter(|s| !s.same && matches(s, threshold))
        .map(|s| format!("{:.3}  {:?} ~ {:?}", s.cosine, s.a, s.b))
        .collect()
}

/// Reuse and false-match rates for thresholds from 0.80 to 0.99.
/// Pairs are scored as the ledger scores them: a pair that differs by a
/// contrast word never matches, and Chinese pairs use the exact ledger only.
pub fn sweep(scored: &[Scored]) -> Vec<Row> {
    let same = scored.iter().filter(|s| s.same).count().max(1) as f32;
    let different = scored.iter().filter(|s| !s.same).count().max(1) as f32;
    (80..100)
        .map(|t| {
            let threshold = t as f32 / 100.0;
            let hits = |same: bool| scored.iter().filter(|s| s.same == same && matches(s, threshold)).count() as f32;
            let (reused, wrong) = (hits(true), hits(false));
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
        let pair = |cosine: f32, same: bool| Scored { a: "is it red".into(), b: "is it blue".into(), cosine, same };
        let rows = sweep(&[pair(0.95, true), pair(0.85, true), pair(0.90, false), pair(0.5, false)]);
        let at = |t: f32| rows.iter().find(|r| (r.threshold - t).abs() < 0.001).unwrap().clone();
        assert_eq!((at(0.85).reuse_rate, at(0.85).false_match_rate), (1.0, 0.5));
        assert_eq!((at(0.93).reuse_rate, at(0.93).false_match_rate), (0.5, 0.0));
    }

    #[test]
    fn a_contrast_word_never_matches() {
        let pair = Scored { a: "Was the lamp off?".into(), b: "Was the lamp on?".into(), cosine: 0.99, same: false };
        assert!(false_matches(&[pair], 0.8).is_empty());
    }
}
