//! An AI seat's memory of the game (seed 002's per-agent memory): every
//! round's descriptions and every closed ballot's votes, rebuilt from the
//! state (all of it public once said or closed), fitted to a token budget
//! with the newest kept whole. Nothing here is private: a seat's own
//! reasons reach only its own prompts, through its `SeatView`'s own facts.
//!
//! The engine's context service fits it (`core::context::fit_record`).

use crate::core::prompts::PublicTurn;
use crate::core::vocab::Language;

use super::{Role, UndercoverGame, say};

/// Tokens an AI seat's record of the game may take in one prompt: an
/// 8-round game of 12 seats fits whole.
pub const RECORD_TOKENS: usize = 2_400;

fn label(g: &UndercoverGame, seat: &str) -> String {
    g.seats.label(seat)
}

/// The whole public record, oldest first: each round's descriptions in
/// the order they were given, then that round's closed ballots (every
/// vote, and who went out with their role, as the table showed them).
pub fn record(g: &UndercoverGame) -> Vec<PublicTurn> {
    let lang = g.language;
    let last = g.said.iter().map(|s| s.round).chain(g.votes.iter().map(|v| v.round)).max().unwrap_or(0);
    let mut out = Vec::new();
    for round in 1..=last {
        for s in g.said.iter().filter(|s| s.round == round) {
            let text = match &s.text {
                Some(text) => format!("“{text}”"),
                None => skipped_mark(lang).to_string(),
            };
            out.push(PublicTurn { player: label(g, &s.seat), text, outcome: format!("round {round}") });
        }
        for v in g.votes.iter().filter(|v| v.round == round) {
            let mut votes: Vec<String> =
                v.votes.iter().map(|(voter, target)| format!("{} → {}", label(g, voter), label(g, target))).collect();
            if let Some(seat) = &v.out {
                let role = g.role(seat).map_or("?", |r| say::role(lang, r));
                votes.push(out_line(lang, &label(g, seat), role));
            }
            let heading = say::votes_heading(lang, round, v.runoff);
            let heading = heading.trim_end_matches([':', '：']).to_string();
            out.push(PublicTurn { player: heading, text: votes.join("; "), outcome: format!("round {round}") });
        }
    }
    out
}

fn skipped_mark(lang: Language) -> &'static str {
    match lang {
        Language::En => "(no description)",
        Language::Zh => "（没有描述）",
    }
}

fn out_line(lang: Language, who: &str, role: &str) -> String {
    match lang {
        Language::En => format!("out: {who} ({role})"),
        Language::Zh => format!("出局：{who}（{role}）"),
    }
}

/// The record's own fixed words, for the word-pair check.
pub fn frames(lang: Language) -> String {
    [skipped_mark(lang).to_string(), out_line(lang, "", ""), crate::core::context::left_out(lang, 1)].join("\n")
}

/// The record as prompt lines (`#2 Bob: “…”`).
pub fn lines(record: &[PublicTurn]) -> Vec<String> {
    record.iter().map(|t| format!("{}: {}", t.player, t.text)).collect()
}

/// Whether a seat's reasons say it believes it holds the odd word.
pub fn suspects_itself(believes: &str) -> bool {
    believes == Role::Undercover.as_str() || believes == Role::Blank.as_str()
}
