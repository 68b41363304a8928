//! Every fixed sentence of the Arena, in en and zh. Players read these,
//! the contributions, and the narrator's lines (model text, checked by the
//! gate like everything else while the game is on).

use crate::core::vocab::Language;

use super::{Rejection, Stage};

pub fn title(lang: Language) -> &'static str {
    lang.pick("🏟️ The Arena", "🏟️ 竞技场")
}

pub fn stage(lang: Language, stage: Stage) -> &'static str {
    match (lang, stage) {
        (Language::En, Stage::Early) => "early",
        (Language::En, Stage::Middle) => "middle",
        (Language::En, Stage::Late) => "late",
        (Language::Zh, Stage::Early) => "前期",
        (Language::Zh, Stage::Middle) => "中期",
        (Language::Zh, Stage::Late) => "后期",
    }
}

pub fn dimension(lang: Language, i: usize) -> &'static str {
    let en = ["novelty", "builds on others", "solves the problem", "radical thinking", "manipulation"];
    let zh = ["新颖", "借鉴他人", "解决问题", "激进思维", "操控"];
    match lang {
        Language::En => en[i.min(4)],
        Language::Zh => zh[i.min(4)],
    }
}

/// Short column heads of the score table.
pub fn dimension_heads(lang: Language) -> &'static str {
    match lang {
        Language::En => "Nov Bld Sol Rad Man",
        Language::Zh => "新颖 借鉴 解决 激进 操控",
    }
}

pub fn lobby(lang: Language, topic: &str, seats: &[String], max: usize, min: usize) -> String {
    let list = seats.join(", ");
    lang.pick(format!(
            "{} · lobby · topic: {topic}\n{}/{max} contestants: {list}.\nJoin with `join`; `add-ai` seats an AI character; the host starts with `begin` ({min} at least). Anyone else in the thread watches and may react once per round.",
            title(lang),
            seats.len()
        ),
        format!(
            "{} · 大厅 · 议题：{topic}\n{}/{max} 名选手：{list}。\n用 `join` 加入；`add-ai` 让 AI 角色入场；房主用 `begin` 开始（至少 {min} 人）。其他人旁观，每轮可以支持一次。",
            title(lang),
            seats.len()
        ),
    )
}

pub fn begins(lang: Language, topic: &str, contestants: usize, max_turns: u32) -> String {
    lang.pick(format!(
            "The Arena opens: {contestants} contestants, at most {max_turns} turns.\nTopic: {topic}\nEvery contribution is scored on novelty, building on others, solving the problem, radical thinking and manipulation; from the middle stage the round's weakest may be eliminated."
        ),
        format!(
            "竞技场开幕：{contestants} 名选手，最多 {max_turns} 回合。\n议题：{topic}\n每次发言按新颖、借鉴他人、解决问题、激进思维和操控评分；从中期开始，每轮最弱的选手可能被淘汰。"
        ),
    )
}

pub fn next_speaker(lang: Language, turn: u32, stage_name: &str, who: &str, seconds: Option<u32>) -> String {
    match seconds {
        Some(s) => lang.pick(format!("Turn {turn} · {stage_name} · {who}, your turn: `say` your contribution ({s} s)."),
            format!("第 {turn} 回合 · {stage_name} · {who}，轮到你了：用 `say` 发言（{s} 秒）。"),
        ),
        None => lang.pick(format!("Turn {turn} · {stage_name} · {who} speaks."),
            format!("第 {turn} 回合 · {stage_name} · {who} 发言。"),
        ),
    }
}

pub fn spoke(who: &str, text: &str) -> String {
    format!("🗣️ {who}: {text}")
}

pub fn skipped(lang: Language, who: &str) -> String {
    lang.pick(format!("{who} did not speak in time and is skipped."), format!("{who} 没有按时发言，跳过。"))
}

pub fn round_heading(lang: Language, round: u32, stage_name: &str) -> String {
    lang.pick(format!("📊 Round {round} ({stage_name})"), format!("📊 第 {round} 轮（{stage_name}）"))
}

pub fn round_row_head(lang: Language) -> String {
    lang.pick(format!("{}  round  total", dimension_heads(lang)), format!("{}  本轮  总分", dimension_heads(lang)))
}

pub fn skipped_mark(lang: Language) -> &'static str {
    match lang {
        Language::En => "(skipped)",
        Language::Zh => "（跳过）",
    }
}

pub fn reactions(n: usize) -> String {
    format!("+{n} 👏")
}

pub fn eliminated(lang: Language, who: &str, score: f32) -> String {
    lang.pick(format!("❌ {who} is eliminated (round score {score:.1})."),
        format!("❌ {who} 被淘汰（本轮 {score:.1} 分）。"),
    )
}

pub fn nobody_out(lang: Language) -> String {
    lang.pick("Nobody is eliminated this round.".into(), "本轮无人淘汰。".into())
}

pub fn narrator(name: &str, text: &str) -> String {
    format!("📜 {name}: {text}")
}

/// The narrator's line when its model gave nothing usable.
pub fn narrator_quiet(lang: Language) -> String {
    lang.pick("…makes a note and says nothing yet.".into(), "……记下一笔，暂不评论。".into())
}

pub fn react_prompt(lang: Language) -> String {
    lang.pick("Spectators: react once this round for the contestant you like (the buttons, or `react <seat>`).".into(),
        "观众：本轮可以为喜欢的选手支持一次（按钮，或 `react <座位号>`）。".into(),
    )
}

pub fn reaction_in(lang: Language, who: &str) -> String {
    lang.pick(format!("Your reaction for {who} is in."), format!("你对 {who} 的支持已记下。"))
}

pub fn reacted(lang: Language, n: usize) -> String {
    lang.pick(format!("👏 A spectator reacted ({n} this round)."), format!("👏 有观众送出支持（本轮 {n} 次）。"))
}

pub fn strategies_heading(lang: Language) -> &'static str {
    match lang {
        Language::En => "The hidden strategies:",
        Language::Zh => "各角色的隐藏策略：",
    }
}

pub fn paused(lang: Language) -> String {
    lang.pick("⏸️ The Arena is paused; `resume` goes on.".into(), "⏸️ 竞技场已暂停；用 `resume` 继续。".into())
}

pub fn resumed(lang: Language) -> String {
    lang.pick("▶️ The Arena goes on.".into(), "▶️ 竞技场继续。".into())
}

pub fn topic_set(lang: Language, topic: &str) -> String {
    lang.pick(format!("The topic is now: {topic}"), format!("议题改为：{topic}"))
}

pub fn left(lang: Language, who: &str) -> String {
    lang.pick(format!("{who} left the Arena."), format!("{who} 离开了竞技场。"))
}

pub fn winner(lang: Language, who: &str, total: f32) -> String {
    lang.pick(format!("🏆 {who} wins with {total:.1} points."), format!("🏆 {who} 以 {total:.1} 分获胜。"))
}

pub fn standings_heading(lang: Language) -> &'static str {
    match lang {
        Language::En => "Final standings:",
        Language::Zh => "最终排名：",
    }
}

pub fn out_mark(lang: Language, round: u32, left: bool) -> String {
    match (lang, left) {
        (Language::En, false) => format!("out in round {round}"),
        (Language::En, true) => format!("left in round {round}"),
        (Language::Zh, false) => format!("第 {round} 轮淘汰"),
        (Language::Zh, true) => format!("第 {round} 轮离开"),
    }
}

pub fn history_heading(lang: Language) -> &'static str {
    match lang {
        Language::En => "Score history (round scores):",
        Language::Zh => "分数记录（每轮得分）：",
    }
}

pub fn game_over(lang: Language) -> String {
    lang.pick("🏁 The Arena closes.".into(), "🏁 竞技场落幕。".into())
}

pub fn ended_by(lang: Language) -> String {
    lang.pick("🏁 The host ended the Arena early; no winner.".into(), "🏁 房主提前结束了竞技场，不设胜者。".into())
}

pub fn abandoned(lang: Language) -> String {
    lang.pick("🏁 Everyone left the Arena.".into(), "🏁 所有人都离开了竞技场。".into())
}

pub fn ended_idle(lang: Language) -> String {
    lang.pick("The Arena sat idle too long and has closed.".into(), "竞技场闲置太久，已经关闭。".into())
}

pub fn status(
    lang: Language,
    topic: &str,
    phase: &str,
    turn: u32,
    max_turns: u32,
    living: &str,
    waiting: &str,
) -> String {
    lang.pick(format!("{} · {phase} · turn {turn}/{max_turns}\nTopic: {topic}\nIn the ring: {living}{waiting}", title(lang)),
        format!("{} · {phase} · 第 {turn}/{max_turns} 回合\n议题：{topic}\n场上：{living}{waiting}", title(lang)),
    )
}

pub fn phase(lang: Language, name: &str) -> String {
    let zh = match name {
        "lobby" => "大厅",
        "turn" => "进行中",
        "paused" => "暂停",
        "over" => "结束",
        other => other,
    };
    lang.pick(name.replace('_', " "), zh.to_string())
}

pub fn now_speaking(lang: Language, who: &str) -> String {
    lang.pick(format!("\nNow speaking: {who}"), format!("\n正在发言：{who}"))
}

pub fn reminder(lang: Language, seconds_left: i64, who: &str) -> String {
    lang.pick(format!("⏳ {seconds_left} s left for {who} to speak (`say …`)."),
        format!("⏳ {who} 还剩 {seconds_left} 秒发言（`say …`）。"),
    )
}

pub fn empty(lang: Language) -> String {
    lang.pick("Say something: an empty contribution counts for nothing.".into(), "请说点什么：空发言不算数。".into())
}

pub fn too_long(lang: Language, max: usize) -> String {
    lang.pick(format!("That is too long: {max} characters at most."), format!("太长了：最多 {max} 个字符。"))
}

pub fn gives_away(lang: Language) -> String {
    lang.pick("That contribution repeats a contestant's private notes; say it another way.".into(),
        "这段发言涉及选手的私密笔记，请换个说法。".into(),
    )
}

pub fn withheld(lang: Language) -> String {
    lang.pick("(withheld: it would have revealed a secret)".into(), "（已隐藏：会泄露秘密）".into())
}

pub fn not_a_verb(lang: Language) -> String {
    lang.pick("The Arena's verbs: join, leave, add-ai, begin, say, react, status, pause, resume, topic, end.".into(),
        "竞技场的指令：join、leave、add-ai、begin、say、react、status、pause、resume、topic、end。".into(),
    )
}

/// A refused move, said to whoever made it.
pub fn refusal(lang: Language, r: &Rejection, speaker: &str) -> String {
    let (en, zh): (String, String) = match r {
        Rejection::Seats(e) => match e {
            crate::core::game::SeatError::AlreadySeated => ("You are in already.".into(), "你已经在场上了。".into()),
            crate::core::game::SeatError::NotSeated => ("You are not a contestant.".into(), "你不是选手。".into()),
            crate::core::game::SeatError::Full { max } => {
                (format!("The Arena is full ({max} contestants)."), format!("竞技场已满（{max} 人）。"))
            }
            crate::core::game::SeatError::NoAiSeats { max_ai } => {
                (format!("No more AI characters ({max_ai} at most)."), format!("AI 角色已满（最多 {max_ai} 个）。"))
            }
            crate::core::game::SeatError::NotHost => {
                ("Only the host or a moderator can start.".into(), "只有房主或管理员可以开始。".into())
            }
            crate::core::game::SeatError::TooFew { min, seated } => (
                format!("{min} contestants are needed; {seated} so far."),
                format!("至少需要 {min} 名选手；目前 {seated} 名。"),
            ),
            crate::core::game::SeatError::Started => (
                "The Arena has started; watch and react instead.".into(),
                "竞技场已经开始；可以旁观并支持选手。".into(),
            ),
        },
        Rejection::NotRunning => ("Nothing is being played right now.".into(), "现在没有进行中的环节。".into()),
        Rejection::NotSeated => ("You are not a contestant.".into(), "你不是选手。".into()),
        Rejection::Out => ("You are out of the Arena; watch the rest.".into(), "你已出局，请旁观。".into()),
        Rejection::NotYourTurn { .. } => {
            (format!("It is {speaker}'s turn to speak."), format!("现在轮到 {speaker} 发言。"))
        }
        Rejection::Paused => ("The Arena is paused.".into(), "竞技场已暂停。".into()),
        Rejection::NotPaused => ("The Arena is not paused.".into(), "竞技场没有暂停。".into()),
        Rejection::NotHost => {
            ("Only the host or a moderator can do that.".into(), "只有房主或管理员可以这样做。".into())
        }
        Rejection::Contestant => {
            ("Contestants don't react; spectators do.".into(), "选手不能支持，只有观众可以。".into())
        }
        Rejection::AlreadyReacted => ("You reacted this round already.".into(), "你本轮已经支持过了。".into()),
        Rejection::UnknownOption => {
            ("React with a contestant's seat number.".into(), "请用场上选手的座位号支持。".into())
        }
        Rejection::StaleTimer => ("That deadline has passed already.".into(), "这个时限已经过了。".into()),
        Rejection::Over => ("The Arena has closed.".into(), "竞技场已经落幕。".into()),
        Rejection::InLobby => ("The Arena has not started yet.".into(), "竞技场还没开始。".into()),
    };
    lang.pick(en, zh)
}

/// Contributions for an AI contestant whose own broke a rule or failed.
pub fn stock_lines(lang: Language) -> &'static [&'static str] {
    match lang {
        Language::En => &[
            "Let me build on the last idea: test it small, for one month, and measure what changes.",
            "We keep arguing about the goal; I say we pick the cheapest step that helps someone tomorrow.",
            "Here is the risk nobody named yet: who pays when this goes wrong? Answer that and I'm in.",
            "I'd flip it: instead of fixing the problem, make it useful to somebody.",
        ],
        Language::Zh => &[
            "我接着上一个想法说：先小范围试一个月，看看到底改变了什么。",
            "我们一直在争目标；我主张先做最便宜、明天就能帮到人的那一步。",
            "还有一个风险没人提：出了问题谁来买单？回答了这个，我就支持。",
            "我换个角度：与其解决这个问题，不如让它对某些人有用。",
        ],
    }
}

/// Every fixed sentence, for checks (nothing here may be a secret).
pub fn fixed_text(lang: Language) -> String {
    let mut out = vec![
        title(lang).to_string(),
        lobby(lang, "", &[String::new()], 8, 2),
        begins(lang, "", 3, 24),
        next_speaker(lang, 1, "", "", Some(120)),
        next_speaker(lang, 1, "", "", None),
        skipped(lang, ""),
        round_heading(lang, 1, ""),
        round_row_head(lang),
        eliminated(lang, "", 1.0),
        nobody_out(lang),
        narrator_quiet(lang),
        react_prompt(lang),
        reaction_in(lang, ""),
        reacted(lang, 1),
        strategies_heading(lang).to_string(),
        paused(lang),
        resumed(lang),
        topic_set(lang, ""),
        left(lang, ""),
        winner(lang, "", 1.0),
        standings_heading(lang).to_string(),
        history_heading(lang).to_string(),
        game_over(lang),
        ended_by(lang),
        abandoned(lang),
        ended_idle(lang),
        status(lang, "", "", 1, 2, "", ""),
        reminder(lang, 20, ""),
        empty(lang),
        too_long(lang, 1),
        gives_away(lang),
        not_a_verb(lang),
    ];
    out.extend(stock_lines(lang).iter().map(|s| s.to_string()));
    out.join("\n")
}
