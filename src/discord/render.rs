//! Turning replies into Discord-sized, harmless text: mention
//! neutralisation (both ways), splitting at 2,000 characters or filing as
//! an attachment, verdict colours, the end-of-game summary and the Markdown
//! transcript. Pure functions: sending is elsewhere.

use crate::core::game::record::Verdict;
use crate::core::game::{Reply, ReplyKind};
use crate::core::soup::SoupGame;
use crate::core::soup::puzzle::Puzzle;
use crate::core::store::LoadedSession;
use crate::core::vocab::Language;

use super::words::{Word, say};

/// Discord's limit for one message's text.
pub const MAX_MESSAGE_CHARS: usize = 2_000;
const ZWSP: char = '\u{200B}';

/// Makes platform text unable to ping or hide: a zero-width space after
/// every `@` (so `@everyone`, `@here`, `<@id>`, `<@!id>` and `<@&role>` are
/// inert), and control characters other than newline and tab removed.
pub fn neutralise(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            continue;
        }
        out.push(c);
        if c == '@' || c == '＠' {
            out.push(ZWSP);
        }
    }
    out
}

/// A display name safe to put in bold text: neutralised, Markdown
/// characters escaped, one line, at most 64 characters.
pub fn safe_name(name: &str) -> String {
    let one_line: String = neutralise(name).chars().filter(|c| *c != '\n' && *c != '\t').take(64).collect();
    let mut out = String::with_capacity(one_line.len());
    for c in one_line.chars() {
        if matches!(c, '*' | '_' | '~' | '`' | '|' | '>' | '[' | ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    if out.trim().is_empty() { "player".into() } else { out }
}

pub use crate::bot::text::chunks;

/// One message to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outgoing {
    pub text: String,
    pub colour: u32,
    /// An attachment: file name and contents.
    pub file: Option<(String, Vec<u8>)>,
}

/// Plans the messages for a reply: one embed per 2,000 characters, or,
/// past `max_messages`, the start of the text and the whole as a file.
pub fn plan(reply: &Reply, lang: Language, max_messages: usize) -> Vec<Outgoing> {
    let text = neutralise(&reply.text);
    let colour = colour(reply);
    let pieces = chunks(&text, MAX_MESSAGE_CHARS);
    if pieces.len() <= max_messages.max(1) {
        return pieces.into_iter().map(|text| Outgoing { text, colour, file: None }).collect();
    }
    let note = say(lang, &Word::FullTextAttached);
    let head: String = pieces[0].chars().take(MAX_MESSAGE_CHARS - note.chars().count() - 2).collect();
    let file = (format!("{}.md", reply_name(reply.kind)), text.into_bytes());
    vec![Outgoing { text: format!("{head}\n\n{note}"), colour, file: Some(file) }]
}

fn reply_name(kind: ReplyKind) -> &'static str {
    match kind {
        ReplyKind::History => "history",
        ReplyKind::Solved | ReplyKind::Ended => "story",
        _ => "reply",
    }
}

/// Colour-coded verdicts and reply kinds.
pub fn colour(reply: &Reply) -> u32 {
    match (reply.kind, reply.verdict) {
        (_, Some(Verdict::Yes)) => 0x2E_CC71,
        (_, Some(Verdict::No)) => 0xE7_4C3C,
        (_, Some(Verdict::YesAndNo)) => 0xF3_9C12,
        (_, Some(Verdict::Irrelevant)) => 0x95_A5A6,
        (_, Some(Verdict::Meta)) => 0x34_98DB,
        (ReplyKind::Intro, _) => 0x1A_BC9C,
        (ReplyKind::Solved, _) => 0xF1_C40F,
        (ReplyKind::Guess, _) => 0x9B_59B6,
        (ReplyKind::Hint, _) => 0xE6_7E22,
        (ReplyKind::Status | ReplyKind::History, _) => 0x58_65F2,
        (ReplyKind::Ended, _) => 0x34_495E,
        (ReplyKind::Chatter, _) => 0xBD_C3C7,
        (_, _) => 0x7F_8C8D,
    }
}

/// The end-of-game summary: who found which key fact, and the scores.
pub fn summary(puzzle: &Puzzle, game: &SoupGame, lang: Language) -> String {
    let name_of = |id: &str| game.players.get(id).map_or_else(|| "?".to_string(), |t| safe_name(&t.name));
    let mut out = format!(
        "**{}** · {}\n\n**{}**\n",
        say(lang, &Word::GameOver),
        neutralise(&puzzle.title),
        say(lang, &Word::KeyFacts)
    );
    for fact in &puzzle.facts {
        let who = match game.found.get(&fact.id) {
            Some(player) => format!("✅ {} · {}", neutralise(&fact.text), say(lang, &Word::FoundBy(&name_of(player)))),
            None => format!("▫️ {} · {}", neutralise(&fact.text), say(lang, &Word::NotFound)),
        };
        out.push_str(&who);
        out.push('\n');
    }
    out.push_str(&format!("\n**{}**\n", say(lang, &Word::Scores)));
    let mut points = game.player_points();
    points.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.1.cmp(&b.1)));
    if points.is_empty() {
        out.push_str(&say(lang, &Word::NoPoints));
    }
    for (_, name, pts) in &points {
        out.push_str(&format!("{}: {pts}\n", safe_name(name)));
    }
    out.push_str(&format!("\n{}", say(lang, &Word::TranscriptAttached)));
    out
}

/// The whole game as Markdown, for the attachment posted at the end and
/// `/soup transcript`; mentions neutralised.
pub fn transcript(puzzle: &Puzzle, session: &LoadedSession, game: &SoupGame) -> String {
    neutralise(&crate::core::soup::transcript::markdown(puzzle, session, game))
}

#[cfg(test)]
mod tests;
