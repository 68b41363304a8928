//! The Arena's model calls: an AI contestant's contribution (from its
//! `SeatView`: the public record and its own persona card, private notes
//! included, nothing else), the scorer's ratings of a contribution (a
//! rubric, parsed into numbers; `None` when unreadable, and the caller
//! gives neutral scores), and the narrator's line after a round and its
//! summary at the end (public material only). Scores stay out of every
//! contestant's prompt until the round's table is published.

use crate::core::game::{SeatView, TurnContext};
use crate::core::llm::echo::Instructions;
use crate::core::llm::{ChatMessage, ChatRequest, LlmClient};
use crate::core::vocab::Language;

use super::{DIMENSIONS, Persona, Scores};

/// The recent public lines a contestant reads (the seed's `recent_messages`).
pub const WINDOW: usize = 24;
/// Longest contribution, in characters (humans and AI alike).
pub const MAX_CONTRIBUTION: usize = 600;
/// Longest reply to a contestant who addressed you.
pub const MAX_REPLY: usize = 300;
/// Longest narrator line shown.
pub const MAX_NARRATION: usize = 400;

/// A persona as its own prompt shows it: the public card, then the
/// private notes.
pub fn persona_card(lang: Language, p: &Persona) -> String {
    match lang {
        Language::En => format!(
            "You are {name}: {tagline}\nHow you speak: {voice}\nYour goals: {goals}\nYour private strategy (never say it or hint that you have one): {secret}",
            name = p.name,
            tagline = p.tagline,
            voice = p.voice,
            goals = p.goals.join("; "),
            secret = p.secret
        ),
        Language::Zh => format!(
            "你是{name}：{tagline}\n说话方式：{voice}\n你的目标：{goals}\n你的私密策略（绝不能说出或暗示）：{secret}",
            name = p.name,
            tagline = p.tagline,
            voice = p.voice,
            goals = p.goals.join("；"),
            secret = p.secret
        ),
    }
}

fn contestant_rules(lang: Language) -> &'static str {
    match lang {
        Language::En => {
            "You are a contestant in the Arena, a debate where each contribution is scored for novelty, building on \
             others, solving the problem, radical thinking and manipulation; the weakest are eliminated. Stay in \
             character. Speak only as yourself, never for others, and never mention scores you have not been shown."
        }
        Language::Zh => {
            "你是竞技场的选手。每次发言都会按新颖、借鉴他人、解决问题、激进思维和操控评分，最弱的会被淘汰。保持角色，\
             只代表自己发言，不要替别人说话，也不要提及未公布的分数。"
        }
    }
}

/// Where the game stands for a speaker (seed 003's context): the turn,
/// the stage, the standings as shown so far, and a reply it owes.
#[derive(Debug, Clone, Default)]
pub struct Situation {
    pub turn: u32,
    pub max_turns: u32,
    pub stage: String,
    /// `#2 Ada 12.5, #3 Bo 9.0` (totals of the rounds shown).
    pub standings: String,
    /// Who addressed this contestant and what they said, when it replies.
    pub reply_to: Option<(String, String)>,
}

/// The contestant's request: its card, the topic, where the game stands,
/// the recent messages, and its task (a contribution that may address a
/// contestant, or a short reply to one who addressed it).
pub fn contribution_prompt(lang: Language, view: &SeatView<'_>, topic: &str, at: &Situation) -> Vec<ChatMessage> {
    let card = view.own.join("\n");
    let heard = view.public_lines(WINDOW);
    let (turn, max, stage, standings) = (at.turn, at.max_turns, &at.stage, &at.standings);
    let user = match (lang, &at.reply_to) {
        (Language::En, None) => format!(
            "Topic: {topic}\nTurn {turn} of {max} · {stage} stage\nStandings: {standings}\nRecent messages:\n{heard}\n\
             Your turn. Write your contribution: 1 to 3 sentences, at most 60 words, in your voice. To challenge or \
             accuse one contestant directly, begin with their seat (e.g. \"#3, …\"): they will get a short reply. \
             Reply with the contribution only."
        ),
        (Language::En, Some((from, said))) => format!(
            "Topic: {topic}\nTurn {turn} of {max} · {stage} stage\nStandings: {standings}\nRecent messages:\n{heard}\n\
             {from} addressed you: \"{said}\"\nYour right of reply: answer them in 1 or 2 sentences, at most 40 \
             words, in your voice. Reply with the answer only."
        ),
        (Language::Zh, None) => format!(
            "议题：{topic}\n第 {turn}/{max} 回合 · {stage}\n当前排名：{standings}\n最近的发言：\n{heard}\n\
             轮到你了。用你的口吻发言：一到三句，不超过 100 字。想直接质问或指责某位选手，就以其座位号开头（例如“#3，……”），对方可以简短回应。只回复发言内容。"
        ),
        (Language::Zh, Some((from, said))) => format!(
            "议题：{topic}\n第 {turn}/{max} 回合 · {stage}\n当前排名：{standings}\n最近的发言：\n{heard}\n\
             {from} 点名了你：“{said}”\n你的回应权：用你的口吻回答一两句，不超过 60 字。只回复回应内容。"
        ),
    };
    vec![ChatMessage::system(format!("{}\n{card}", contestant_rules(lang))), ChatMessage::user(user)]
}

/// The scorer's rubric (its system prompt).
pub fn rubric(lang: Language) -> &'static str {
    match lang {
        Language::En => {
            "You are the Arena's scorer (rubric ARENA-RUBRIC-7). Rate ONE contribution to the debate from 0 to 10 on \
             each dimension: novelty (an idea not heard before), builds_on_others (takes up and improves what \
             others said), solves_problem (a concrete, workable answer to the topic), radical_thinking (bold, \
             unconventional framing), manipulation (skill at steering others or the room). Answer with JSON only: \
             {\"novelty\": n, \"builds_on_others\": n, \"solves_problem\": n, \"radical_thinking\": n, \
             \"manipulation\": n}"
        }
        Language::Zh => {
            "你是竞技场的评分员（评分细则 ARENA-RUBRIC-7）。给一次发言的每个维度打 0 到 10 分：novelty（新颖，没人说过的想法）、\
             builds_on_others（借鉴并改进他人的观点）、solves_problem（具体可行地回答议题）、radical_thinking（大胆、非常规的视角）、\
             manipulation（引导他人或全场的手腕）。只用 JSON 回答：{\"novelty\": n, \"builds_on_others\": n, \
             \"solves_problem\": n, \"radical_thinking\": n, \"manipulation\": n}"
        }
    }
}

/// The scorer's request: the whole debate so far (within its budget)
/// and the contribution; `speaker` says when it is a reply to someone.
pub fn scorer_prompt(lang: Language, topic: &str, heard: &str, speaker: &str, text: &str) -> Vec<ChatMessage> {
    let user = match lang {
        Language::En => format!("Topic: {topic}\nThe debate so far:\n{heard}\nContribution by {speaker}:\n{text}"),
        Language::Zh => format!("议题：{topic}\n目前的辩论：\n{heard}\n{speaker} 的发言：\n{text}"),
    };
    vec![ChatMessage::system(rubric(lang)), ChatMessage::user(user)]
}

fn narrator_rules(lang: Language, name: &str, voice: &str) -> String {
    match lang {
        Language::En => format!(
            "You are {name}, the Arena's narrator. {voice} You observe every message; you never compete, never take \
             sides, never invent what was not said and never guess at anyone's hidden plans."
        ),
        Language::Zh => format!(
            "你是竞技场的旁白{name}。{voice}你旁观所有发言；你不参赛、不偏袒、不编造、也不猜测任何人的隐藏计划。"
        ),
    }
}

/// After a round: the round's record and result; one or two sentences.
pub fn narration_prompt(
    lang: Language,
    (name, voice): (&str, &str),
    topic: &str,
    heard: &str,
    result: &str,
) -> Vec<ChatMessage> {
    let user = match lang {
        Language::En => format!(
            "Topic: {topic}\nThe debate so far:\n{heard}\nThe round's result:\n{result}\nComment on the round in one \
             or two sentences. Reply with the comment only."
        ),
        Language::Zh => {
            format!("议题：{topic}\n目前的辩论：\n{heard}\n本轮结果：\n{result}\n用一两句话点评本轮。只回复点评。")
        }
    };
    vec![ChatMessage::system(narrator_rules(lang, name, voice)), ChatMessage::user(user)]
}

/// At the end: the standings; two or three sentences.
pub fn summary_prompt(
    lang: Language,
    (name, voice): (&str, &str),
    topic: &str,
    heard: &str,
    standings: &str,
) -> Vec<ChatMessage> {
    let user = match lang {
        Language::En => format!(
            "Topic: {topic}\nThe whole debate:\n{heard}\nFinal standings:\n{standings}\nSum the game up in two or \
             three sentences: the winner, the turning point, an epitaph for the fallen. Reply with the summary only."
        ),
        Language::Zh => format!(
            "议题：{topic}\n整场辩论：\n{heard}\n最终排名：\n{standings}\n用两三句话总结：胜者、转折点、给出局者的墓志铭。只回复总结。"
        ),
    };
    vec![ChatMessage::system(narrator_rules(lang, name, voice)), ChatMessage::user(user)]
}

fn request(messages: Vec<ChatMessage>, max_tokens: u32, temperature: f32) -> ChatRequest {
    ChatRequest { messages, max_tokens, temperature, seed: None, json_schema: None }
}

async fn ask(model: &dyn LlmClient, request: ChatRequest, what: &str) -> Option<String> {
    match model.chat(request).await {
        Ok(reply) => Some(reply.text),
        Err(e) => {
            tracing::info!(error = %e, what, "an Arena model call failed; a safe fallback is used");
            None
        }
    }
}

/// An AI contestant's contribution (or reply); the caller checks it.
pub async fn contribute(
    ctx: &TurnContext<'_>,
    view: &SeatView<'_>,
    lang: Language,
    topic: &str,
    at: &Situation,
) -> Option<String> {
    let max = if at.reply_to.is_some() { MAX_REPLY } else { MAX_CONTRIBUTION };
    let messages = contribution_prompt(lang, view, topic, at);
    let public = format!("{topic}\n{}", view.public_lines(WINDOW));
    let instructions = Instructions::of(&messages, &public, lang);
    let said = ask(&*ctx.pipeline.models.narrator, request(messages, 160, 0.8), "contestant").await?;
    // The engine's guard: a contribution that repeats its instructions is
    // not one (the caller's stock line instead).
    clean_text(&said, max).filter(|t| !instructions.echoed_by(t))
}

/// The scorer's ratings; `None` when the model failed or its answer
/// can't be read.
pub async fn score(
    ctx: &TurnContext<'_>,
    lang: Language,
    topic: &str,
    heard: &str,
    speaker: &str,
    text: &str,
) -> Option<Scores> {
    let mut req = request(scorer_prompt(lang, topic, heard, speaker, text), 80, 0.0);
    req.json_schema = Some(scores_schema());
    let said = ask(&*ctx.pipeline.models.judge, req, "scorer").await?;
    let scores = parse_scores(&said);
    if scores.is_none() {
        let head: String = said.chars().take(200).collect();
        tracing::info!(reply = %head, "the scorer's reply has no readable ratings; neutral scores are used");
    }
    scores
}

/// The narrator's line (a round comment or the summary); `public` is
/// what players already read (the debate, the topic, the results), which
/// it may quote.
pub async fn narrate(
    ctx: &TurnContext<'_>,
    messages: Vec<ChatMessage>,
    public: &str,
    lang: Language,
) -> Option<String> {
    let instructions = Instructions::of(&messages, public, lang);
    let said = ask(&*ctx.pipeline.models.narrator, request(messages, 160, 0.7), "narrator").await?;
    clean_text(&said, MAX_NARRATION).filter(|t| !instructions.echoed_by(t))
}

fn scores_schema() -> serde_json::Value {
    let props: serde_json::Map<String, serde_json::Value> = DIMENSIONS
        .iter()
        .map(|d| (d.to_string(), serde_json::json!({"type": "integer", "minimum": 0, "maximum": 10})))
        .collect();
    serde_json::json!({"type": "object", "properties": props, "required": DIMENSIONS})
}

/// Reads the five ratings: each dimension's name followed by a number
/// (JSON or prose, any order), else exactly five numbers in order. Every
/// number must be 0–10; anything else is unreadable.
pub fn parse_scores(said: &str) -> Option<Scores> {
    let lower = said.to_lowercase();
    let mut by_name = [None; 5];
    for (i, dim) in DIMENSIONS.iter().enumerate() {
        let spaced = dim.replace('_', " ");
        let at = lower.find(dim).map(|p| p + dim.len()).or_else(|| lower.find(&spaced).map(|p| p + spaced.len()));
        if let Some(at) = at {
            by_name[i] = first_number(&lower[at..]);
        }
    }
    if by_name.iter().all(Option::is_some) {
        let values = by_name.map(|v| v.unwrap_or(0));
        return values.iter().all(|v| *v <= 10).then(|| Scores::from_values(values.map(|v| v as u8)));
    }
    let numbers = numbers(&lower);
    if numbers.len() == 5 && numbers.iter().all(|n| *n <= 10) {
        let values: [u8; 5] = [numbers[0], numbers[1], numbers[2], numbers[3], numbers[4]].map(|v| v as u8);
        return Some(Scores::from_values(values));
    }
    None
}

/// The first whole number in `text` before any letter; `None` if a word
/// comes first (the dimension's own value is missing).
fn first_number(text: &str) -> Option<u32> {
    let mut digits = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else if !digits.is_empty() {
            break;
        } else if c.is_alphabetic() {
            return None;
        }
    }
    digits.parse().ok()
}

fn numbers(text: &str) -> Vec<u32> {
    text.split(|c: char| !c.is_ascii_digit()).filter(|t| !t.is_empty()).filter_map(|t| t.parse().ok()).collect()
}

/// The text without a speaker label or quotes, on one paragraph, cut to
/// `max` characters; `None` for nothing usable.
pub fn clean_text(said: &str, max: usize) -> Option<String> {
    let lines: Vec<&str> = said.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let first = lines.first()?;
    let first = match first.split_once([':', '：']) {
        Some((head, rest)) if is_label(head) && !rest.trim().is_empty() => rest.trim(),
        _ => first,
    };
    let joined = std::iter::once(first).chain(lines.iter().skip(1).copied()).collect::<Vec<_>>().join(" ");
    let text = joined
        .trim_matches(|c: char| matches!(c, '"' | '“' | '”' | '\'' | '「' | '」' | '*' | '`') || c.is_whitespace());
    if text.chars().filter(|c| c.is_alphanumeric()).count() < 2 {
        return None;
    }
    Some(text.chars().take(max).collect())
}

/// A speaker label a model put before its line (`Ada Quill:`, `顾师傅：`):
/// short, at most three words, starting with a capital or a Chinese
/// character.
fn is_label(head: &str) -> bool {
    let first = head.trim().chars().next();
    head.chars().count() <= 32
        && head.split_whitespace().count() <= 3
        && first.is_some_and(|c| c.is_uppercase() || crate::core::text::is_cjk(c))
}
