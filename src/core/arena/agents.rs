//! The Arena's model calls: an AI contestant's contribution (from its
//! `SeatView`: the public record and its own persona card, private notes
//! included, nothing else), the scorer's ratings of a contribution (a
//! rubric, parsed into numbers; `None` when unreadable, and the caller
//! gives neutral scores), and the narrator's line after a round and its
//! summary at the end (public material only). Scores stay out of every
//! contestant's prompt until the round's table is published.

use minijinja::context;

use crate::core::game::{SeatView, TurnContext};
use crate::core::llm::echo::Instructions;
use crate::core::llm::{ChatMessage, ChatRequest, LlmClient};
use crate::core::prompts::{PromptError, Prompts};
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

/// A persona as its own prompt shows it (`prompts/arena/persona.j2`): the
/// public card, then the private notes.
pub fn persona_card(prompts: &Prompts, lang: Language, p: &Persona) -> Result<String, PromptError> {
    let ctx = context! { language => lang.code(), name => p.name, tagline => p.tagline, voice => p.voice,
        goals => p.goals, secret => p.secret };
    prompts.render("arena/persona", ctx)
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

/// The contestant's request (`arena/contestant.system`, `.user`): its
/// card, the topic, where the game stands, the recent messages, and its
/// task (a contribution that may address a contestant, or a short reply
/// to one who addressed it).
pub fn contribution_prompt(
    prompts: &Prompts,
    lang: Language,
    view: &SeatView<'_>,
    topic: &str,
    at: &Situation,
) -> Result<Vec<ChatMessage>, PromptError> {
    let language = lang.code();
    let card = view.own.join("\n");
    let system = prompts.render("arena/contestant.system", context! { language, card })?;
    let (reply_from, reply_said) = at.reply_to.clone().unzip();
    let user = prompts.render(
        "arena/contestant.user",
        context! { language, topic, turn => at.turn, max_turns => at.max_turns, stage => at.stage,
            standings => at.standings, heard => view.public_lines(WINDOW), reply_from, reply_said },
    )?;
    Ok(vec![ChatMessage::system(system), ChatMessage::user(user)])
}

/// The scorer's request (`arena/scorer.system`: its rubric; `.user`): the
/// whole debate so far (within its budget) and the contribution;
/// `speaker` says when it is a reply to someone.
pub fn scorer_prompt(
    prompts: &Prompts,
    lang: Language,
    topic: &str,
    heard: &str,
    speaker: &str,
    text: &str,
) -> Result<Vec<ChatMessage>, PromptError> {
    let language = lang.code();
    let system = prompts.render("arena/scorer.system", context! { language })?;
    let user = prompts.render("arena/scorer.user", context! { language, topic, heard, speaker, text })?;
    Ok(vec![ChatMessage::system(system), ChatMessage::user(user)])
}

/// The narrator's request (`arena/narrator.system`, and `what`: `round`,
/// one or two sentences on the round's `result`; `summary`, two or three
/// on the final `standings`).
pub fn narrator_prompt(
    prompts: &Prompts,
    lang: Language,
    (name, voice): (&str, &str),
    what: Narration<'_>,
    topic: &str,
    heard: &str,
) -> Result<Vec<ChatMessage>, PromptError> {
    let language = lang.code();
    let system = prompts.render("arena/narrator.system", context! { language, name, voice })?;
    let user = match what {
        Narration::Round { result } => {
            prompts.render("arena/narrator.round", context! { language, topic, heard, result })?
        }
        Narration::Summary { standings } => {
            prompts.render("arena/narrator.summary", context! { language, topic, heard, standings })?
        }
    };
    Ok(vec![ChatMessage::system(system), ChatMessage::user(user)])
}

/// What the narrator speaks to.
#[derive(Debug, Clone, Copy)]
pub enum Narration<'a> {
    /// After a round: the round's record and result.
    Round { result: &'a str },
    /// At the end: the standings.
    Summary { standings: &'a str },
}

fn request(messages: Vec<ChatMessage>, max_tokens: u32, temperature: f32) -> ChatRequest {
    ChatRequest { messages, max_tokens, temperature, seed: None, json_schema: None }
}

/// A prompt that rendered; a template that did not is logged, and the
/// caller falls back to its safe move as for a failed model call.
fn rendered(prompt: Result<Vec<ChatMessage>, PromptError>) -> Option<Vec<ChatMessage>> {
    prompt.map_err(|e| tracing::warn!(error = %e, "an Arena prompt did not render; a safe fallback is used")).ok()
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
    let messages = rendered(contribution_prompt(&ctx.pipeline.prompts, lang, view, topic, at))?;
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
    let mut req = request(rendered(scorer_prompt(&ctx.pipeline.prompts, lang, topic, heard, speaker, text))?, 80, 0.0);
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
    messages: Result<Vec<ChatMessage>, PromptError>,
    public: &str,
    lang: Language,
) -> Option<String> {
    let messages = rendered(messages)?;
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
