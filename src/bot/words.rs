//! Every fixed sentence the chat bots themselves say (game text comes from
//! `core::soup::i18n`), written once in each language a scope can choose. What
//! differs by platform is not the sentence but its markup (bold) and the
//! platform's own nouns (server or workspace, thread or channel, moderators
//! or admins): `Markup` picks those. It names no platform crate; the front
//! ends' `words.rs` say these with their own `Markup`. The sentences are in
//! `en.rs` and `zh.rs`, one function per section of `Word` (`Part`).

mod en;
mod zh;

use std::fmt::Display;

use crate::core::vocab::Language;

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
    BadOption,
    GuildOnly,
    BadModel,
    // A game in play, and its end.
    Thinking,
    ButtonHint,
    ButtonStatus,
    ButtonGiveUp,
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
    let nouns = nouns(lang, markup);
    match lang {
        Language::En => en::say(markup, nouns, word),
        Language::Zh => zh::say(markup, nouns, word),
    }
}

/// How a platform names its own things, in one language: the parts of a
/// sentence that change with the platform while the sentence stays.
struct Nouns {
    platform: &'static str,
    /// Who shares settings and custom puzzles: a server, a workspace.
    scope: &'static str,
    /// This scope, as a place ("on this server", "本服务器").
    this_scope: &'static str,
    /// Where a game is played: a Discord thread, a Slack channel.
    place: &'static str,
    /// Where to go when `place` already has a game.
    play_it: &'static str,
    /// The moderators, as a heading.
    moderators: &'static str,
    /// One moderator, opening a sentence.
    a_moderator: &'static str,
    /// Who may run the moderators' commands.
    who_moderates: &'static str,
}

static EN_DISCORD: Nouns = Nouns {
    platform: "Discord",
    scope: "server",
    this_scope: "on this server",
    place: "thread",
    play_it: "play it, or start another in a channel",
    moderators: "Moderators",
    a_moderator: "A moderator",
    who_moderates: "moderators (Manage Threads, or the moderator role)",
};

static EN_SLACK: Nouns = Nouns {
    platform: "Slack",
    scope: "workspace",
    this_scope: "in this workspace",
    place: "channel",
    play_it: "play it in its thread",
    moderators: "Admins",
    a_moderator: "An admin",
    who_moderates: "the workspace's Turtle Soup admins",
};

static ZH_DISCORD: Nouns = Nouns {
    platform: "Discord",
    scope: "服务器",
    this_scope: "本服务器",
    place: "帖",
    play_it: "继续玩，或在频道里另开一局",
    moderators: "管理员",
    a_moderator: "管理员",
    who_moderates: "管理员（拥有“管理帖子”权限或管理员身份组）",
};

static ZH_SLACK: Nouns = Nouns {
    platform: "Slack",
    scope: "工作区",
    this_scope: "本工作区",
    place: "频道",
    play_it: "请在它的讨论串里继续",
    moderators: "管理员",
    a_moderator: "管理员",
    who_moderates: "本工作区的海龟汤管理员",
};

fn nouns(lang: Language, markup: Markup) -> &'static Nouns {
    match (lang, markup) {
        (Language::En, Markup::Discord) => &EN_DISCORD,
        (Language::En, Markup::Slack) => &EN_SLACK,
        (Language::Zh, Markup::Discord) => &ZH_DISCORD,
        (Language::Zh, Markup::Slack) => &ZH_SLACK,
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

/// The sections of `Word`, so that each language's sentences are written
/// in one short function per section; `of` names every variant, so a new
/// one must be placed before it can be said.
#[derive(Clone, Copy)]
enum Part {
    /// Starting and finding a game, and a seated game's lobby.
    Start,
    /// Refusals and failures.
    Refusal,
    /// A game in play, and its end.
    Play,
    /// The moderators' commands.
    Moderation,
    /// Headings and tags of lists, a player's record, and forgetting one.
    Lists,
}

impl Part {
    fn of(word: &Word<'_>) -> Part {
        match word {
            Word::NoGameHere
            | Word::AlreadyRunning
            | Word::WrongChannel(..)
            | Word::StartedIn { .. }
            | Word::NoPuzzleMatches
            | Word::UnknownPuzzle { .. }
            | Word::UnknownVerb(..)
            | Word::NoTableHere { .. }
            | Word::LobbyOpen { .. }
            | Word::DmsClosed { .. } => Part::Start,
            Word::SlowDown(..)
            | Word::NotModerator
            | Word::Oops
            | Word::BadOption
            | Word::GuildOnly
            | Word::BadModel => Part::Refusal,
            Word::Thinking
            | Word::ButtonHint
            | Word::ButtonStatus
            | Word::ButtonGiveUp
            | Word::ButtonJoin
            | Word::ButtonLeave
            | Word::ButtonBegin
            | Word::GameOver
            | Word::KeyFacts
            | Word::FoundBy(..)
            | Word::NotFound
            | Word::Scores
            | Word::NoPoints
            | Word::TranscriptAttached
            | Word::LastTurns
            | Word::TranscriptOf(..)
            | Word::NoTranscriptYet(..)
            | Word::FullTextAttached
            | Word::Cut
            | Word::EndedByModerator => Part::Play,
            Word::Done
            | Word::ConfigSet { .. }
            | Word::PuzzleAdded { .. }
            | Word::PuzzleInvalid(..)
            | Word::PuzzleExists(..)
            | Word::PuzzleUnreadable
            | Word::FileUnreadable { .. }
            | Word::PuzzleRemoved(..)
            | Word::NotCustom(..)
            | Word::PuzzleEnabled(..)
            | Word::PuzzleDisabled(..)
            | Word::NextPuzzle(..)
            | Word::ContentAdded { .. }
            | Word::ContentExists(..)
            | Word::ContentRemoved(..)
            | Word::NoSuchContent { .. }
            | Word::NoContent { .. }
            | Word::ContentHeading { .. } => Part::Moderation,
            Word::Players
            | Word::Moderators
            | Word::Leaderboard { .. }
            | Word::SoupStats { .. }
            | Word::NoStats(..)
            | Word::ForgetConfirm
            | Word::ForgetButton
            | Word::Forgotten(..)
            | Word::NoScores
            | Word::Puzzles
            | Word::Custom
            | Word::Disabled
            | Word::OtherGames => Part::Lists,
        }
    }
}

#[cfg(test)]
mod tests;
