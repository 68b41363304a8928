//! Every fixed sentence the chat bots themselves say (game text comes from
//! each game's own sentences), written once in each language a scope can
//! choose: the words are in `words/en.ftl` and `words/zh.ftl`, one message
//! per `Word`. What differs by platform is not the sentence but its markup
//! (bold) and the platform's own nouns (server or workspace, thread or
//! channel, moderators or admins): `Markup` picks those, the markup here
//! and the nouns in the files (they select on `$platform`). It names no
//! platform crate; the front ends' `words.rs` say these with their own
//! `Markup`.

use std::fmt::Display;

use crate::core::phrases::{Arg, flag};
use crate::core::vocab::Language;

crate::phrasebook!(BOOK, "bot/words");

/// Which chat platform a sentence is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Markup {
    Discord,
    Slack,
}

/// A fixed sentence, with the values it names. Not every platform says
/// every one (only Discord attaches files; only Slack posts "thinking…").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Word<'a> {
    // Starting and finding a game.
    NoGameHere,
    AlreadyRunning,
    WrongChannel(&'a str),
    StartedIn {
        thread: u64,
        title: &'a str,
    },
    NoPuzzleMatches,
    UnknownPuzzle {
        id: &'a str,
        near: &'a [String],
    },
    UnknownVerb(&'a str),
    // Seated games (`/<group> …`).
    NoTableHere {
        group: &'a str,
    },
    LobbyOpen {
        group: &'a str,
        thread: u64,
    },
    /// `verb` is the group's "show me my secret" verb (`whisper`, `word`).
    DmsClosed {
        group: &'a str,
        verb: &'a str,
    },
    // Refusals and failures.
    SlowDown(u64),
    NotModerator,
    Oops,
    /// The games' database is away: nothing was played; try again soon.
    DatabaseAway,
    BadOption,
    GuildOnly,
    BadModel,
    // A game in play, and its end.
    Thinking,
    ButtonJoin,
    ButtonLeave,
    ButtonBegin,
    GameOver,
    KeyFacts,
    FoundBy(&'a str),
    NotFound,
    Scores,
    NoPoints,
    TranscriptAttached,
    LastTurns,
    /// `/soup transcript`: the file of the game titled so.
    TranscriptOf(&'a str),
    /// `/soup transcript` where no game has ended yet (`true`: one is on).
    NoTranscriptYet(bool),
    FullTextAttached,
    Cut,
    EndedByModerator,
    // Moderators' commands.
    Done,
    ConfigSet {
        what: &'a str,
        value: &'a str,
    },
    PuzzleAdded {
        id: &'a str,
        title: &'a str,
    },
    PuzzleInvalid(&'a str),
    PuzzleExists(&'a str),
    PuzzleUnreadable,
    /// A content file (a world) that is not a small UTF-8 TOML file.
    FileUnreadable {
        max_kib: u32,
    },
    PuzzleRemoved(&'a str),
    NotCustom(&'a str),
    PuzzleEnabled(&'a str),
    PuzzleDisabled(&'a str),
    NextPuzzle(&'a str),
    /// A server's own content for a seated game (`/undercover pairs …`).
    ContentAdded {
        id: &'a str,
        shown: &'a str,
    },
    ContentExists(&'a str),
    ContentRemoved(&'a str),
    NoSuchContent {
        id: &'a str,
        group: &'a str,
    },
    NoContent {
        group: &'a str,
    },
    ContentHeading {
        group: &'a str,
    },
    /// A server's correction to a puzzle's known answers (`/soup-admin known …`).
    KnownAdded {
        id: &'a str,
        puzzle: &'a str,
        shown: &'a str,
    },
    /// The reasons the puzzle's lint gives, one per line.
    KnownRefused(&'a str),
    KnownBadQuestion,
    KnownBadVerdict,
    /// `known add` names no question, and no game was played here.
    KnownWhich,
    KnownNone,
    KnownHeading,
    KnownNoSuch(&'a str),
    // Headings and tags of lists.
    Players,
    Moderators,
    /// The board's heading: this scope's, or everyone's.
    Leaderboard {
        global: bool,
    },
    /// A player's Turtle Soup record (`/soup stats`).
    SoupStats {
        name: &'a str,
        games: u32,
        solves: u32,
        /// Questions per solve, formatted (`9.5`), or `–`.
        per_solve: &'a str,
        facts: u32,
        hints: u32,
        /// The difficulty they played most, in the sentence's language.
        favourite: &'a str,
    },
    NoStats(&'a str),
    /// `/soup forget-me`: what it erases, before the button.
    ForgetConfirm,
    ForgetButton,
    /// Erased: how many memories.
    Forgotten(usize),
    NoScores,
    Puzzles,
    Custom,
    Disabled,
    OtherGames,
}

/// `part` of `whole`, in whole percent (0 of nothing).
fn percent(part: u32, whole: u32) -> u32 {
    (100 * part + whole / 2).checked_div(whole).unwrap_or(0)
}

/// `word` in `lang`, in `markup`'s markup and nouns.
pub fn say(lang: Language, markup: Markup, word: &Word<'_>) -> String {
    let mut args = values(lang, markup, word);
    let platform = match markup {
        Markup::Discord => "discord",
        Markup::Slack => "slack",
    };
    args.push(("platform", platform.into()));
    BOOK.say(lang, message(word), &args)
}

/// The message that says `word`: every variant names one.
fn message(word: &Word<'_>) -> &'static str {
    match word {
        Word::NoGameHere => "no-game-here",
        Word::AlreadyRunning => "already-running",
        Word::WrongChannel(..) => "wrong-channel",
        Word::StartedIn { .. } => "started-in",
        Word::NoPuzzleMatches => "no-puzzle-matches",
        Word::UnknownPuzzle { .. } => "unknown-puzzle",
        Word::UnknownVerb(..) => "unknown-verb",
        Word::NoTableHere { .. } => "no-table-here",
        Word::LobbyOpen { .. } => "lobby-open",
        Word::DmsClosed { .. } => "dms-closed",
        Word::SlowDown(..) => "slow-down",
        Word::NotModerator => "not-moderator",
        Word::Oops => "oops",
        Word::DatabaseAway => "database-away",
        Word::BadOption => "bad-option",
        Word::GuildOnly => "guild-only",
        Word::BadModel => "bad-model",
        Word::Thinking => "thinking",
        Word::ButtonJoin => "button-join",
        Word::ButtonLeave => "button-leave",
        Word::ButtonBegin => "button-begin",
        Word::GameOver => "game-over",
        Word::KeyFacts => "key-facts",
        Word::FoundBy(..) => "found-by",
        Word::NotFound => "not-found",
        Word::Scores => "scores",
        Word::NoPoints => "no-points",
        Word::TranscriptAttached => "transcript-attached",
        Word::LastTurns => "last-turns",
        Word::TranscriptOf(..) => "transcript-of",
        Word::NoTranscriptYet(..) => "no-transcript-yet",
        Word::FullTextAttached => "full-text-attached",
        Word::Cut => "cut",
        Word::EndedByModerator => "ended-by-moderator",
        Word::Done => "done",
        Word::ConfigSet { .. } => "config-set",
        Word::PuzzleAdded { .. } => "puzzle-added",
        Word::PuzzleInvalid(..) => "puzzle-invalid",
        Word::PuzzleExists(..) => "puzzle-exists",
        Word::PuzzleUnreadable => "puzzle-unreadable",
        Word::FileUnreadable { .. } => "file-unreadable",
        Word::PuzzleRemoved(..) => "puzzle-removed",
        Word::NotCustom(..) => "not-custom",
        Word::PuzzleEnabled(..) => "puzzle-enabled",
        Word::PuzzleDisabled(..) => "puzzle-disabled",
        Word::NextPuzzle(..) => "next-puzzle",
        Word::ContentAdded { .. } => "content-added",
        Word::ContentExists(..) => "content-exists",
        Word::ContentRemoved(..) => "content-removed",
        Word::NoSuchContent { .. } => "no-such-content",
        Word::NoContent { .. } => "no-content",
        Word::ContentHeading { .. } => "content-heading",
        Word::KnownAdded { .. } => "known-added",
        Word::KnownRefused(..) => "known-refused",
        Word::KnownBadQuestion => "known-bad-question",
        Word::KnownBadVerdict => "known-bad-verdict",
        Word::KnownWhich => "known-which",
        Word::KnownNone => "known-none",
        Word::KnownHeading => "known-heading",
        Word::KnownNoSuch(..) => "known-no-such",
        Word::Players => "players",
        Word::Moderators => "moderators",
        Word::Leaderboard { .. } => "leaderboard",
        Word::SoupStats { .. } => "soup-stats",
        Word::NoStats(..) => "no-stats",
        Word::ForgetConfirm => "forget-confirm",
        Word::ForgetButton => "forget-button",
        Word::Forgotten(..) => "forgotten",
        Word::NoScores => "no-scores",
        Word::Puzzles => "puzzles",
        Word::Custom => "custom",
        Word::Disabled => "disabled",
        Word::OtherGames => "other-games",
    }
}

/// A message's values, by name.
type Args<'a> = Vec<(&'static str, Arg<'a>)>;

/// `word`'s values, by their names in its message (bold ones already in
/// `markup`); `say` adds the platform.
fn values<'a>(lang: Language, markup: Markup, word: &Word<'a>) -> Args<'a> {
    match *word {
        Word::WrongChannel(id) => vec![("channel", channel(id).into())],
        Word::StartedIn { thread, title } => {
            vec![("title", bold(markup, title).into()), ("channel", channel(thread).into())]
        }
        Word::UnknownPuzzle { id, near } => {
            let list = near.join(BOOK.fixed(lang, "near-separator"));
            vec![("id", id.into()), ("suggested", flag(!near.is_empty()).into()), ("near", list.into())]
        }
        Word::UnknownVerb(verb) => vec![("verb", verb.into())],
        Word::NoTableHere { group } | Word::NoContent { group } | Word::ContentHeading { group } => {
            vec![("group", group.into())]
        }
        Word::LobbyOpen { group, thread } => {
            vec![
                ("group", group.into()),
                ("bold_group", bold(markup, group).into()),
                ("channel", channel(thread).into()),
            ]
        }
        Word::DmsClosed { group, verb } => vec![("group", group.into()), ("verb", verb.into())],
        Word::SlowDown(seconds) => vec![("seconds", seconds.into())],
        Word::FoundBy(name) => vec![("name", name.into())],
        Word::TranscriptOf(title) => vec![("title", bold(markup, title).into())],
        Word::NoTranscriptYet(running) => vec![("running", flag(running).into())],
        Word::ConfigSet { what, value } => vec![("what", what.into()), ("value", value.into())],
        Word::PuzzleAdded { id, title } => vec![("id", id.into()), ("title", title.into())],
        Word::PuzzleInvalid(problems) => vec![("problems", problems.into())],
        Word::FileUnreadable { max_kib } => vec![("max_kib", max_kib.into())],
        Word::PuzzleExists(id)
        | Word::PuzzleRemoved(id)
        | Word::NotCustom(id)
        | Word::PuzzleEnabled(id)
        | Word::PuzzleDisabled(id)
        | Word::NextPuzzle(id)
        | Word::ContentExists(id)
        | Word::ContentRemoved(id)
        | Word::KnownNoSuch(id) => vec![("id", id.into())],
        Word::KnownAdded { id, puzzle, shown } => {
            vec![("id", id.into()), ("puzzle", puzzle.into()), ("shown", shown.into())]
        }
        Word::KnownRefused(reasons) => vec![("reasons", reasons.into())],
        Word::ContentAdded { id, shown } => vec![("id", id.into()), ("shown", shown.into())],
        Word::NoSuchContent { id, group } => vec![("id", id.into()), ("group", group.into())],
        Word::Leaderboard { global } => vec![("global", flag(global).into())],
        Word::SoupStats { name, games, solves, per_solve, facts, hints, favourite } => vec![
            ("name", bold(markup, name).into()),
            ("games", games.into()),
            ("solves", solves.into()),
            ("percent", percent(solves, games).into()),
            ("per_solve", per_solve.into()),
            ("facts", facts.into()),
            ("hints", hints.into()),
            ("favourite", favourite.into()),
        ],
        Word::NoStats(name) => vec![("name", bold(markup, name).into())],
        Word::Forgotten(count) => vec![("count", count.into())],
        _ => vec![],
    }
}

/// Bold text: Discord's markdown doubles the star, Slack's mrkdwn does not.
fn bold(markup: Markup, text: &str) -> String {
    match markup {
        Markup::Discord => format!("**{text}**"),
        Markup::Slack => format!("*{text}*"),
    }
}

/// A link to a channel (or a Discord thread), written alike on both
/// platforms.
fn channel(id: impl Display) -> String {
    format!("<#{id}>")
}

#[cfg(test)]
mod tests;
