//! The bots' fixed sentences in Chinese, one function per section of
//! `Word` (see `Part`); `super::say` picks the language.

use super::{Markup, Nouns, Part, Word, bold, channel, percent};

/// `word` in Chinese: one function per section of `Word`.
pub(super) fn say(markup: Markup, n: &Nouns, word: &Word<'_>) -> String {
    match Part::of(word) {
        Part::Start => start(markup, n, word),
        Part::Refusal => refusal(n, word),
        Part::Play => play(markup, n, word),
        Part::Moderation => moderation(n, word),
        Part::Lists => lists(markup, n, word),
    }
}

/// Starting and finding a game, and a seated game's lobby.
fn start(markup: Markup, n: &Nouns, word: &Word<'_>) -> String {
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
        _ => unreachable!("{word:?} is not a start word"),
    }
}

/// Refusals and failures.
fn refusal(n: &Nouns, word: &Word<'_>) -> String {
    match word {
        Word::SlowDown(secs) => format!("慢一点！{secs} 秒后可以再行动。"),
        Word::NotModerator => format!("只有{}可以这样做。", n.who_moderates),
        Word::Oops => "我这边出了点问题，这次不计数。请稍后再试。".into(),
        Word::BadOption => "无法读取这个选项，请检查后重试。".into(),
        Word::GuildOnly => format!("海龟汤需要在{}频道里玩，不能在私信里玩。", n.scope),
        Word::BadModel => "模型名只能包含字母、数字和 `:._/-`，最长 100 个字符。".into(),
        _ => unreachable!("{word:?} is not a refusal word"),
    }
}

/// A game in play, and its end.
fn play(markup: Markup, n: &Nouns, word: &Word<'_>) -> String {
    match word {
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
        _ => unreachable!("{word:?} is not a play word"),
    }
}

/// The moderators' commands.
fn moderation(n: &Nouns, word: &Word<'_>) -> String {
    match word {
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
        _ => unreachable!("{word:?} is not a moderation word"),
    }
}

/// Headings and tags of lists, a player's record, and forgetting one.
fn lists(markup: Markup, n: &Nouns, word: &Word<'_>) -> String {
    match word {
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
        _ => unreachable!("{word:?} is not a lists word"),
    }
}
