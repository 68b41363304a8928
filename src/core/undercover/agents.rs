//! The AI seats' model calls (seed 002's PlayerAgent): describe its own
//! word without saying it, vote from what was said, and (as the blank,
//! voted out) guess the civilians' word. Each prompt is built from a
//! `SeatView`: the whole public record of the game (every round's
//! descriptions and votes, within a budget: `memory.rs`) and the seat's
//! own facts (its word, then its own reasons from earlier votes), nothing
//! else. A description follows the seed's strategy (say something new,
//! stay vague, blend in when it suspects it holds the odd word); a vote
//! is structured output: what the seat believes its own role is, its read
//! of each living player, then the vote. Every answer is parsed into a
//! move; `None` means the caller falls back to a safe move (the model
//! failed, or said garbage).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::context::estimate_tokens;
use crate::core::game::{SeatView, TurnContext};
use crate::core::llm::echo::Instructions;
use crate::core::llm::{ChatMessage, ChatRequest};
use crate::core::vocab::Language;

use super::memory::{self, RECORD_TOKENS};

/// Longest description an AI seat may post, in characters.
const MAX_SAID: usize = 160;
/// Longest reason kept: the why, and each read.
const MAX_WHY: usize = 200;
const MAX_READ: usize = 120;
/// Most reads kept from one vote.
const MAX_READS: usize = 12;
/// The seat's earlier reasons read back into its prompts: the latest few.
const NOTES_KEPT: usize = 4;

fn rules(lang: Language) -> &'static str {
    match lang {
        Language::En => {
            "You are a player in the party game \"Who is the Undercover\". Most players share one secret word; \
             one or two have a similar but different word; there may be a blank player with no word. Players \
             take turns describing their word in one short line without saying it, then everyone votes out \
             the player they think holds a different word. You do not know whether your own word is the \
             majority's. Never say your word, a part of it, a translation of it or its spelling."
        }
        Language::Zh => {
            "你在玩派对游戏“谁是卧底”。大多数玩家拿到同一个秘密词，一两个人拿到相近但不同的词，可能还有一个没有词的白板。\
             玩家轮流用一句话描述自己的词但不能说出它，然后大家投票淘汰认为拿着不同词的人。你不知道自己的词是不是多数人的。\
             绝不能说出你的词、词的一部分、翻译或拼写。"
        }
    }
}

/// The seed's description strategy, said to every describing seat.
fn strategy(lang: Language) -> &'static str {
    match lang {
        Language::En => {
            "How to describe:\n- Say something new: do not repeat or rephrase any description above, yours included.\n\
             - Stay vague: a player with another word must not be able to tell yours from your line; describe one \
             side of it, not its most telling feature.\n- If you suspect your word is the odd one (it fits the \
             others' lines badly), blend in: describe what your word shares with theirs."
        }
        Language::Zh => {
            "描述的方法：\n- 说点新的：不要重复或换说法复述已有的任何一句描述，包括你自己的。\n\
             - 保持含糊：别让拿着另一个词的人从你这句话猜出你的词；只说它的某一点，而不是最明显的特征。\n\
             - 如果你怀疑自己的词是不同的那个（和别人的描述对不上），就要伪装：描述你的词和他们的词共同的地方。"
        }
    }
}

/// Said when the seat's own last reasons say it believes it is the odd one.
fn blend_in(lang: Language) -> &'static str {
    match lang {
        Language::En => "Your own notes say you suspect you hold the odd word: blend in this time.",
        Language::Zh => "你的笔记说你怀疑自己拿着不同的词：这次要伪装好。",
    }
}

fn request(lang: Language, user: String, max_tokens: u32) -> ChatRequest {
    ChatRequest {
        messages: vec![ChatMessage::system(rules(lang)), ChatMessage::user(user)],
        max_tokens,
        temperature: 0.7,
        seed: None,
        json_schema: None,
    }
}

async fn ask(ctx: &TurnContext<'_>, request: ChatRequest) -> Option<String> {
    match ctx.pipeline.models.narrator.chat(request).await {
        Ok(reply) => Some(reply.text),
        Err(e) => {
            tracing::info!(error = %e, "an AI seat's model call failed; it falls back to a safe move");
            None
        }
    }
}

/// The seat's word: its first own fact (empty for the blank).
fn own_word<'a>(view: &'a SeatView<'a>) -> Option<&'a str> {
    view.own.first().copied().filter(|w| !w.is_empty())
}

/// The seat's own notes: its facts after the word (its earlier reasons).
fn own_notes(view: &SeatView<'_>) -> String {
    view.own.iter().skip(1).copied().collect::<Vec<_>>().join("\n")
}

/// What the seat remembers of the game: the whole record within the budget.
fn heard(ctx: &TurnContext<'_>, view: &SeatView<'_>, lang: Language) -> String {
    let model = ctx.pipeline.models.narrator.clone();
    let count = move |t: &str| model.count_tokens(t).unwrap_or_else(|| estimate_tokens(t));
    crate::core::context::fit_record(lang, &memory::lines(view.public), RECORD_TOKENS, &count)
}

/// The seat's earlier reasons as its prompts read them back.
pub fn notes_text(lang: Language, notes: &str) -> String {
    if notes.trim().is_empty() {
        return String::new();
    }
    match lang {
        Language::En => format!("Your own notes from earlier votes (only you see them):\n{notes}\n"),
        Language::Zh => format!("你之前投票时的笔记（只有你能看到）：\n{notes}\n"),
    }
}

/// The describe prompt: who the seat is, its word (none for the blank),
/// its own notes, what was said, and the seed's strategy.
pub fn describe_prompt(lang: Language, name: &str, word: Option<&str>, heard: &str, notes: &str) -> String {
    let suspects = notes.lines().last().is_some_and(|l| l.contains("[odd]"));
    let tail = if suspects { format!("{}\n", blend_in(lang)) } else { String::new() };
    let body = match (lang, word) {
        (Language::En, Some(word)) => format!(
            "Your word: {word}\n{}What was said so far:\n{heard}\n{}\n{tail}Write ONE short line (at most 12 words) \
             that describes your word without saying it. Reply with the line only.",
            notes_text(lang, notes),
            strategy(lang)
        ),
        (Language::En, None) => format!(
            "You are the blank: you have no word. {}What was said so far:\n{heard}\n{}\nGuess what the others' word \
             may be and write ONE short, vague line (at most 12 words) that would fit it. Reply with the line only.",
            notes_text(lang, notes),
            strategy(lang)
        ),
        (Language::Zh, Some(word)) => format!(
            "你的词：{word}\n{}目前的发言：\n{heard}\n{}\n{tail}用一句话（不超过 20 个字）描述你的词，不能说出它。只回复这句话。",
            notes_text(lang, notes),
            strategy(lang)
        ),
        (Language::Zh, None) => format!(
            "你是白板，没有词。{}目前的发言：\n{heard}\n{}\n猜一猜大家的词，写一句含糊但贴切的描述（不超过 20 个字）。只回复这句话。",
            notes_text(lang, notes),
            strategy(lang)
        ),
    };
    format!("{}{body}", you_are(lang, name))
}

/// The vote prompt: the seat, its word, its notes, what happened, the
/// choices, and the answer's form (its beliefs first, then the vote).
pub fn vote_prompt(
    lang: Language,
    name: &str,
    word: Option<&str>,
    heard: &str,
    notes: &str,
    choices: &[String],
) -> String {
    let word = word.unwrap_or("-");
    match lang {
        Language::En => format!(
            "Your word: {word}\n{}{}What happened so far:\n{heard}\nYou may vote for: {}.\nWhich player most likely \
             holds a different word? Think first, then vote. Answer with JSON only: {{\"my_role\": \"civilian\", \
             \"undercover\", \"blank\" or \"unsure\" (what you believe you are), \"why\": one sentence, \"reads\": \
             [{{\"seat\": a seat number, \"read\": your read of that player}}, one for each other living player], \
             \"vote\": the seat number only}}",
            you_are(lang, name),
            notes_text(lang, notes),
            choices.join(", ")
        ),
        Language::Zh => format!(
            "你的词：{word}\n{}{}目前的经过：\n{heard}\n可以投给：{}。\n谁最可能拿着不同的词？先想，再投票。只用 JSON 回答：\
             {{\"my_role\": \"civilian\"、\"undercover\"、\"blank\" 或 \"unsure\"（你认为自己的身份），\"why\": 一句理由，\
             \"reads\": [{{\"seat\": 座位号, \"read\": 你对这位玩家的判断}}，每位其他在场玩家一条]，\"vote\": 只回答座位号}}",
            you_are(lang, name),
            notes_text(lang, notes),
            choices.join("，")
        ),
    }
}

/// The blank's last-guess prompt.
pub fn guess_prompt(lang: Language, name: &str, heard: &str) -> String {
    let body = match lang {
        Language::En => format!(
            "You were the blank and were voted out. What was said:\n{heard}\nWhat is the majority's word? Answer with \
             the word only."
        ),
        Language::Zh => format!("你是白板，被投出了。大家的发言：\n{heard}\n多数人的词是什么？只回答这个词。"),
    };
    format!("{}{body}", you_are(lang, name))
}

fn you_are(lang: Language, name: &str) -> String {
    match lang {
        Language::En => format!("You are {name}.\n"),
        Language::Zh => format!("你是 {name}。\n"),
    }
}

/// Every fixed word an AI seat's prompts hold, for the word-pair check (a
/// secret word there would be in every prompt).
pub fn prompt_frames(lang: Language) -> String {
    [
        rules(lang).to_string(),
        describe_prompt(lang, "", Some(""), "", "x [odd]"),
        describe_prompt(lang, "", None, "", "x"),
        vote_prompt(lang, "", None, "", "x", &[]),
        guess_prompt(lang, "", ""),
        note_line(lang, 1, "", &Reasons::default()),
        memory::frames(lang),
    ]
    .join("\n")
}

/// One short line describing the seat's word (or, for the blank, a line
/// that blends in); the caller checks it against every secret word.
pub async fn describe(ctx: &TurnContext<'_>, view: &SeatView<'_>, lang: Language) -> Option<String> {
    let heard = heard(ctx, view, lang);
    let prompt = describe_prompt(lang, &view.seat.name, own_word(view), &heard, &own_notes(view));
    let req = request(lang, prompt, 48);
    let instructions = Instructions::of(&req.messages, &heard, lang);
    let said = ask(ctx, req).await?;
    // The engine's guard: a line that repeats the seat's instructions is
    // no description (the caller's safe move instead).
    clean_line(&said).filter(|line| !instructions.echoed_by(line))
}

/// Why a seat voted as it did, as its answer gave it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reasons {
    /// civilian | undercover | blank | unsure.
    pub believes: String,
    pub why: String,
    /// Seat number → the seat's read of that player.
    pub reads: Vec<(String, String)>,
}

/// A vote as read from a seat's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ballot {
    /// A valid option (a seat number), if the answer named one.
    pub option: Option<String>,
    /// Its reasons, when the answer was the JSON asked for.
    pub reasons: Option<Reasons>,
}

/// The seat's vote among `options` (id, label), with its reasons; `None`
/// when the model failed.
pub async fn vote(
    ctx: &TurnContext<'_>,
    view: &SeatView<'_>,
    lang: Language,
    options: &[(String, String)],
) -> Option<Ballot> {
    let list: Vec<String> = options.iter().map(|(_, label)| label.clone()).collect();
    let heard = heard(ctx, view, lang);
    let prompt = vote_prompt(lang, &view.seat.name, own_word(view), &heard, &own_notes(view), &list);
    let mut request = request(lang, prompt, 400);
    request.json_schema = Some(vote_schema());
    let said = ask(ctx, request).await?;
    Some(parse_ballot(&said, options))
}

fn vote_schema() -> Value {
    json!({"type": "object", "properties": {
        "my_role": {"type": "string", "enum": ["civilian", "undercover", "blank", "unsure"]},
        "why": {"type": "string"},
        "reads": {"type": "array", "items": {"type": "object",
            "properties": {"seat": {"type": "integer"}, "read": {"type": "string"}},
            "required": ["seat", "read"], "additionalProperties": false}},
        "vote": {"type": "integer"}},
        "required": ["my_role", "why", "reads", "vote"], "additionalProperties": false})
}

/// Reads a vote answer strictly: a JSON object whose `vote` is one of
/// the options gives the vote and its reasons. Anything else is salvaged
/// (the first option's seat number in it, no reasons) or gives nothing.
pub fn parse_ballot(said: &str, options: &[(String, String)]) -> Ballot {
    let is_option = |n: &str| options.iter().any(|(id, _)| id == n);
    if let Some(v) = json_of(said) {
        let option = number_in(&v["vote"]).filter(|n| is_option(n));
        let reasons = option.as_ref().map(|_| reasons_of(&v));
        return Ballot { option, reasons };
    }
    Ballot { option: parse_vote(said, options), reasons: None }
}

fn reasons_of(v: &Value) -> Reasons {
    let believes = match v["my_role"].as_str().map(|r| r.trim().to_lowercase()).as_deref() {
        Some(r @ ("civilian" | "undercover" | "blank")) => r.to_string(),
        _ => "unsure".to_string(),
    };
    let cut = |t: &str, max: usize| -> String {
        t.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(max).collect()
    };
    let why: String = v["why"].as_str().map(|t| cut(t, MAX_WHY)).unwrap_or_default();
    let read = |seat: Option<String>, text: Option<&str>| Some((seat?, cut(text?, MAX_READ)));
    let mut reads: Vec<(String, String)> = match &v["reads"] {
        Value::Array(items) => items.iter().filter_map(|r| read(number_in(&r["seat"]), r["read"].as_str())).collect(),
        Value::Object(map) => map.iter().filter_map(|(k, r)| read(number_in(&json!(k)), r.as_str())).collect(),
        _ => Vec::new(),
    };
    reads.retain(|(_, r): &(String, String)| !r.is_empty());
    reads.truncate(MAX_READS);
    Reasons { believes, why, reads }
}

/// The JSON object in an answer (a model may wrap it in prose or a fence).
fn json_of(said: &str) -> Option<Value> {
    let (start, end) = (said.find('{')?, said.rfind('}')?);
    serde_json::from_str::<Value>(said.get(start..=end)?).ok().filter(Value::is_object)
}

/// A seat number from a JSON number or a string holding one (`"#3"`).
fn number_in(v: &Value) -> Option<String> {
    match v {
        Value::Number(n) => n.as_u64().map(|n| n.to_string()),
        Value::String(s) => s.split(|c: char| !c.is_ascii_digit()).find(|t| !t.is_empty()).map(str::to_string),
        _ => None,
    }
}

/// A seat's earlier reasons as one line of its notes (`[odd]` marks a
/// seat that believed it held the odd word).
pub fn note_line(lang: Language, round: u32, vote: &str, reasons: &Reasons) -> String {
    let odd = if memory::suspects_itself(&reasons.believes) { " [odd]" } else { "" };
    let reads: Vec<String> = reasons.reads.iter().map(|(seat, read)| format!("#{seat}: {read}")).collect();
    match lang {
        Language::En => format!(
            "Round {round}: you believed you were {}{odd}; {}; you voted #{vote}. Reads: {}",
            reasons.believes,
            reasons.why,
            reads.join("; ")
        ),
        Language::Zh => format!(
            "第 {round} 轮：你认为自己是 {}{odd}；{}；你投了 #{vote}。判断：{}",
            reasons.believes,
            reasons.why,
            reads.join("；")
        ),
    }
}

/// The latest of a seat's note lines its prompts read back.
pub fn kept_notes(lines: Vec<String>) -> Vec<String> {
    let skip = lines.len().saturating_sub(NOTES_KEPT);
    lines.into_iter().skip(skip).collect()
}

/// The blank seat's guess at the civilians' word.
pub async fn guess(ctx: &TurnContext<'_>, view: &SeatView<'_>, lang: Language) -> Option<String> {
    let heard = heard(ctx, view, lang);
    let prompt = guess_prompt(lang, &view.seat.name, &heard);
    let said = ask(ctx, request(lang, prompt, 12)).await?;
    clean_line(&said).map(|l| l.trim_end_matches(['.', '。', '!', '！']).to_string())
}

/// The first non-empty line without quotes or a speaker label, cut short;
/// `None` for nothing usable.
pub fn clean_line(said: &str) -> Option<String> {
    let line = said.lines().map(str::trim).find(|l| !l.is_empty())?;
    let line = match line.split_once([':', '：']) {
        Some((head, rest)) if head.chars().count() <= 24 && !rest.trim().is_empty() => rest.trim(),
        _ => line,
    };
    let line =
        line.trim_matches(|c: char| matches!(c, '"' | '“' | '”' | '\'' | '「' | '」' | '*' | '`') || c.is_whitespace());
    if line.is_empty() {
        return None;
    }
    Some(line.chars().take(MAX_SAID).collect())
}

/// The first seat number in `said` that is one of the options.
pub fn parse_vote(said: &str, options: &[(String, String)]) -> Option<String> {
    let mut digits = String::new();
    for c in said.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() {
            digits.push(c);
        } else if !digits.is_empty() {
            if options.iter().any(|(id, _)| *id == digits) {
                return Some(digits);
            }
            digits.clear();
        }
    }
    None
}
