//! Every fixed sentence the Discord front end itself says (game text comes
//! from `core::i18n`), in each language a server can choose.

use crate::core::puzzle::Language;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Word<'a> {
    NoGameHere,
    AlreadyRunning,
    WrongChannel(&'a str),
    StartedIn { thread: u64, title: &'a str },
    NoPuzzleMatches,
    UnknownPuzzle { id: &'a str, near: &'a [String] },
    SlowDown(u64),
    NotModerator,
    Oops,
    BadOption,
    GuildOnly,
    ButtonHint,
    ButtonStatus,
    ButtonGiveUp,
    GameOver,
    KeyFacts,
    FoundBy(&'a str),
    NotFound,
    Scores,
    NoPoints,
    TranscriptAttached,
    EndedByModerator,
    Done,
    ConfigSet { what: &'a str, value: &'a str },
    PuzzleAdded { id: &'a str, title: &'a str },
    PuzzleInvalid(&'a str),
    PuzzleExists(&'a str),
    PuzzleUnreadable,
    PuzzleRemoved(&'a str),
    NotCustom(&'a str),
    PuzzleEnabled(&'a str),
    PuzzleDisabled(&'a str),
    NextPuzzle(&'a str),
    FullTextAttached,
    Players,
    Moderators,
    Leaderboard,
    NoScores,
    Puzzles,
    Custom,
    Disabled,
    BadModel,
}

pub fn say(lang: Language, word: &Word<'_>) -> String {
    match lang {
        Language::En => en(word),
        Language::Zh => zh(word),
    }
}

fn en(word: &Word<'_>) -> String {
    match word {
        Word::NoGameHere => "There's no game in this thread. Start one with `/soup start`.".into(),
        Word::AlreadyRunning => {
            "This thread already has a game running: play it, or start another in a channel.".into()
        }
        Word::WrongChannel(channel) => format!("Games on this server run in <#{channel}>."),
        Word::StartedIn { thread, title } => format!("🐢 **{title}** is on: join the game in <#{thread}>."),
        Word::NoPuzzleMatches => "No puzzle matches that; `/soup puzzles` lists them.".into(),
        Word::UnknownPuzzle { id, near: [] } => {
            format!("There is no puzzle `{id}` here; `/soup puzzles` lists them.")
        }
        Word::UnknownPuzzle { id, near } => {
            format!("There is no puzzle `{id}` here. Did you mean: {}?", near.join(", "))
        }
        Word::SlowDown(secs) => format!("Easy there! You can take another turn in {secs} s."),
        Word::NotModerator => "Only moderators (Manage Threads, or the moderator role) can do that.".into(),
        Word::Oops => "Something went wrong on my side and nothing was counted. Please try again in a moment.".into(),
        Word::BadOption => "I couldn't read that option; please check it and try again.".into(),
        Word::GuildOnly => "Turtle Soup is played in server channels, not in direct messages.".into(),
        Word::ButtonHint => "Hint".into(),
        Word::ButtonStatus => "Status".into(),
        Word::ButtonGiveUp => "Give up".into(),
        Word::GameOver => "Game over".into(),
        Word::KeyFacts => "Key facts".into(),
        Word::FoundBy(name) => format!("found by {name}"),
        Word::NotFound => "not found".into(),
        Word::Scores => "Scores".into(),
        Word::NoPoints => "No points this time.".into(),
        Word::TranscriptAttached => "The full transcript is attached.".into(),
        Word::EndedByModerator => "A moderator ended this game.".into(),
        Word::Done => "Done.".into(),
        Word::ConfigSet { what, value } => format!("Done: {what} is now {value}."),
        Word::PuzzleAdded { id, title } => format!("Added `{id}` ({title}); it is enabled on this server only."),
        Word::PuzzleInvalid(problems) => format!("That puzzle file has problems:\n{problems}"),
        Word::PuzzleExists(id) => format!("A puzzle `{id}` already exists; remove it first or choose another id."),
        Word::PuzzleUnreadable => "Attach the puzzle as a UTF-8 TOML file of at most 64 KiB.".into(),
        Word::PuzzleRemoved(id) => format!("Removed `{id}`."),
        Word::NotCustom(id) => format!("`{id}` is not one of this server's custom puzzles."),
        Word::PuzzleEnabled(id) => format!("`{id}` is enabled here."),
        Word::PuzzleDisabled(id) => format!("`{id}` is disabled here."),
        Word::NextPuzzle(id) => format!("The next game in this channel will use `{id}`."),
        Word::FullTextAttached => "(The full text is attached.)".into(),
        Word::Players => "Players".into(),
        Word::Moderators => "Moderators".into(),
        Word::Leaderboard => "🏆 Leaderboard".into(),
        Word::NoScores => "No scores yet: solve a puzzle to get on the board.".into(),
        Word::Puzzles => "Puzzles".into(),
        Word::Custom => "custom".into(),
        Word::Disabled => "disabled".into(),
        Word::BadModel => "Model names are letters, digits and `:._/-`, at most 100 characters.".into(),
    }
}

fn zh(word: &Word<'_>) -> String {
    match word {
        Word::NoGameHere => "本帖没有进行中的游戏。用 `/soup start` 开一局吧。".into(),
        Word::AlreadyRunning => "本帖已经有一局游戏在进行：继续玩，或在频道里另开一局。".into(),
        Word::WrongChannel(channel) => format!("本服务器的游戏在 <#{channel}> 进行。"),
        Word::StartedIn { thread, title } => format!("🐢 **{title}** 开始了：到 <#{thread}> 参与游戏。"),
        Word::NoPuzzleMatches => "没有符合条件的谜题；用 `/soup puzzles` 查看列表。".into(),
        Word::UnknownPuzzle { id, near: [] } => {
            format!("这里没有谜题 `{id}`；用 `/soup puzzles` 查看列表。")
        }
        Word::UnknownPuzzle { id, near } => format!("这里没有谜题 `{id}`。你是不是想找：{}？", near.join("、")),
        Word::SlowDown(secs) => format!("慢一点！{secs} 秒后可以再行动。"),
        Word::NotModerator => "只有管理员（拥有“管理帖子”权限或管理员身份组）可以这样做。".into(),
        Word::Oops => "我这边出了点问题，这次不计数。请稍后再试。".into(),
        Word::BadOption => "无法读取这个选项，请检查后重试。".into(),
        Word::GuildOnly => "海龟汤需要在服务器频道里玩，不能在私信里玩。".into(),
        Word::ButtonHint => "提示".into(),
        Word::ButtonStatus => "状态".into(),
        Word::ButtonGiveUp => "放弃".into(),
        Word::GameOver => "游戏结束".into(),
        Word::KeyFacts => "关键事实".into(),
        Word::FoundBy(name) => format!("由 {name} 找到"),
        Word::NotFound => "未找到".into(),
        Word::Scores => "得分".into(),
        Word::NoPoints => "这局没有人得分。".into(),
        Word::TranscriptAttached => "完整记录见附件。".into(),
        Word::EndedByModerator => "管理员结束了这局游戏。".into(),
        Word::Done => "完成。".into(),
        Word::ConfigSet { what, value } => format!("完成：{what} 现在是 {value}。"),
        Word::PuzzleAdded { id, title } => format!("已添加 `{id}`（{title}），仅在本服务器启用。"),
        Word::PuzzleInvalid(problems) => format!("这个谜题文件有问题：\n{problems}"),
        Word::PuzzleExists(id) => format!("谜题 `{id}` 已存在；请先删除它或换一个 id。"),
        Word::PuzzleUnreadable => "请附上不超过 64 KiB 的 UTF-8 TOML 谜题文件。".into(),
        Word::PuzzleRemoved(id) => format!("已删除 `{id}`。"),
        Word::NotCustom(id) => format!("`{id}` 不是本服务器的自定义谜题。"),
        Word::PuzzleEnabled(id) => format!("`{id}` 已在这里启用。"),
        Word::PuzzleDisabled(id) => format!("`{id}` 已在这里停用。"),
        Word::NextPuzzle(id) => format!("本频道下一局将使用 `{id}`。"),
        Word::FullTextAttached => "（完整内容见附件。）".into(),
        Word::Players => "玩家".into(),
        Word::Moderators => "管理员".into(),
        Word::Leaderboard => "🏆 排行榜".into(),
        Word::NoScores => "还没有得分记录：解开一道题就能上榜。".into(),
        Word::Puzzles => "谜题".into(),
        Word::Custom => "自定义".into(),
        Word::Disabled => "已停用".into(),
        Word::BadModel => "模型名只能包含字母、数字和 `:._/-`，最长 100 个字符。".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_has_text_in_both_languages() {
        let near = vec!["a".to_string()];
        let words = [
            Word::NoGameHere,
            Word::UnknownPuzzle { id: "x", near: &near },
            Word::SlowDown(3),
            Word::NotModerator,
            Word::Oops,
            Word::StartedIn { thread: 1, title: "T" },
        ];
        for word in &words {
            let (en, zh) = (say(Language::En, word), say(Language::Zh, word));
            assert!(!en.is_empty() && !zh.is_empty() && en != zh, "{word:?}");
        }
    }
}
