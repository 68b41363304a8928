//! Puzzles: the data model, parsing from TOML text and validation.
//!
//! This module reads no files; `crate::puzzles` finds them on disk and puts
//! file names on the problems reported here. A `Puzzle` that exists has
//! passed `validate`, so the rest of the game can rely on its shape.

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;

use crate::core::knowledge::{Doc, DocKind, Visibility};
use crate::core::text::{distinct_runs, shares_run};
use crate::core::vocab::Language;

pub use crate::core::vocab::Difficulty;

/// A key fact of the bottom. Guesses are graded by which facts they state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fact {
    pub id: String,
    pub text: String,
    #[serde(default)]
    pub required: bool,
    /// Other ways players state the same fact, matched like `text` when a
    /// guess is graded without a capable Judge. As secret as `text`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
}

impl Fact {
    /// The fact's text and each other way of stating it.
    pub fn statements(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.text.as_str()).chain(self.also.iter().map(String::as_str))
    }
}

/// A Turtle Soup puzzle. `bottom` and `facts` are secret until the reveal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Puzzle {
    pub id: String,
    pub title: String,
    pub language: Language,
    pub difficulty: Difficulty,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub author: String,
    #[serde(default)]
    pub license: String,
    pub surface: String,
    pub bottom: String,
    pub hints: Vec<String>,
    pub facts: Vec<Fact>,
    /// Extra background passages (lore-heavy puzzles); the Judge retrieves
    /// the relevant ones instead of reading them all.
    #[serde(default)]
    pub lore: Vec<Lore>,
    /// Questions players ask, each with the verdict the Judge gives: the
    /// Judge's memory for this puzzle. As secret as the bottom.
    #[serde(default)]
    pub known: Vec<Known>,
}

/// A question players ask and its verdict, written with the puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Known {
    pub question: String,
    pub verdict: crate::core::game::record::Verdict,
}

/// A background passage with its declared visibility.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lore {
    pub text: String,
    #[serde(default = "judge_only")]
    pub visibility: Visibility,
}

fn judge_only() -> Visibility {
    Visibility::Judge
}

/// Every puzzle's documents.
pub fn all_puzzle_docs(puzzles: &[&Puzzle]) -> Vec<Doc> {
    puzzles.iter().flat_map(|p| puzzle_docs(p)).collect()
}

/// Splits a puzzle into its typed documents: the surface is public, the
/// bottom and key facts are for the Judge, hints for the hint master, lore
/// as it declares.
pub fn puzzle_docs(p: &Puzzle) -> Vec<Doc> {
    let doc = |id: String, kind, visibility, text: &str| Doc {
        id,
        puzzle_id: p.id.clone(),
        kind,
        visibility,
        language: p.language.code().to_string(),
        text: text.trim().to_string(),
    };
    let mut docs = vec![
        doc(format!("{}#surface", p.id), DocKind::Surface, Visibility::Public, &p.surface),
        doc(format!("{}#bottom", p.id), DocKind::Bottom, Visibility::Judge, &p.bottom),
    ];
    docs.extend(
        p.facts.iter().map(|f| doc(format!("{}#fact-{}", p.id, f.id), DocKind::Fact, Visibility::Judge, &f.text)),
    );
    docs.extend(
        p.hints.iter().enumerate().map(|(i, h)| doc(format!("{}#hint-{i}", p.id), DocKind::Hint, Visibility::Hint, h)),
    );
    docs.extend(
        p.lore.iter().enumerate().map(|(i, l)| doc(format!("{}#lore-{i}", p.id), DocKind::Lore, l.visibility, &l.text)),
    );
    docs
}

/// One thing wrong with a puzzle file: which field, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub field: String,
    pub reason: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

pub const MAX_SURFACE_CHARS: usize = 1_500;
pub const MAX_BOTTOM_CHARS: usize = 4_000;
pub const MIN_HINTS: usize = 3;
const MAX_FACTS: usize = 12;
/// A hint may not repeat this many consecutive words (en) of the bottom.
const HINT_RUN_WORDS: usize = 5;
/// ... or this many consecutive characters (zh).
const HINT_RUN_CHARS: usize = 8;

impl Puzzle {
    /// Parses and validates puzzle TOML. `expected_id` and
    /// `expected_language` come from the file's name and directory.
    pub fn from_toml(
        source: &str,
        expected_id: Option<&str>,
        expected_language: Option<Language>,
    ) -> Result<Puzzle, Vec<Problem>> {
        let puzzle: Puzzle = toml::from_str(source).map_err(|e| vec![toml_problem(&e)])?;
        let mut problems = puzzle.validate();
        if let Some(id) = expected_id.filter(|id| *id != puzzle.id) {
            problems.push(problem("id", format!("is {:?} but the file is named {id:?}", puzzle.id)));
        }
        if let Some(lang) = expected_language.filter(|l| *l != puzzle.language) {
            problems.push(problem(
                "language",
                format!("is {:?} but the file is under {:?}", puzzle.language.code(), lang.code()),
            ));
        }
        if problems.is_empty() { Ok(puzzle) } else { Err(problems) }
    }

    /// Every rule a playable puzzle must meet.
    pub fn validate(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        check_id(&self.id, &mut out);
        check_text("title", &self.title, 120, &mut out);
        check_text("surface", &self.surface, MAX_SURFACE_CHARS, &mut out);
        check_text("bottom", &self.bottom, MAX_BOTTOM_CHARS, &mut out);
        self.check_hints(&mut out);
        self.check_facts(&mut out);
        for (i, lore) in self.lore.iter().enumerate() {
            check_text(&format!("lore[{i}].text"), &lore.text, MAX_BOTTOM_CHARS, &mut out);
        }
        self.lint(&mut out);
        out
    }

    fn check_hints(&self, out: &mut Vec<Problem>) {
        if self.hints.len() < MIN_HINTS {
            out.push(problem("hints", format!("has {} hints; at least {MIN_HINTS} are needed", self.hints.len())));
        }
        let run = match self.language {
            Language::En => HINT_RUN_WORDS,
            Language::Zh => HINT_RUN_CHARS,
        };
        let bottom_runs = distinct_runs(&self.bottom, self.language, run);
        for (i, hint) in self.hints.iter().enumerate() {
            let field = format!("hints[{i}]");
            check_text(&field, hint, 500, out);
            if shares_run(hint, self.language, run, &bottom_runs) {
                out.push(problem(&field, "repeats a phrase of the bottom word for word; paraphrase it"));
            }
        }
    }

    fn check_facts(&self, out: &mut Vec<Problem>) {
        if self.facts.is_empty() || self.facts.len() > MAX_FACTS {
            out.push(problem("facts", format!("has {} facts; 1 to {MAX_FACTS} are needed", self.facts.len())));
        }
        if !self.facts.iter().any(|f| f.required) {
            out.push(problem("facts", "no fact is marked required = true"));
        }
        let mut seen = BTreeSet::new();
        for (i, fact) in self.facts.iter().enumerate() {
            let valid_id = !fact.id.is_empty()
                && fact.id.len() <= 32
                && fact.id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            if !valid_id {
                out.push(problem(&format!("facts[{i}].id"), "must be 1-32 characters of a-z, 0-9, '_' or '-'"));
            }
            if !seen.insert(fact.id.as_str()) {
                out.push(problem(&format!("facts[{i}].id"), format!("{:?} is used twice", fact.id)));
            }
            check_text(&format!("facts[{i}].text"), &fact.text, 400, out);
        }
    }

    /// Ids of the facts a guess must cover to solve the puzzle.
    pub fn required_fact_ids(&self) -> impl Iterator<Item = &str> {
        self.facts.iter().filter(|f| f.required).map(|f| f.id.as_str())
    }

    pub fn has_fact(&self, id: &str) -> bool {
        self.facts.iter().any(|f| f.id == id)
    }
}

fn problem(field: &str, reason: impl Into<String>) -> Problem {
    Problem { field: field.to_string(), reason: reason.into() }
}

fn toml_problem(e: &toml::de::Error) -> Problem {
    // toml's messages name the key when it knows it; keep the first line.
    let reason = e.message().lines().next().unwrap_or("not valid TOML").to_string();
    let field = match e.span() {
        Some(span) => format!("(at byte {})", span.start),
        None => "(file)".to_string(),
    };
    Problem { field, reason }
}

fn check_id(id: &str, out: &mut Vec<Problem>) {
    let ok = (3..=64).contains(&id.len())
        && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !id.starts_with('-')
        && !id.ends_with('-');
    if !ok {
        out.push(problem("id", "must be 3-64 characters of a-z, 0-9 and '-', not starting or ending with '-'"));
    }
}

fn check_text(field: &str, text: &str, max_chars: usize, out: &mut Vec<Problem>) {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        out.push(problem(field, "is empty"));
    } else if trimmed.chars().count() > max_chars {
        out.push(problem(field, format!("is longer than {max_chars} characters")));
    } else if trimmed.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        out.push(problem(field, "contains control characters"));
    }
}

pub mod known;
mod lint;

#[cfg(test)]
mod tests;
