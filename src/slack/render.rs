//! Turning replies into Slack-sized, harmless text: mention and special
//! token neutralisation (`<!channel>`, `<!here>`, `<!everyone>`, `<@U…>`,
//! `<#C…>`, `<!subteam^…>` all become plain text), splitting long replies,
//! the intro as Block Kit with its buttons, and the end-of-game summary with
//! a transcript snippet. Pure functions: sending is in `web.rs`.

use serde_json::json;
use slack_morphism::prelude::SlackBlock;

use crate::core::catalogue::{ButtonStyle, ShownButton};
use crate::core::game::Reply;
use crate::core::game::record::Verdict;
use crate::core::soup::SoupGame;
use crate::core::soup::puzzle::Puzzle;
use crate::core::store::LoadedSession;
use crate::core::vocab::Language;

use super::words::{Word, say};

/// One message's text, well under Slack's 40,000-character limit and its
/// 4,000-character display cut.
pub const MAX_MESSAGE_CHARS: usize = 3_900;
/// A section block's text limit.
const MAX_SECTION_CHARS: usize = 3_000;
/// Turns shown in the end-of-game transcript snippet.
const SNIPPET_TURNS: usize = 8;

/// Under `/soup forget-me`: erase my memory and stats.
pub const BUTTON_FORGET: &str = "soup_forget_me";

const ZWSP: char = '\u{200B}';

/// Makes text unable to ping, link or hide: Slack's control characters
/// `&`, `<`, `>` escaped (so no `<!…>`, `<@…>`, `<#…>` token survives), a
/// zero-width space after every `@` (plain `@channel`, `@here`), and
/// control characters other than newline and tab removed.
pub fn neutralise(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '@' | '＠' => {
                out.push(c);
                out.push(ZWSP);
            }
            c if c.is_control() && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

/// A name safe inside bold text: neutralised, mrkdwn characters removed,
/// one line, at most 64 characters.
pub fn safe_name(name: &str) -> String {
    let clean: String =
        neutralise(name).chars().filter(|c| !matches!(c, '*' | '_' | '~' | '`' | '\n' | '\t')).take(64).collect();
    if clean.trim().is_empty() { "player".into() } else { clean }
}

/// The messages for a reply: neutralised, a verdict mark in front, split at
/// `MAX_MESSAGE_CHARS`; past `max_messages`, cut with a note.
pub fn plan(reply: &Reply, lang: Language, max_messages: usize) -> Vec<String> {
    let text = format!("{}{}", mark(reply.verdict), neutralise(&reply.text));
    let mut pieces = crate::bot::text::chunks(&text, MAX_MESSAGE_CHARS);
    let max = max_messages.max(1);
    if pieces.len() > max {
        pieces.truncate(max);
        if let Some(last) = pieces.last_mut() {
            last.push_str(&format!("\n\n{}", say(lang, &Word::Cut)));
        }
    }
    pieces
}

fn mark(verdict: Option<Verdict>) -> &'static str {
    match verdict {
        Some(Verdict::Yes) => "🟢 ",
        Some(Verdict::No) => "🔴 ",
        Some(Verdict::YesAndNo) => "🟠 ",
        Some(Verdict::Irrelevant) => "⚪ ",
        Some(Verdict::Meta) => "🔵 ",
        None => "",
    }
}

/// The game's first message: title, the intro text in sections, and the
/// buttons its declaration puts under it (Hint / Status / Give up).
pub fn intro_blocks(puzzle: &Puzzle, intro: &Reply, buttons: &[ShownButton]) -> Vec<SlackBlock> {
    let mut blocks = vec![json!({
        "type": "header",
        "text": {"type": "plain_text", "text": format!("🐢 {}", puzzle.title).chars().take(150).collect::<String>()}
    })];
    for piece in crate::bot::text::chunks(&neutralise(&intro.text), MAX_SECTION_CHARS) {
        blocks.push(json!({"type": "section", "text": {"type": "mrkdwn", "text": piece}}));
    }
    let button = |b: &ShownButton| {
        let mut shown = json!({"type": "button", "action_id": b.id, "text": {"type": "plain_text", "text": b.label}});
        match b.style {
            ButtonStyle::Primary => shown["style"] = json!("primary"),
            ButtonStyle::Danger => shown["style"] = json!("danger"),
            ButtonStyle::Secondary => {}
        }
        shown
    };
    if !buttons.is_empty() {
        let elements: Vec<serde_json::Value> = buttons.iter().map(button).collect();
        blocks.push(json!({"type": "actions", "block_id": "soup_buttons", "elements": elements}));
    }
    blocks.into_iter().filter_map(|b| serde_json::from_value(b).ok()).collect()
}

/// The end of a game: key facts and who found them, the scores, and the
/// last turns as a snippet.
pub fn summary(puzzle: &Puzzle, session: &LoadedSession, game: &SoupGame, lang: Language) -> String {
    let name_of = |id: &str| game.players.get(id).map_or_else(|| "?".to_string(), |t| safe_name(&t.name));
    let mut out = format!(
        "*{}* · {}\n\n*{}*\n",
        say(lang, &Word::GameOver),
        neutralise(&puzzle.title),
        say(lang, &Word::KeyFacts)
    );
    for fact in &puzzle.facts {
        let line = match game.found.get(&fact.id) {
            Some(player) => {
                format!("✅ {} · {}\n", neutralise(&fact.text), say(lang, &Word::FoundBy(&name_of(player))))
            }
            None => format!("▫️ {} · {}\n", neutralise(&fact.text), say(lang, &Word::NotFound)),
        };
        out.push_str(&line);
    }
    out.push_str(&format!("\n*{}*\n", say(lang, &Word::Scores)));
    let mut points = game.player_points();
    points.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.1.cmp(&b.1)));
    if points.is_empty() {
        out.push_str(&say(lang, &Word::NoPoints));
        out.push('\n');
    }
    for (_, name, pts) in &points {
        out.push_str(&format!("{}: {pts}\n", safe_name(name)));
    }
    out.push_str(&format!("\n*{}*\n```\n{}```", say(lang, &Word::LastTurns), snippet(session)));
    out
}

/// The last turns, one line each: who said what, and the reply's first line.
fn snippet(session: &LoadedSession) -> String {
    let turns: Vec<_> = session.turns.iter().filter(|t| t.kind != "start").collect();
    let skip = turns.len().saturating_sub(SNIPPET_TURNS);
    let mut out = String::new();
    for turn in &turns[skip..] {
        let said = if turn.input.is_empty() { format!("/{}", turn.kind) } else { one_line(&turn.input, 120) };
        let answer = one_line(turn.reply.text.lines().next().unwrap_or_default(), 120);
        out.push_str(&format!(
            "{}. {}: {} → {}\n",
            turn.seq,
            safe_name(&turn.player.name),
            neutralise(&said),
            neutralise(&answer)
        ));
    }
    out.replace("```", "'''")
}

fn one_line(text: &str, max: usize) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(max).collect()
}

/// Undoes Slack's escaping of `&`, `<`, `>` in what a user typed.
pub fn unescape(text: &str) -> String {
    text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
}

#[cfg(test)]
mod tests;
