//! The narrator's and the scorer's view of the whole game: every line of
//! the public record (contributions, each shown round's scores and the
//! narrator's lines), fitted to a token budget with the newest kept whole
//! and a count of what was left out before them. A 40-turn game fits
//! whole in both budgets.
//!
//! When the engine's layered context serves every game, the record is
//! this game's source of entries and `fit` gives way to its budgeted view.

use crate::core::context::estimate_tokens;
use crate::core::llm::LlmClient;
use crate::core::vocab::Language;

/// Tokens of the record in the narrator's prompts (round comments, the summary).
pub const NARRATOR_TOKENS: usize = 3_000;
/// Tokens of the record in the scorer's prompt.
pub const SCORER_TOKENS: usize = 2_000;

/// How `model` counts tokens (its own tokenizer, else an estimate).
pub fn counter(model: &dyn LlmClient) -> impl Fn(&str) -> usize + '_ {
    move |t: &str| model.count_tokens(t).unwrap_or_else(|| estimate_tokens(t))
}

fn marker(lang: Language, n: usize) -> String {
    match lang {
        Language::En => format!("({n} earlier lines left out)"),
        Language::Zh => format!("（省略了更早的 {n} 行）"),
    }
}

/// `lines` within `budget` tokens: all of them when they fit, else the
/// newest that fit whole, after one line saying how many older ones are
/// left out.
pub fn fit(lang: Language, lines: &[String], budget: usize, count: &dyn Fn(&str) -> usize) -> String {
    let total: usize = lines.iter().map(|l| count(l) + 1).sum();
    if total <= budget {
        return lines.join("\n");
    }
    let mut used = count(&marker(lang, lines.len())) + 1;
    let mut kept = 0;
    for line in lines.iter().rev() {
        let c = count(line) + 1;
        if used + c > budget {
            break;
        }
        used += c;
        kept += 1;
    }
    let start = lines.len() - kept;
    std::iter::once(marker(lang, start)).chain(lines[start..].iter().cloned()).collect::<Vec<_>>().join("\n")
}
