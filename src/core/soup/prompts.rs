//! Turtle Soup's prompts (`prompts/soup/`), rendered from the types that
//! are its secrecy boundary: only `JudgeView` carries the bottom and key
//! facts, and only the Judge's templates receive it. The Narrator's
//! templates are rendered from a `PublicView`, which cannot hold secret
//! text because it is built from the surface alone.

use serde::Serialize;

use super::puzzle::{Fact, Puzzle};
use crate::core::prompts::{PromptError, Prompts, PublicTurn};
use crate::core::vocab::Language;

/// The templates Turtle Soup renders, every one of which a prompt set must define.
pub const TEMPLATES: [&str; 6] = [
    "soup/judge.system",
    "soup/judge.user",
    "soup/narrator.system",
    "soup/narrator.user",
    "soup/summary.system",
    "soup/player.system",
];

/// What anybody at the table may know: safe for Narrator and AI players.
#[derive(Debug, Clone, Serialize)]
pub struct PublicView<'a> {
    pub title: &'a str,
    pub surface: &'a str,
    pub language: &'static str,
    pub history: &'a [PublicTurn],
    /// Relevant memories about the players present (public content only).
    pub memories: &'a [String],
}

impl<'a> PublicView<'a> {
    pub fn of(puzzle: &'a Puzzle, history: &'a [PublicTurn]) -> Self {
        PublicView {
            title: &puzzle.title,
            surface: &puzzle.surface,
            language: puzzle.language.code(),
            history,
            memories: &[],
        }
    }
}

/// What the Judge sees: the public view plus the answer and a canary.
#[derive(Debug, Clone, Serialize)]
pub struct JudgeView<'a> {
    #[serde(flatten)]
    pub public: PublicView<'a>,
    pub bottom: &'a str,
    pub facts: &'a [Fact],
    /// Background passages retrieved for this question (lore-heavy puzzles).
    pub passages: &'a [String],
    /// A random marker that must never appear in anything players see.
    pub canary: &'a str,
}

/// How the Judge should treat the player's message.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum JudgeMode {
    /// Free text: classify as question, guess or chatter, then judge.
    Auto,
    Question,
    Guess,
}

/// Turtle Soup's templates, rendered from its views.
impl Prompts {
    pub fn judge_system(&self, view: &JudgeView<'_>, mode: JudgeMode) -> Result<String, PromptError> {
        self.render("soup/judge.system", minijinja::context! { v => view, mode => mode })
    }

    pub fn judge_user(&self, text: &str, mode: JudgeMode, language: Language) -> Result<String, PromptError> {
        self.render("soup/judge.user", minijinja::context! { text => text, mode => mode, language => language.code() })
    }

    pub fn narrator_system(&self, view: &PublicView<'_>) -> Result<String, PromptError> {
        self.render("soup/narrator.system", minijinja::context! { v => view })
    }

    pub fn narrator_user(&self, question: &str, verdict: &str, language: Language) -> Result<String, PromptError> {
        self.render(
            "soup/narrator.user",
            minijinja::context! { question => question, verdict => verdict, language => language.code() },
        )
    }

    /// The post-game summary prompt: public material and the outcome only.
    pub fn summary_system(&self, view: &PublicView<'_>, outcome: &str) -> Result<String, PromptError> {
        self.render("soup/summary.system", minijinja::context! { v => view, outcome => outcome })
    }

    /// An AI player's prompt: public material and what the player-agent
    /// role may retrieve.
    pub fn player_system(&self, view: &PublicView<'_>, notes: &[String]) -> Result<String, PromptError> {
        self.render("soup/player.system", minijinja::context! { v => view, notes => notes })
    }
}

#[cfg(test)]
mod tests;
