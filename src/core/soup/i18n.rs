//! Every fixed sentence the game says to players, in each language: the
//! words are in `en.ftl` and `zh.ftl` beside this file; `say` says one
//! `Msg` with its values.
//!
//! Fixed text is the safe path: it is written here, not by a model, so it
//! can never carry the answer. Model-written text is only the Narrator's
//! remark, and it is cut and checked elsewhere.

use crate::core::soup::puzzle::Puzzle;

use crate::core::soup::verdict::Verdict;
use crate::core::soup::{GuessGrade, Phase, Rejection};
use crate::core::text::InputProblem;
use crate::core::vocab::Language;
use crate::phrase;

crate::phrasebook!(BOOK, "core/soup");

/// A fixed message and its arguments.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg<'a> {
    Intro(&'a Puzzle, u32),
    Verdict(Verdict),
    Repeat,
    Guess(GuessGrade),
    Solved {
        name: &'a str,
        score: u32,
        bottom: &'a str,
    },
    Hint {
        n: u32,
        limit: u32,
        text: &'a str,
    },
    Rejected(Rejection),
    Input(InputProblem),
    GaveUp {
        bottom: &'a str,
    },
    Revealed {
        bottom: &'a str,
    },
    Chatter,
    Unclear,
    /// The Judge cannot tell (too small a model, no known answer close).
    CantTell,
    /// A reply the secrecy gate stopped.
    Withheld,
    ModelDown,
    NoRemark(Verdict, usize),
    Expired,
    /// A move this game does not have (a vote in Turtle Soup).
    NotInThisGame,
}

pub fn say(lang: Language, msg: &Msg<'_>) -> String {
    match msg {
        Msg::Intro(p, limit) => phrase!(
            BOOK,
            lang,
            "intro",
            title = p.title.as_str(),
            difficulty = p.difficulty.to_string(),
            surface = p.surface.trim(),
            limit = *limit
        ),
        Msg::Verdict(v) => verdict_label(lang, *v).to_owned(),
        Msg::Repeat => phrase!(BOOK, lang, "repeat"),
        // A right guess says nothing itself: the solve says it.
        Msg::Guess(g) if g.solved => String::new(),
        Msg::Guess(g) => {
            phrase!(BOOK, lang, "guess-not-quite", stated = g.stated, facts = g.fact_count, found = g.found_total)
        }
        Msg::Solved { name, score, bottom } => {
            phrase!(BOOK, lang, "solved", name = *name, score = *score, bottom = bottom.trim())
        }
        Msg::Hint { n, limit, text } => phrase!(BOOK, lang, "hint", n = *n, limit = *limit, text = *text),
        Msg::Rejected(r) => rejected(lang, r),
        Msg::Input(InputProblem::Empty) => phrase!(BOOK, lang, "input-empty"),
        Msg::Input(InputProblem::TooLong { chars, max }) => {
            phrase!(BOOK, lang, "input-too-long", chars = *chars, max = *max)
        }
        Msg::GaveUp { bottom } => phrase!(BOOK, lang, "gave-up", bottom = bottom.trim()),
        Msg::Revealed { bottom } => phrase!(BOOK, lang, "revealed", bottom = bottom.trim()),
        Msg::Chatter => phrase!(BOOK, lang, "chatter"),
        Msg::Unclear => phrase!(BOOK, lang, "unclear"),
        Msg::CantTell => phrase!(BOOK, lang, "cant-tell"),
        Msg::Withheld => phrase!(BOOK, lang, "withheld"),
        Msg::ModelDown => phrase!(BOOK, lang, "model-down"),
        Msg::NoRemark(v, n) => stock_remark(lang, *v, *n).to_owned(),
        Msg::Expired => phrase!(BOOK, lang, "expired"),
        Msg::NotInThisGame => phrase!(BOOK, lang, "not-in-this-game"),
    }
}

fn rejected(lang: Language, r: &Rejection) -> String {
    match r {
        Rejection::NotStarted => phrase!(BOOK, lang, "not-started"),
        Rejection::AlreadyStarted => phrase!(BOOK, lang, "already-started"),
        Rejection::GameOver(phase) => phrase!(BOOK, lang, "game-over", phase = phase_label(lang, *phase)),
        Rejection::NoHintsLeft { limit } => phrase!(BOOK, lang, "no-hints-left", limit = *limit),
    }
}

pub fn verdict_label(lang: Language, v: Verdict) -> &'static str {
    let id = match v {
        Verdict::Yes => "verdict-yes",
        Verdict::No => "verdict-no",
        Verdict::YesAndNo => "verdict-yes-and-no",
        Verdict::Irrelevant => "verdict-irrelevant",
        Verdict::Meta => "verdict-meta",
    };
    BOOK.fixed(lang, id)
}

pub fn phase_label(lang: Language, phase: Phase) -> &'static str {
    let id = match phase {
        Phase::Lobby => "phase-lobby",
        Phase::InProgress => "phase-in-progress",
        Phase::Solved => "phase-solved",
        Phase::GaveUp => "phase-gave-up",
        Phase::Revealed => "phase-revealed",
        Phase::Expired => "phase-expired",
    };
    BOOK.fixed(lang, id)
}

/// A remark used when the Narrator is off or failed: one line of the
/// verdict's `remarks-…` message, `n` picking which.
fn stock_remark(lang: Language, v: Verdict, n: usize) -> &'static str {
    let id = match v {
        Verdict::Yes => "remarks-yes",
        Verdict::No => "remarks-no",
        Verdict::YesAndNo => "remarks-yes-and-no",
        Verdict::Irrelevant => "remarks-irrelevant",
        Verdict::Meta => "remarks-meta",
    };
    let options: Vec<&'static str> = BOOK.fixed(lang, id).lines().collect();
    options[n % options.len()]
}
