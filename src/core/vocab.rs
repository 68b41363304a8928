//! The engine's vocabulary: the words every game, every front end and the
//! store share (a game's language, a player). Nothing game-specific lives
//! here; a game's own nouns stay in its folder.

use serde::{Deserialize, Serialize};

/// Game language. Puzzles, prompts and fixed replies exist in each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    En,
    Zh,
}

impl Language {
    pub fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Zh => "zh",
        }
    }

    /// Of a text written in each language, the one in this language.
    pub fn pick<T>(self, en: T, zh: T) -> T {
        match self {
            Language::En => en,
            Language::Zh => zh,
        }
    }

    pub fn parse(code: &str) -> Option<Self> {
        match code.trim().to_ascii_lowercase().as_str() {
            "en" | "english" => Some(Language::En),
            "zh" | "cn" | "chinese" | "中文" => Some(Language::Zh),
            _ => None,
        }
    }
}

/// A person (or an AI seat) at a table, as the platform names them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Stable id, e.g. `console:alice`, `discord:1234`.
    pub id: String,
    pub name: String,
}
