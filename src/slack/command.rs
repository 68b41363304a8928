//! `/soup <verb> …` text, parsed once into a closed enum. Verbs are those
//! the catalogue lists for Slack (`soup` group; `admin …` for the
//! `soup-admin` group); anything else is `Unknown`, answered with a help
//! line. Parsing is pure: no lookups, no permissions.

use std::collections::BTreeSet;

use crate::bot::Wanted;
use crate::core::catalogue::{Catalogue, Frontend, Parsed};
use crate::core::game::TurnInput;
use crate::core::soup::corrections::verdict_of;
use crate::core::vocab::Difficulty;
use crate::core::vocab::Language;

/// A player verb.
#[derive(Debug, Clone, PartialEq)]
pub enum SoupCommand {
    Start(WantedArgs),
    /// A turn for the channel's game; `limited` turns count toward the rate limit.
    Turn {
        input: TurnInput,
        limited: bool,
    },
    /// This workspace's board, or everyone's.
    Leaderboard {
        global: bool,
    },
    /// A player's record: a mentioned user (`<@U…>`), else the caller.
    Stats(Option<String>),
    /// Asks the caller to confirm erasing their memory and stats.
    ForgetMe,
    /// The last finished game here, as a file.
    Transcript,
    Puzzles(Option<Language>),
    Help,
    Admin(AdminCommand),
    /// Not a verb here, or a verb missing what it needs: the help line.
    Unknown(String),
}

/// `start` options: puzzle id, difficulty and language, in any order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WantedArgs {
    pub id: Option<String>,
    pub difficulty: Option<Difficulty>,
    pub language: Option<Language>,
    /// AI players at the table (`ai_players:2`).
    pub ai_players: u32,
}

impl From<WantedArgs> for Wanted {
    fn from(w: WantedArgs) -> Wanted {
        Wanted { id: w.id, difficulty: w.difficulty, language: w.language }
    }
}

/// A moderator verb (`/soup admin …`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdminCommand {
    PuzzleList,
    /// The puzzle's TOML text, pasted (a code block's fences are removed).
    PuzzleAdd(String),
    PuzzleRemove(String),
    PuzzleEnable(String),
    PuzzleDisable(String),
    PuzzleNext(String),
    /// `known add [puzzle] <verdict> [question…]`: the verdict one word
    /// (`YES_AND_NO`, `是也不是`) or `yes and no`; without a question, the
    /// last one answered in the channel's game.
    KnownAdd {
        puzzle: Option<String>,
        verdict: String,
        question: Option<String>,
    },
    KnownList(Option<String>),
    KnownRemove(String),
    Reveal,
    End,
    Language(Language),
    HintLimit(u32),
    /// A channel id (`C…`), from `<#C…|name>` or bare.
    Channel(String),
    Model(String),
    /// A user group id (`S…`) whose members become moderators here.
    ModRole(String),
}

/// The slash command a catalogue group is typed under on Slack: Turtle
/// Soup's moderator verbs are `/soup admin …`; every other group is its
/// own command (`/soup`, a hosted game's `/undercover`, which
/// `SlackBot::hosted_for` routes to its game).
pub fn slash_command(group: &str) -> String {
    match group {
        "soup-admin" => "/soup".to_string(),
        group => format!("/{group}"),
    }
}

/// Every slash command the bot answers: one per catalogue group offered
/// on Slack. The app manifest registers exactly these (`manifest.rs`).
pub fn slash_commands(catalogue: &Catalogue) -> BTreeSet<String> {
    catalogue.for_frontend(Frontend::Slack).map(|v| slash_command(&v.group)).collect()
}

/// Parses the text after `/soup`.
pub fn parse(text: &str, catalogue: &Catalogue) -> SoupCommand {
    let text = text.trim();
    let (verb, rest) = split_word(text);
    let verb = verb.to_lowercase();
    if verb == "admin" {
        return parse_admin(rest, catalogue);
    }
    let input = match catalogue.read_line(Frontend::Slack, "soup", text, "/soup ") {
        Ok(Parsed::Input { input, .. }) => input,
        Ok(Parsed::Bot { verb, .. }) => return bot_verb(&verb.name, rest),
        Err(_) => return SoupCommand::Unknown(verb),
    };
    // A turn with words (a question, a guess) counts toward the rate limit.
    let limited = !input.text().is_empty();
    SoupCommand::Turn { input, limited }
}

/// A verb the bot answers itself.
fn bot_verb(verb: &str, rest: &str) -> SoupCommand {
    match verb {
        "start" => SoupCommand::Start(wanted(rest)),
        "leaderboard" => SoupCommand::Leaderboard {
            global: matches!(rest.trim().to_lowercase().as_str(), "global" | "all" | "everywhere"),
        },
        "stats" => SoupCommand::Stats(mentioned(rest)),
        "forget-me" => SoupCommand::ForgetMe,
        "transcript" => SoupCommand::Transcript,
        "puzzles" => SoupCommand::Puzzles(Language::parse(rest.trim())),
        "help" => SoupCommand::Help,
        other => SoupCommand::Unknown(other.to_string()),
    }
}

fn parse_admin(text: &str, catalogue: &Catalogue) -> SoupCommand {
    let (first, rest) = split_word(text.trim());
    let (second, arg) = split_word(rest);
    let first = first.to_lowercase();
    let second = second.to_lowercase();
    let two = format!("{first} {second}");
    let (name, arg) = if offered(catalogue, "soup-admin", &two) { (two, arg.trim()) } else { (first, rest.trim()) };
    let unknown = || SoupCommand::Unknown(format!("admin {name}"));
    if !offered(catalogue, "soup-admin", &name) {
        return unknown();
    }
    let id = || if arg.is_empty() { None } else { Some(arg.split_whitespace().next().unwrap_or(arg).to_string()) };
    let command = match name.as_str() {
        "puzzle list" => Some(AdminCommand::PuzzleList),
        "puzzle add" => Some(AdminCommand::PuzzleAdd(unfence(arg))).filter(|_| !arg.is_empty()),
        "puzzle remove" => id().map(AdminCommand::PuzzleRemove),
        "puzzle enable" => id().map(AdminCommand::PuzzleEnable),
        "puzzle disable" => id().map(AdminCommand::PuzzleDisable),
        "puzzle next" => id().map(AdminCommand::PuzzleNext),
        "known add" => known_add(arg),
        "known list" => Some(AdminCommand::KnownList(id())),
        "known remove" => id().map(AdminCommand::KnownRemove),
        "reveal" => Some(AdminCommand::Reveal),
        "end" => Some(AdminCommand::End),
        "config language" => Language::parse(arg).map(AdminCommand::Language),
        "config hint-limit" => arg.parse::<u32>().ok().filter(|n| *n <= 20).map(AdminCommand::HintLimit),
        "config channel" => slack_id(arg, '#').map(AdminCommand::Channel),
        "config model" => id().map(AdminCommand::Model),
        "config mod-role" => slack_id(arg, '!').map(AdminCommand::ModRole),
        _ => None,
    };
    command.map_or_else(unknown, SoupCommand::Admin)
}

/// `[puzzle] <verdict> [question…]`; none with nothing after the puzzle.
fn known_add(arg: &str) -> Option<AdminCommand> {
    let arg = arg.trim();
    let (puzzle, rest) = match verdict_first(arg) {
        Some(_) => (None, arg),
        None => {
            let (puzzle, rest) = split_word(arg);
            (Some(puzzle.to_string()), rest.trim_start())
        }
    };
    // A word that is no verdict is still taken as one: the answer says
    // which verdicts there are.
    let (verdict, question) = verdict_first(rest).unwrap_or_else(|| split_word(rest));
    if verdict.is_empty() {
        return None;
    }
    let question = Some(question.trim().to_string()).filter(|q| !q.is_empty());
    Some(AdminCommand::KnownAdd { puzzle, verdict: verdict.to_string(), question })
}

/// A verdict at the start of `text` (`yes and no` is one) and the rest.
fn verdict_first(text: &str) -> Option<(&str, &str)> {
    let spelled = "yes and no";
    let (verdict, rest) = match text.get(..spelled.len()) {
        Some(head)
            if head.eq_ignore_ascii_case(spelled)
                && text[spelled.len()..].chars().next().is_none_or(char::is_whitespace) =>
        {
            (head, &text[spelled.len()..])
        }
        _ => split_word(text),
    };
    verdict_of(verdict).map(|_| (verdict, rest))
}

/// Whether the catalogue offers `group name` on Slack.
fn offered(catalogue: &Catalogue, group: &str, name: &str) -> bool {
    catalogue.for_frontend(Frontend::Slack).any(|v| v.group == group && v.name == name)
}

fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    match text.find(char::is_whitespace) {
        Some(i) => (&text[..i], &text[i..]),
        None => (text, ""),
    }
}

fn wanted(rest: &str) -> WantedArgs {
    let mut out = WantedArgs::default();
    for word in rest.split_whitespace() {
        let lower = word.to_lowercase();
        let ai = ["ai_players:", "ai-players:", "ai_players=", "ai:"].iter().find_map(|k| lower.strip_prefix(k));
        if let Some(n) = ai.and_then(|n| n.parse::<u32>().ok()) {
            out.ai_players = n.min(crate::core::soup::MAX_AI_PLAYERS);
        } else if let Some(d) = difficulty(&lower) {
            out.difficulty = Some(d);
        } else if let Some(l) = Language::parse(&lower) {
            out.language = Some(l);
        } else if out.id.is_none() {
            out.id = Some(word.to_string());
        }
    }
    out
}

fn difficulty(word: &str) -> Option<Difficulty> {
    match word {
        "easy" => Some(Difficulty::Easy),
        "medium" => Some(Difficulty::Medium),
        "hard" => Some(Difficulty::Hard),
        _ => None,
    }
}

/// `<#C123|general>`, `<!subteam^S123|team>` or a bare id → the id.
fn slack_id(arg: &str, sigil: char) -> Option<String> {
    let arg = arg.trim();
    let inner = arg.strip_prefix('<').and_then(|a| a.strip_suffix('>')).unwrap_or(arg);
    let inner = inner.strip_prefix(sigil).unwrap_or(inner);
    let inner = inner.strip_prefix("subteam^").unwrap_or(inner);
    let id = inner.split('|').next().unwrap_or_default();
    let valid = !id.is_empty() && id.len() <= 32 && id.chars().all(|c| c.is_ascii_alphanumeric());
    valid.then(|| id.to_string())
}

/// Removes a Markdown code fence around pasted text.
fn unfence(text: &str) -> String {
    let t = text.trim();
    let t = t.strip_prefix("```").and_then(|t| t.strip_suffix("```")).unwrap_or(t);
    let t = t.strip_prefix("toml").unwrap_or(t);
    t.trim().to_string()
}

#[cfg(test)]
mod tests;

/// The user a mention names (`<@U123>`, `<@U123|ann>`), if the text holds one.
fn mentioned(text: &str) -> Option<String> {
    let start = text.find("<@")? + 2;
    let rest = &text[start..];
    let end = rest.find(['>', '|'])?;
    let id = &rest[..end];
    (!id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric())).then(|| id.to_string())
}
