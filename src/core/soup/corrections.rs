//! A server's own corrections to a puzzle's known answers. A moderator who
//! saw the Judge answer a question wrongly ("that answer was wrong: it
//! should be NO") stores the question with its right verdict for that
//! server's copy of the puzzle (`/soup-admin known add`); every game there
//! that starts afterwards answers it, and questions close to it, that way.
//! A correction replaces the known answers that ask the same question (by
//! their words, negated or not) and is checked by the puzzle's own lint
//! first: it may not repeat the bottom word for word nor say NO to what a
//! key fact states. Stored as the server's content (`custom_content`,
//! game `soup`), one row per question.

use serde::{Deserialize, Serialize};

use crate::core::game::record::Verdict;
use crate::core::vocab::Language;

use super::known::{fingerprint, same_question, words_key};
use super::puzzle::{Known, Puzzle};

/// Turtle Soup's kind: its sessions' and its corrections' (the server's
/// content rows of game `soup`).
pub const KIND: &str = <super::SoupGame as crate::core::game::Game>::KIND;

/// The longest question a correction may hold, in characters.
pub const MAX_QUESTION_CHARS: usize = 300;

/// One question of one puzzle with the verdict a moderator gave it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Correction {
    pub puzzle: String,
    pub question: String,
    pub verdict: Verdict,
}

/// Why a correction was not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// Empty, or longer than `MAX_QUESTION_CHARS`.
    BadQuestion,
    /// Not one of YES, NO, YES AND NO, IRRELEVANT (or 是, 不是, 是也不是, 无关).
    BadVerdict,
    /// The puzzle's lint refuses it: its reasons.
    Lint(Vec<String>),
}

impl Correction {
    /// A correction read from what a moderator typed.
    pub fn new(puzzle: &Puzzle, question: &str, verdict: &str) -> Result<Correction, Refused> {
        let question = question.split_whitespace().collect::<Vec<_>>().join(" ");
        if question.is_empty() || question.chars().count() > MAX_QUESTION_CHARS {
            return Err(Refused::BadQuestion);
        }
        let verdict = verdict_of(verdict).ok_or(Refused::BadVerdict)?;
        let correction = Correction { puzzle: puzzle.id.clone(), question, verdict };
        let problems = puzzle.correction_problems(&correction);
        if problems.is_empty() { Ok(correction) } else { Err(Refused::Lint(problems)) }
    }

    /// Its id among the server's corrections: the puzzle's id and a short
    /// hash of the question's words, so the same question asked again
    /// ("Did he die?", "did he die") has the same id and replaces it.
    pub fn id(&self, language: Language) -> String {
        let hash = fingerprint([words_key(&self.question, language).as_str()]);
        format!("{}#{:06x}", self.puzzle, hash & 0xff_ffff)
    }

    /// The stored form (the content row's source).
    pub fn to_source(&self) -> String {
        serde_json::to_string(self).expect("a correction serialises")
    }

    pub fn from_source(source: &str) -> Option<Correction> {
        serde_json::from_str(source).ok()
    }

    /// How a list shows it: `VERDICT · question`.
    pub fn shown(&self) -> String {
        format!("{} · {}", self.verdict.as_str().replace('_', " "), self.question)
    }
}

/// A verdict as a moderator types it (any of `Verdict::parse`'s spellings,
/// or the Chinese words); never META.
pub fn verdict_of(text: &str) -> Option<Verdict> {
    let t = text.trim().trim_matches(|c: char| c.is_ascii_punctuation() || "。！".contains(c));
    let zh = match t {
        "是" | "对" => Some(Verdict::Yes),
        "不是" | "否" | "不对" => Some(Verdict::No),
        "是也不是" | "既是也不是" | "部分是" => Some(Verdict::YesAndNo),
        "无关" | "不重要" => Some(Verdict::Irrelevant),
        _ => None,
    };
    zh.or_else(|| Verdict::parse(t)).filter(|v| *v != Verdict::Meta)
}

impl Puzzle {
    /// This puzzle as a server plays it: each of `corrections` for it
    /// replaces the known answers that ask the same question and is added.
    pub fn corrected(&self, corrections: &[Correction]) -> Puzzle {
        let mut puzzle = self.clone();
        for c in corrections.iter().filter(|c| c.puzzle == self.id) {
            puzzle.known.retain(|k| !same_question(&k.question, &c.question, self.language));
            puzzle.known.push(Known { question: c.question.clone(), verdict: c.verdict });
        }
        puzzle
    }

    /// What the puzzle's lint says about `correction` once it is in.
    fn correction_problems(&self, correction: &Correction) -> Vec<String> {
        let corrected = self.corrected(std::slice::from_ref(correction));
        let at = format!("known[{}].", corrected.known.len() - 1);
        corrected.validate().into_iter().filter(|p| p.field.starts_with(&at)).map(|p| p.reason).collect()
    }
}

#[cfg(test)]
mod tests;
