//! Prompt templates: one minijinja template per game, role and purpose,
//! named by its path below `prompts/` without `.j2` (`soup/judge.system`,
//! `undercover/describe`). The sources are compiled in, and a directory
//! named in config replaces any of them by name (`assets::prompt_sources`,
//! `echoes prompts list|show`).
//!
//! A game renders its own templates with `render`, from a context built of
//! its own types: those types are its secrecy boundary (Turtle Soup's in
//! `soup::prompts`: only the Judge's view holds the answer). `PublicTurn`
//! is every game's public record: one earlier turn as everybody saw it.

use minijinja::Environment;
use serde::Serialize;

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

impl Prompts {
    /// Compiles templates from `(name, source)` pairs.
    pub fn from_sources(sources: impl IntoIterator<Item = (String, String)>) -> Result<Prompts, PromptError> {
        let mut env = Environment::new();
        env.set_trim_blocks(true);
        env.set_lstrip_blocks(true);
        for (name, source) in sources {
            env.add_template_owned(name.clone(), source).map_err(|source| PromptError::Syntax { name, source })?;
        }
        Ok(Prompts { env })
    }

    /// The same set, checked to define every one of `names`.
    pub fn requiring<'n>(self, names: impl IntoIterator<Item = &'n str>) -> Result<Prompts, PromptError> {
        for name in names {
            self.env.get_template(name).map_err(|_| PromptError::Missing(name.to_string()))?;
        }
        Ok(self)
    }

    /// The template `name` rendered with `ctx`.
    pub fn render(&self, name: &str, ctx: impl Serialize) -> Result<String, PromptError> {
        let template = self.env.get_template(name).map_err(|_| PromptError::Missing(name.to_string()))?;
        template.render(ctx).map_err(|source| PromptError::Render { name: name.to_string(), source })
    }
}

#[cfg(test)]
mod tests;
