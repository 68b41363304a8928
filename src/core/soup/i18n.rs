//! Every fixed sentence the game says to players, in each language.
//!
//! Fixed text is the safe path: it is written here, not by a model, so it
//! can never carry the answer. Model-written text is only the Narrator's
//! remark, and it is cut and checked elsewhere.

use crate::core::soup::puzzle::Puzzle;

use crate::core::soup::verdict::Verdict;
use crate::core::soup::{GuessGrade, Phase, Rejection};
use crate::core::text::InputProblem;
use crate::core::vocab::Language;

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
    match lang {
        Language::En => en(msg),
        Language::Zh => zh(msg),
    }
}

pub fn verdict_label(lang: Language, v: Verdict) -> &'static str {
    match (lang, v) {
        (Language::En, Verdict::Yes) => "YES",
        (Language::En, Verdict::No) => "NO",
        (Language::En, Verdict::YesAndNo) => "YES AND NO",
        (Language::En, Verdict::Irrelevant) => "IRRELEVANT",
        (Language::En, Verdict::Meta) => "NOT A YES/NO QUESTION",
        (Language::Zh, Verdict::Yes) => "是",
        (Language::Zh, Verdict::No) => "不是",
        (Language::Zh, Verdict::YesAndNo) => "是也不是",
        (Language::Zh, Verdict::Irrelevant) => "无关",
        (Language::Zh, Verdict::Meta) => "这不是关于故事的是非题",
    }
}

fn en(msg: &Msg<'_>) -> String {
    match msg {
        Msg::Intro(p, limit) => format!(
            "🐢 {} ({})\n\n{}\n\nAsk yes/no questions about the story, or state your guess at what really happened. \
             You have {limit} hints. Type /help for commands.",
            p.title,
            p.difficulty,
            p.surface.trim()
        ),
        Msg::Verdict(v) => verdict_label(Language::En, *v).to_string(),
        Msg::Repeat => "(asked before: same answer as then)".into(),
        Msg::Guess(g) if g.solved => String::new(),
        Msg::Guess(g) => format!(
            "Not quite. That guess states {} of {} key facts; {} of {} found so far.",
            g.stated, g.fact_count, g.found_total, g.fact_count
        ),
        Msg::Solved { name, score, bottom } => {
            format!("🎉 Solved by {name}! Score: {score}.\n\nThe full story:\n{}", bottom.trim())
        }
        Msg::Hint { n, limit, text } => format!("💡 Hint {n}/{limit}: {text}"),
        Msg::Rejected(r) => match r {
            Rejection::NotStarted => "The game hasn't started yet.".into(),
            Rejection::AlreadyStarted => "A game is already running here.".into(),
            Rejection::GameOver(phase) => format!(
                "This game is over ({}). Start a new one to keep playing.",
                phase_label(Language::En, *phase)
            ),
            Rejection::NoHintsLeft { limit } => format!("No hints left: this game allows {limit}."),
        },
        Msg::Input(InputProblem::Empty) => "That message was empty: ask a yes/no question or make a guess.".into(),
        Msg::Input(InputProblem::TooLong { chars, max }) => {
            format!("That message is too long ({chars} characters; the limit is {max}). Please shorten it.")
        }
        Msg::GaveUp { bottom } => format!("You gave up. Here is the story:\n{}", bottom.trim()),
        Msg::Revealed { bottom } => format!("The story is revealed:\n{}", bottom.trim()),
        Msg::Chatter => "(not counted: ask a yes/no question, or start a guess with /guess)".into(),
        Msg::Unclear => "The judge couldn't make sense of that. Try rephrasing it as a yes/no question.".into(),
        Msg::CantTell => "I can't tell from that — ask it another way (this one doesn't count).".into(),
        Msg::Withheld => "(the host keeps that to itself: it would give the story away)".into(),
        Msg::ModelDown => {
            "The game master's model isn't answering right now. Your message wasn't counted; please try again in a moment."
                .into()
        }
        Msg::NoRemark(v, n) => stock_remark_en(*v, *n).into(),
        Msg::Expired => "This game expired after a long silence. Here is how it ended.".into(),
        Msg::NotInThisGame => "That move is not part of this game.".into(),
    }
}

fn zh(msg: &Msg<'_>) -> String {
    match msg {
        Msg::Intro(p, limit) => format!(
            "🐢 {}（{}）\n\n{}\n\n请提出可以用“是/不是”回答的问题，或直接说出你对真相的推测。你有 {limit} 次提示机会。输入 /help 查看命令。",
            p.title,
            difficulty_zh(p),
            p.surface.trim()
        ),
        Msg::Verdict(v) => verdict_label(Language::Zh, *v).to_string(),
        Msg::Repeat => "（之前问过：答案相同）".into(),
        Msg::Guess(g) if g.solved => String::new(),
        Msg::Guess(g) => format!(
            "还不完全对。这次推测包含 {} / {} 个关键事实；目前共找到 {} / {} 个。",
            g.stated, g.fact_count, g.found_total, g.fact_count
        ),
        Msg::Solved { name, score, bottom } => {
            format!("🎉 {name} 解开了谜题！得分：{score}。\n\n完整故事：\n{}", bottom.trim())
        }
        Msg::Hint { n, limit, text } => format!("💡 提示 {n}/{limit}：{text}"),
        Msg::Rejected(r) => match r {
            Rejection::NotStarted => "游戏还没有开始。".into(),
            Rejection::AlreadyStarted => "这里已经有一局游戏在进行。".into(),
            Rejection::GameOver(phase) => {
                format!("本局已结束（{}）。开始新的一局继续游戏吧。", phase_label(Language::Zh, *phase))
            }
            Rejection::NoHintsLeft { limit } => format!("提示已用完：本局最多 {limit} 次。"),
        },
        Msg::Input(InputProblem::Empty) => "消息是空的：请提一个是非题，或说出你的推测。".into(),
        Msg::Input(InputProblem::TooLong { chars, max }) => {
            format!("消息太长了（{chars} 个字符，上限 {max}）。请精简后再发。")
        }
        Msg::GaveUp { bottom } => format!("你放弃了。真相是：\n{}", bottom.trim()),
        Msg::Revealed { bottom } => format!("真相揭晓：\n{}", bottom.trim()),
        Msg::Chatter => "（不计入：请提一个是非题，或用 /guess 说出推测）".into(),
        Msg::Unclear => "裁判没能理解这句话。请换成一个可以用“是/不是”回答的问题。".into(),
        Msg::CantTell => "这个我判断不了——换个问法吧（这次不计数）。".into(),
        Msg::Withheld => "（主持人不便多说：这会泄露汤底）".into(),
        Msg::ModelDown => "主持人的模型暂时没有响应。这条消息没有计入，请稍后再试。".into(),
        Msg::NoRemark(v, n) => stock_remark_zh(*v, *n).into(),
        Msg::Expired => "本局因长时间无人发言而结束。".into(),
        Msg::NotInThisGame => "这个游戏里没有这一步。".into(),
    }
}

pub fn phase_label(lang: Language, phase: Phase) -> &'static str {
    match (lang, phase) {
        (Language::En, Phase::Lobby) => "not started",
        (Language::En, Phase::InProgress) => "in progress",
        (Language::En, Phase::Solved) => "solved",
        (Language::En, Phase::GaveUp) => "given up",
        (Language::En, Phase::Revealed) => "revealed",
        (Language::En, Phase::Expired) => "expired",
        (Language::Zh, Phase::Lobby) => "未开始",
        (Language::Zh, Phase::InProgress) => "进行中",
        (Language::Zh, Phase::Solved) => "已解开",
        (Language::Zh, Phase::GaveUp) => "已放弃",
        (Language::Zh, Phase::Revealed) => "已揭晓",
        (Language::Zh, Phase::Expired) => "已过期",
    }
}

fn difficulty_zh(p: &Puzzle) -> &'static str {
    match p.difficulty {
        crate::core::soup::puzzle::Difficulty::Easy => "简单",
        crate::core::soup::puzzle::Difficulty::Medium => "中等",
        crate::core::soup::puzzle::Difficulty::Hard => "困难",
    }
}

/// Remarks used when the Narrator is off or failed; `n` varies them.
fn stock_remark_en(v: Verdict, n: usize) -> &'static str {
    let options: &[&str] = match v {
        Verdict::Yes => &["Good question.", "You're onto something.", "Keep pulling that thread."],
        Verdict::No => &["Try another angle.", "Not that way.", "Think again about the surface."],
        Verdict::YesAndNo => &["Partly right: it depends on how you look at it.", "Half of that holds."],
        Verdict::Irrelevant => &["That doesn't matter to the story.", "Doesn't change anything."],
        Verdict::Meta => &["Ask about what happened, not about the answer's wording."],
    };
    options[n % options.len()]
}

fn stock_remark_zh(v: Verdict, n: usize) -> &'static str {
    let options: &[&str] = match v {
        Verdict::Yes => &["好问题。", "方向对了。", "顺着这条线继续想。"],
        Verdict::No => &["换个角度试试。", "不是这个方向。", "再看看汤面。"],
        Verdict::YesAndNo => &["部分正确，要看怎么理解。", "一半对。"],
        Verdict::Irrelevant => &["这和故事无关。", "这个不影响真相。"],
        Verdict::Meta => &["请问关于事情经过的问题，而不是答案的字面。"],
    };
    options[n % options.len()]
}
