//! Every fixed sentence the chat bots themselves say (game text comes from
//! `core::soup::i18n`), written once in each language a scope can choose. What
//! differs by platform is not the sentence but its markup (bold) and the
//! platform's own nouns (server or workspace, thread or channel, moderators
//! or admins): `Markup` picks those. It names no platform crate; the front
//! ends' `words.rs` say these with their own `Markup`.

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
        Language::En => en(markup, nouns, word),
        Language::Zh => zh(markup, nouns, word),
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

fn en(markup: Markup, n: &Nouns, word: &Word<'_>) -> String {
    match word {
        Word::NoGameHere => format!("There's no game in this {}. Start one with `/soup start`.", n.place),
        Word::AlreadyRunning => format!("This {} already has a game running: {}.", n.place, n.play_it),
        Word::WrongChannel(id) => format!("Games {} run in {}.", n.this_scope, channel(id)),
        Word::StartedIn { thread, title } => {
            format!("🐢 {} is on: join the game in {}.", bold(markup, title), channel(thread))
        }
        Word::NoPuzzleMatches => "No puzzle matches that; `/soup puzzles` lists them.".into(),
        Word::UnknownPuzzle { id, near: [] } => {
            format!("There is no puzzle `{id}` here; `/soup puzzles` lists them.")
        }
        Word::UnknownPuzzle { id, near } => {
            format!("There is no puzzle `{id}` here. Did you mean: {}?", near.join(", "))
        }
        Word::UnknownVerb(verb) => format!("I don't know `/soup {verb}`. `/soup help` lists the commands."),
        Word::NoTableHere { group } => {
            format!("There's no /{group} game in this {}. Open one with `/{group} start`.", n.place)
        }
        Word::LobbyOpen { group, thread } => {
            format!(
                "🎲 A {} lobby is open in {}: take a seat with `/{group} join`.",
                bold(markup, group),
                channel(thread)
            )
        }
        Word::DmsClosed { group, verb } => {
            format!("I could not send you a direct message. Use `/{group} {verb}` to see your secret privately.")
        }
        Word::SlowDown(secs) => format!("Easy there! You can take another turn in {secs} s."),
        Word::NotModerator => format!("Only {} can do that.", n.who_moderates),
        Word::Oops => "Something went wrong on my side and nothing was counted. Please try again in a moment.".into(),
        Word::BadOption => "I couldn't read that option; please check it and try again.".into(),
        Word::GuildOnly => format!("Turtle Soup is played in {} channels, not in direct messages.", n.scope),
        Word::BadModel => "Model names are letters, digits and `:._/-`, at most 100 characters.".into(),
        Word::Thinking => "_thinking…_".into(),
        Word::ButtonHint => "Hint".into(),
        Word::ButtonStatus => "Status".into(),
        Word::ButtonGiveUp => "Give up".into(),
        Word::ButtonJoin => "Join".into(),
        Word::ButtonLeave => "Leave".into(),
        Word::ButtonBegin => "Start".into(),
        Word::GameOver => "Game over".into(),
        Word::KeyFacts => "Key facts".into(),
        Word::FoundBy(name) => format!("found by {name}"),
        Word::NotFound => "not found".into(),
        Word::Scores => "Scores".into(),
        Word::NoPoints => "No points this time.".into(),
        Word::TranscriptAttached => "The full transcript is attached.".into(),
        Word::LastTurns => "Transcript (last turns)".into(),
        Word::TranscriptOf(title) => format!("The transcript of {}.", bold(markup, title)),
        Word::NoTranscriptYet(true) => {
            format!("The game in this {} is still on: its transcript is here once it ends.", n.place)
        }
        Word::NoTranscriptYet(false) => format!("No game has ended in this {} yet.", n.place),
        Word::FullTextAttached => "(The full text is attached.)".into(),
        Word::Cut => format!("(cut: the rest was too long for {})", n.platform),
        Word::EndedByModerator => format!("{} ended this game.", n.a_moderator),
        Word::Done => "Done.".into(),
        Word::ConfigSet { what, value } => format!("Done: {what} is now {value}."),
        Word::PuzzleAdded { id, title } => format!("Added `{id}` ({title}); it is enabled {} only.", n.this_scope),
        Word::PuzzleInvalid(problems) => format!("That puzzle has problems:\n{problems}"),
        Word::PuzzleExists(id) => format!("A puzzle `{id}` already exists; remove it first or choose another id."),
        Word::PuzzleUnreadable => "Attach the puzzle as a UTF-8 TOML file of at most 64 KiB.".into(),
        Word::FileUnreadable { max_kib } => format!("Attach a UTF-8 TOML file of at most {max_kib} KiB."),
        Word::PuzzleRemoved(id) => format!("Removed `{id}`."),
        Word::NotCustom(id) => format!("`{id}` is not one of this {}'s custom puzzles.", n.scope),
        Word::PuzzleEnabled(id) => format!("`{id}` is enabled here."),
        Word::PuzzleDisabled(id) => format!("`{id}` is disabled here."),
        Word::NextPuzzle(id) => format!("The next game in this channel will use `{id}`."),
        Word::ContentAdded { id, shown } => format!("Added `{id}`: {shown}. It is played {} only.", n.this_scope),
        Word::ContentExists(id) => format!("`{id}` is here already."),
        Word::ContentRemoved(id) => format!("Removed `{id}`."),
        Word::NoSuchContent { id, group } => {
            format!("There is no `{id}` here; `/{group} pairs list` shows what this {} added.", n.scope)
        }
        Word::NoContent { group } => format!("Nothing added {} yet: `/{group} pairs add` adds a pair.", n.this_scope),
        Word::ContentHeading { group } => format!("/{group}: added {}", n.this_scope),
        Word::Players => "Players".into(),
        Word::Moderators => n.moderators.into(),
        Word::Leaderboard { global: false } => format!("🏆 Leaderboard · {}", n.this_scope),
        Word::Leaderboard { global: true } => "🏆 Leaderboard · everywhere".into(),
        Word::SoupStats { name, games, solves, per_solve, facts, hints, favourite } => format!(
            "{}: {games} game{} finished {}, {solves} solved ({}%) · {per_solve} questions per solve · {facts} key facts found · {hints} hints · most played: {favourite}",
            bold(markup, name),
            if *games == 1 { "" } else { "s" },
            n.this_scope,
            percent(*solves, *games)
        ),
        Word::NoStats(name) => {
            format!("{} has not finished a Turtle Soup game {} yet.", bold(markup, name), n.this_scope)
        }
        Word::ForgetConfirm => "This erases what I remember about you (your past games, your profile) and starts your stats and leaderboard points afresh, everywhere. It can't be undone. Press the button to confirm.".into(),
        Word::ForgetButton => "Forget me".into(),
        Word::Forgotten(n) => format!("Done: {n} memories erased, and your record starts afresh."),
        Word::NoScores => "No scores yet: solve a puzzle to get on the board.".into(),
        Word::Puzzles => "Puzzles".into(),
        Word::Custom => "custom".into(),
        Word::Disabled => "disabled".into(),
        Word::OtherGames => "Other games".into(),
    }
}

fn zh(markup: Markup, n: &Nouns, word: &Word<'_>) -> String {
    match word {
        Word::NoGameHere => format!("本{}没有进行中的游戏。用 `/soup start` 开一局吧。", n.place),
        Word::AlreadyRunning => format!("本{}已经有一局游戏在进行：{}。", n.place, n.play_it),
        Word::WrongChannel(id) => format!("{}的游戏在 {} 进行。", n.this_scope, channel(id)),
        Word::StartedIn { thread, title } => {
            format!("🐢 {} 开始了：到 {} 参与游戏。", bold(markup, title), channel(thread))
        }
        Word::NoPuzzleMatches => "没有符合条件的谜题；用 `/soup puzzles` 查看列表。".into(),
        Word::UnknownPuzzle { id, near: [] } => {
            format!("这里没有谜题 `{id}`；用 `/soup puzzles` 查看列表。")
        }
        Word::UnknownPuzzle { id, near } => format!("这里没有谜题 `{id}`。你是不是想找：{}？", near.join("、")),
        Word::UnknownVerb(verb) => format!("我不认识 `/soup {verb}`。用 `/soup help` 查看命令。"),
        Word::NoTableHere { group } => {
            format!("本{}没有进行中的 /{group} 游戏。用 `/{group} start` 开一局吧。", n.place)
        }
        Word::LobbyOpen { group, thread } => {
            format!("🎲 {} 大厅已在 {} 开放：用 `/{group} join` 入座。", bold(markup, group), channel(thread))
        }
        Word::DmsClosed { group, verb } => format!("我无法私信你。请用 `/{group} {verb}` 私下查看你的秘密。"),
        Word::SlowDown(secs) => format!("慢一点！{secs} 秒后可以再行动。"),
        Word::NotModerator => format!("只有{}可以这样做。", n.who_moderates),
        Word::Oops => "我这边出了点问题，这次不计数。请稍后再试。".into(),
        Word::BadOption => "无法读取这个选项，请检查后重试。".into(),
        Word::GuildOnly => format!("海龟汤需要在{}频道里玩，不能在私信里玩。", n.scope),
        Word::BadModel => "模型名只能包含字母、数字和 `:._/-`，最长 100 个字符。".into(),
        Word::Thinking => "_思考中…_".into(),
        Word::ButtonHint => "提示".into(),
        Word::ButtonStatus => "状态".into(),
        Word::ButtonGiveUp => "放弃".into(),
        Word::ButtonJoin => "加入".into(),
        Word::ButtonLeave => "离开".into(),
        Word::ButtonBegin => "开始".into(),
        Word::GameOver => "游戏结束".into(),
        Word::KeyFacts => "关键事实".into(),
        Word::FoundBy(name) => format!("由 {name} 找到"),
        Word::NotFound => "未找到".into(),
        Word::Scores => "得分".into(),
        Word::NoPoints => "这局没有人得分。".into(),
        Word::TranscriptAttached => "完整记录见附件。".into(),
        Word::LastTurns => "记录（最后几轮）".into(),
        Word::TranscriptOf(title) => format!("{} 的完整记录。", bold(markup, title)),
        Word::NoTranscriptYet(true) => format!("这个{}的游戏还在进行，结束后才能取得记录。", n.place),
        Word::NoTranscriptYet(false) => format!("这个{}还没有结束过的游戏。", n.place),
        Word::FullTextAttached => "（完整内容见附件。）".into(),
        Word::Cut => "（其余内容太长，已截断）".into(),
        Word::EndedByModerator => format!("{}结束了这局游戏。", n.a_moderator),
        Word::Done => "完成。".into(),
        Word::ConfigSet { what, value } => format!("完成：{what} 现在是 {value}。"),
        Word::PuzzleAdded { id, title } => format!("已添加 `{id}`（{title}），仅在{}启用。", n.this_scope),
        Word::PuzzleInvalid(problems) => format!("这个谜题有问题：\n{problems}"),
        Word::PuzzleExists(id) => format!("谜题 `{id}` 已存在；请先删除它或换一个 id。"),
        Word::PuzzleUnreadable => "请附上不超过 64 KiB 的 UTF-8 TOML 谜题文件。".into(),
        Word::FileUnreadable { max_kib } => format!("请附上不超过 {max_kib} KiB 的 UTF-8 TOML 文件。"),
        Word::PuzzleRemoved(id) => format!("已删除 `{id}`。"),
        Word::NotCustom(id) => format!("`{id}` 不是{}的自定义谜题。", n.this_scope),
        Word::PuzzleEnabled(id) => format!("`{id}` 已在这里启用。"),
        Word::PuzzleDisabled(id) => format!("`{id}` 已在这里停用。"),
        Word::NextPuzzle(id) => format!("本频道下一局将使用 `{id}`。"),
        Word::ContentAdded { id, shown } => format!("已添加 `{id}`：{shown}。仅在{}使用。", n.this_scope),
        Word::ContentExists(id) => format!("`{id}` 已经在这里了。"),
        Word::ContentRemoved(id) => format!("已删除 `{id}`。"),
        Word::NoSuchContent { id, group } => {
            format!("这里没有 `{id}`；用 `/{group} pairs list` 查看{}添加的内容。", n.this_scope)
        }
        Word::NoContent { group } => format!("{}还没有添加内容：用 `/{group} pairs add` 添加词对。", n.this_scope),
        Word::ContentHeading { group } => format!("/{group}：{}添加的内容", n.this_scope),
        Word::Players => "玩家".into(),
        Word::Moderators => n.moderators.into(),
        Word::Leaderboard { global: false } => format!("🏆 排行榜 · {}", n.this_scope),
        Word::Leaderboard { global: true } => "🏆 排行榜 · 全部".into(),
        Word::SoupStats { name, games, solves, per_solve, facts, hints, favourite } => format!(
            "{}：{}打完 {games} 局，解开 {solves} 局（{}%）· 每次解开平均 {per_solve} 个问题 · 找到 {facts} 个关键事实 · 用了 {hints} 次提示 · 最常玩：{favourite}",
            bold(markup, name),
            n.this_scope,
            percent(*solves, *games)
        ),
        Word::NoStats(name) => format!("{} {}还没有打完的海龟汤。", bold(markup, name), n.this_scope),
        Word::ForgetConfirm => "这会抹去我对你的所有记忆（过去的对局、你的档案），并让你在各处的战绩和排行榜积分从零开始，无法撤销。按下按钮确认。".into(),
        Word::ForgetButton => "忘记我".into(),
        Word::Forgotten(n) => format!("完成：抹去了 {n} 条记忆，你的战绩从零开始。"),
        Word::NoScores => "还没有得分记录：解开一道题就能上榜。".into(),
        Word::Puzzles => "谜题".into(),
        Word::Custom => "自定义".into(),
        Word::Disabled => "已停用".into(),
        Word::OtherGames => "其他游戏".into(),
    }
}

#[cfg(test)]
mod tests;
