//! Prompt rendering. One minijinja template per role and purpose; the
//! sources come from `prompts/` (embedded, or a directory named in config).
//!
//! The types here are the secrecy boundary: only `JudgeView` carries the
//! bottom and key facts, and only the Judge's templates receive it. The
//! Narrator's templates are rendered from a `PublicView`, which cannot hold
//! secret text because it is built from the surface alone.

use minijinja::Environment;
use serde::Serialize;

use super::soup::puzzle::{Fact, Puzzle};

use crate::core::vocab::Language;

/// Template names every prompt set must define.
pub const REQUIRED: [&str; 6] =
    ["judge.system", "judge.user", "narrator.system", "narrator.user", "summary.system", "player.system"];

#[derive(Debug, thiserror::Error)]
pub enum PromptError {
    #[error("prompt template {0:?} is missing")]
    Missing(String),
    #[error("prompt template {name:?} does not compile: {source}")]
    Syntax { name: String, source: minijinja::Error },
    #[error("prompt template {name:?} failed to render: {source}")]
    Render { name: String, source: minijinja::Error },
}

/// A compiled set of templates.
pub struct Prompts {
    env: Environment<'static>,
}

impl std::fmt::Debug for Prompts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prompts").finish_non_exhaustive()
    }
}

/// One earlier turn as everybody saw it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PublicTurn {
    pub player: String,
    pub text: String,
    /// Verdict label, or "guess" / "hint".
    pub outcome: String,
}

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

impl Prompts {
    /// Compiles templates from `(name, source)` pairs; every name in
    /// `REQUIRED` must be present.
    pub fn from_sources(sources: impl IntoIterator<Item = (String, String)>) -> Result<Prompts, PromptError> {
        let mut env = Environment::new();
        env.set_trim_blocks(true);
        env.set_lstrip_blocks(true);
        for (name, source) in sources {
            env.add_template_owned(name.clone(), source).map_err(|source| PromptError::Syntax { name, source })?;
        }
        for name in REQUIRED {
            env.get_template(name).map_err(|_| PromptError::Missing(name.to_string()))?;
        }
        Ok(Prompts { env })
    }

    pub fn judge_system(&self, view: &JudgeView<'_>, mode: JudgeMode) -> Result<String, PromptError> {
        self.render("judge.system", minijinja::context! { v => view, mode => mode })
    }

    pub fn judge_user(&self, text: &str, mode: JudgeMode, language: Language) -> Result<String, PromptError> {
        self.render("judge.user", minijinja::context! { text => text, mode => mode, language => language.code() })
    }

    pub fn narrator_system(&self, view: &PublicView<'_>) -> Result<String, PromptError> {
        self.render("narrator.system", minijinja::context! { v => view })
    }

    pub fn narrator_user(&self, question: &str, verdict: &str, language: Language) -> Result<String, PromptError> {
        self.render(
            "narrator.user",
            minijinja::context! { question => question, verdict => verdict, language => language.code() },
        )
    }

    /// The post-game summary prompt: public material and the outcome only.
    pub fn summary_system(&self, view: &PublicView<'_>, outcome: &str) -> Result<String, PromptError> {
        self.render("summary.system", minijinja::context! { v => view, outcome => outcome })
    }

    /// An AI player's prompt: public material and what the player-agent
    /// role may retrieve.
    pub fn player_system(&self, view: &PublicView<'_>, notes: &[String]) -> Result<String, PromptError> {
        self.render("player.system", minijinja::context! { v => view, notes => notes })
    }

    fn render(&self, name: &str, ctx: minijinja::Value) -> Result<String, PromptError> {
        let template = self.env.get_template(name).map_err(|_| PromptError::Missing(name.to_string()))?;
        template.render(ctx).map_err(|source| PromptError::Render { name: name.to_string(), source })
    }
}

#[cfg(test)]
mod tests;
