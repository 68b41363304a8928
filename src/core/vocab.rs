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

/// How hard a game's content is (a puzzle, a word pair): shared by every
/// game that grades its content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
}

impl std::fmt::Display for Difficulty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        })
    }
}

impl Difficulty {
    /// A difficulty as a player or host types it (`hard`, `困难`); `None`:
    /// not one.
    pub fn parse(typed: &str) -> Option<Difficulty> {
        match typed.trim().to_lowercase().as_str() {
            "easy" | "简单" | "容易" => Some(Difficulty::Easy),
            "medium" | "normal" | "中等" | "普通" => Some(Difficulty::Medium),
            "hard" | "困难" | "难" => Some(Difficulty::Hard),
            _ => None,
        }
    }
}
