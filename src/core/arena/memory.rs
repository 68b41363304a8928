//! The narrator's and the scorer's view of the whole game: every line of
//! the public record (contributions, each shown round's scores and the
//! narrator's lines), fitted to a token budget with the newest kept whole
//! and a count of what was left out before them. A 40-turn game fits
//! whole in both budgets.
//!
//! The engine's context service fits it (`core::context::fit_record`).

use crate::core::context::estimate_tokens;
use crate::core::llm::LlmClient;

/// Tokens of the record in the narrator's prompts (round comments, the summary).
pub const NARRATOR_TOKENS: usize = 3_000;
/// Tokens of the record in the scorer's prompt.
pub const SCORER_TOKENS: usize = 2_000;

/// How `model` counts tokens (its own tokenizer, else an estimate).
pub fn counter(model: &dyn LlmClient) -> impl Fn(&str) -> usize + '_ {
    move |t: &str| model.count_tokens(t).unwrap_or_else(|| estimate_tokens(t))
}
