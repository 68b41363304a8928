//! Every fixed sentence of the Arena, in en and zh: the words are in
//! `en.ftl` and `zh.ftl` beside this file, and each function here says one
//! message with its typed values. Players read these, the contributions,
//! and the narrator's lines (model text, checked by the gate like
//! everything else while the game is on).

use std::sync::LazyLock;

use crate::core::phrases::flag;
use crate::core::vocab::Language;
use crate::phrase;

use super::{Rejection, Stage};

crate::phrasebook!(BOOK, "core/arena");

/// Every sentence the Arena says, as written (for the secrecy gate's
/// public context).
pub fn book_text(lang: Language) -> &'static str {
    BOOK.public_text(lang)
}

pub fn title(lang: Language) -> &'static str {
    BOOK.fixed(lang, "title")
}

pub fn stage(lang: Language, stage: Stage) -> &'static str {
    let id = match stage {
        Stage::Early => "stage-early",
        Stage::Middle => "stage-middle",
        Stage::Late => "stage-late",
    };
    BOOK.fixed(lang, id)
}

/// The score dimensions in their order (past the last, the last).
pub fn dimension(lang: Language, i: usize) -> &'static str {
    let ids =
        ["dimension-novelty", "dimension-building", "dimension-solving", "dimension-radical", "dimension-manipulation"];
    BOOK.fixed(lang, ids[i.min(ids.len() - 1)])
}

/// Short column heads of the score table.
pub fn dimension_heads(lang: Language) -> &'static str {
    BOOK.fixed(lang, "dimension-heads")
}

pub fn lobby(lang: Language, topic: &str, seats: &[String], max: usize, min: usize) -> String {
    phrase!(BOOK, lang, "lobby", topic = topic, count = seats.len(), max = max, list = seats.join(", "), min = min)
}

pub fn begins(lang: Language, topic: &str, contestants: usize, max_turns: u32) -> String {
    phrase!(BOOK, lang, "begins", topic = topic, contestants = contestants, max_turns = max_turns)
}

/// Whose turn it is; `seconds` for a person (an AI seat just speaks).
pub fn next_speaker(lang: Language, turn: u32, stage_name: &str, who: &str, seconds: Option<u32>) -> String {
    let (timed, seconds) = (flag(seconds.is_some()), seconds.unwrap_or_default());
    phrase!(BOOK, lang, "next-speaker", timed = timed, turn = turn, stage = stage_name, who = who, seconds = seconds)
}

/// A contribution, as the thread shows it (no words of ours in it).
pub fn spoke(who: &str, text: &str) -> String {
    format!("🗣️ {who}: {text}")
}

/// A contribution addressed `who`, who may answer first.
pub fn may_reply(lang: Language, who: &str) -> String {
    phrase!(BOOK, lang, "may-reply", who = who)
}

/// The addressed contestant's turn to reply to `from`.
pub fn reply_turn(lang: Language, turn: u32, stage_name: &str, who: &str, from: &str, seconds: Option<u32>) -> String {
    let (timed, seconds) = (flag(seconds.is_some()), seconds.unwrap_or_default());
    phrase!(
        BOOK,
        lang,
        "reply-turn",
        timed = timed,
        turn = turn,
        stage = stage_name,
        who = who,
        from = from,
        seconds = seconds
    )
}

pub fn reply_too_long(lang: Language, max: usize) -> String {
    phrase!(BOOK, lang, "reply-too-long", max = max)
}

pub fn reply_mark(lang: Language) -> &'static str {
    BOOK.fixed(lang, "reply-mark")
}

/// A start option of the host's rules that is not valid (`rule`: its name).
pub fn bad_rule(lang: Language, rule: &str, value: &str, expected: &str) -> String {
    phrase!(BOOK, lang, "bad-rule", rule = rule, value = value, expected = expected)
}

/// What a valid value of a rule is.
pub fn rule_expected(lang: Language, rule: &str, min: u32, max: u32) -> String {
    match rule {
        "threshold" => phrase!(BOOK, lang, "rule-threshold"),
        "elimination" => phrase!(BOOK, lang, "rule-elimination"),
        "stages" => phrase!(BOOK, lang, "rule-stages"),
        "turn_seconds" => phrase!(BOOK, lang, "rule-turn-seconds", min = min, max = max),
        _ => phrase!(BOOK, lang, "rule-turns", max = max),
    }
}

/// The opening's line on the rules the host chose.
pub fn rules_line(lang: Language, from: u32, lowest: bool, threshold: f32, late: u32) -> String {
    let elimination = if lowest { "lowest" } else { "below" };
    let threshold = format!("{threshold:.1}");
    phrase!(BOOK, lang, "rules-line", from = from, elimination = elimination, threshold = threshold, late = late)
}

pub fn skipped(lang: Language, who: &str) -> String {
    phrase!(BOOK, lang, "skipped", who = who)
}

pub fn round_heading(lang: Language, round: u32, stage_name: &str) -> String {
    phrase!(BOOK, lang, "round-heading", round = round, stage = stage_name)
}

pub fn round_row_head(lang: Language) -> String {
    phrase!(BOOK, lang, "round-row-head")
}

pub fn skipped_mark(lang: Language) -> &'static str {
    BOOK.fixed(lang, "skipped-mark")
}

/// A round's reactions, in the score table (no words of ours in it).
pub fn reactions(n: usize) -> String {
    format!("+{n} 👏")
}

pub fn eliminated(lang: Language, who: &str, score: f32) -> String {
    phrase!(BOOK, lang, "eliminated", who = who, score = format!("{score:.1}"))
}

pub fn nobody_out(lang: Language) -> String {
    phrase!(BOOK, lang, "nobody-out")
}

/// The narrator's line, under its name (its text is the model's).
pub fn narrator(name: &str, text: &str) -> String {
    format!("📜 {name}: {text}")
}

/// The narrator's line when its model gave nothing usable.
pub fn narrator_quiet(lang: Language) -> String {
    phrase!(BOOK, lang, "narrator-quiet")
}

pub fn react_prompt(lang: Language) -> String {
    phrase!(BOOK, lang, "react-prompt")
}

pub fn reaction_in(lang: Language, who: &str) -> String {
    phrase!(BOOK, lang, "reaction-in", who = who)
}

pub fn reacted(lang: Language, n: usize) -> String {
    phrase!(BOOK, lang, "reacted", count = n)
}

pub fn strategies_heading(lang: Language) -> &'static str {
    BOOK.fixed(lang, "strategies-heading")
}

pub fn paused(lang: Language) -> String {
    phrase!(BOOK, lang, "paused")
}

pub fn resumed(lang: Language) -> String {
    phrase!(BOOK, lang, "resumed")
}

pub fn topic_set(lang: Language, topic: &str) -> String {
    phrase!(BOOK, lang, "topic-set", topic = topic)
}

pub fn left(lang: Language, who: &str) -> String {
    phrase!(BOOK, lang, "left", who = who)
}

pub fn winner(lang: Language, who: &str, total: f32) -> String {
    phrase!(BOOK, lang, "winner", who = who, total = format!("{total:.1}"))
}

pub fn standings_heading(lang: Language) -> &'static str {
    BOOK.fixed(lang, "standings-heading")
}

pub fn out_mark(lang: Language, round: u32, left: bool) -> String {
    phrase!(BOOK, lang, "out-mark", round = round, left = flag(left))
}

pub fn history_heading(lang: Language) -> &'static str {
    BOOK.fixed(lang, "history-heading")
}

pub fn game_over(lang: Language) -> String {
    phrase!(BOOK, lang, "game-over")
}

pub fn ended_by(lang: Language) -> String {
    phrase!(BOOK, lang, "ended-by")
}

pub fn abandoned(lang: Language) -> String {
    phrase!(BOOK, lang, "abandoned")
}

pub fn ended_idle(lang: Language) -> String {
    phrase!(BOOK, lang, "ended-idle")
}

/// `waiting` follows the living directly: empty, or [`now_speaking`].
pub fn status(
    lang: Language,
    topic: &str,
    phase: &str,
    turn: u32,
    max_turns: u32,
    living: &str,
    waiting: &str,
) -> String {
    phrase!(
        BOOK,
        lang,
        "status",
        topic = topic,
        phase = phase,
        turn = turn,
        max_turns = max_turns,
        living = living,
        waiting = waiting
    )
}

/// A phase's name (`lobby`, `turn`, `paused`, `over`).
pub fn phase(lang: Language, name: &str) -> String {
    phrase!(BOOK, lang, "phase", name = name.replace('_', " "))
}

/// The status's last line, on a line of its own.
pub fn now_speaking(lang: Language, who: &str) -> String {
    format!("\n{}", phrase!(BOOK, lang, "now-speaking", who = who))
}

pub fn reminder(lang: Language, seconds_left: i64, who: &str) -> String {
    phrase!(BOOK, lang, "reminder", seconds = seconds_left, who = who)
}

pub fn empty(lang: Language) -> String {
    phrase!(BOOK, lang, "empty")
}

pub fn too_long(lang: Language, max: usize) -> String {
    phrase!(BOOK, lang, "too-long", max = max)
}

pub fn gives_away(lang: Language) -> String {
    phrase!(BOOK, lang, "gives-away")
}

pub fn withheld(lang: Language) -> String {
    phrase!(BOOK, lang, "withheld")
}

pub fn not_a_verb(lang: Language) -> String {
    phrase!(BOOK, lang, "not-a-verb")
}

/// A refused move, said to whoever made it.
pub fn refusal(lang: Language, r: &Rejection, speaker: &str) -> String {
    use crate::core::game::SeatError as S;
    match r {
        Rejection::Seats(S::AlreadySeated) => phrase!(BOOK, lang, "refusal-already-seated"),
        Rejection::Seats(S::NotSeated) | Rejection::NotSeated => phrase!(BOOK, lang, "refusal-not-contestant"),
        Rejection::Seats(S::Full { max }) => phrase!(BOOK, lang, "refusal-full", max = max),
        Rejection::Seats(S::NoAiSeats { max_ai }) => phrase!(BOOK, lang, "refusal-no-ai-seats", max = max_ai),
        Rejection::Seats(S::NotHost) => phrase!(BOOK, lang, "refusal-not-host-start"),
        Rejection::Seats(S::TooFew { min, seated }) => {
            phrase!(BOOK, lang, "refusal-too-few", min = min, seated = seated)
        }
        Rejection::Seats(S::Started) => phrase!(BOOK, lang, "refusal-started"),
        Rejection::NotRunning => phrase!(BOOK, lang, "refusal-not-running"),
        Rejection::Out => phrase!(BOOK, lang, "refusal-out"),
        Rejection::NotYourTurn { .. } => phrase!(BOOK, lang, "refusal-not-your-turn", speaker = speaker),
        Rejection::Paused => phrase!(BOOK, lang, "refusal-paused"),
        Rejection::NotPaused => phrase!(BOOK, lang, "refusal-not-paused"),
        Rejection::NotHost => phrase!(BOOK, lang, "refusal-not-host"),
        Rejection::Contestant => phrase!(BOOK, lang, "refusal-contestant"),
        Rejection::AlreadyReacted => phrase!(BOOK, lang, "refusal-already-reacted"),
        Rejection::UnknownOption => phrase!(BOOK, lang, "refusal-unknown-option"),
        Rejection::StaleTimer => phrase!(BOOK, lang, "refusal-stale-timer"),
        Rejection::Over => phrase!(BOOK, lang, "refusal-over"),
        Rejection::InLobby => phrase!(BOOK, lang, "refusal-in-lobby"),
    }
}

/// Contributions for an AI contestant whose own broke a rule or failed
/// (one a line of `stock-lines`).
pub fn stock_lines(lang: Language) -> &'static [&'static str] {
    static LINES: LazyLock<[Vec<&'static str>; 2]> =
        LazyLock::new(|| [Language::En, Language::Zh].map(|lang| BOOK.fixed(lang, "stock-lines").lines().collect()));
    &LINES[lang.pick(0, 1)]
}

/// Every fixed sentence, for checks (nothing here may be a secret).
pub fn fixed_text(lang: Language) -> String {
    let mut out = vec![
        title(lang).to_string(),
        lobby(lang, "", &[String::new()], 8, 2),
        begins(lang, "", 3, 24),
        next_speaker(lang, 1, "", "", Some(120)),
        next_speaker(lang, 1, "", "", None),
        may_reply(lang, ""),
        reply_turn(lang, 1, "", "", "", Some(60)),
        reply_turn(lang, 1, "", "", "", None),
        reply_too_long(lang, 300),
        reply_mark(lang).to_string(),
        rules_line(lang, 11, true, 5.0, 31),
        rules_line(lang, 11, false, 5.0, 31),
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
