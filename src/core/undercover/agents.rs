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

use minijinja::context;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::context::estimate_tokens;
use crate::core::game::{SeatView, TurnContext};
use crate::core::llm::echo::Instructions;
use crate::core::llm::{ChatMessage, ChatRequest};
use crate::core::prompts::{PromptError, Prompts};
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

/// Undercover's prompt templates as built in (`prompts/undercover/`): the
/// word-pair check renders them with empty values for the words they say.
const BUILT_IN: [(&str, &str); 4] = [
    ("undercover/seat.system", include_str!("../../../prompts/undercover/seat.system.j2")),
    ("undercover/describe", include_str!("../../../prompts/undercover/describe.j2")),
    ("undercover/vote", include_str!("../../../prompts/undercover/vote.j2")),
    ("undercover/guess", include_str!("../../../prompts/undercover/guess.j2")),
];

fn request(system: String, user: String, max_tokens: u32) -> ChatRequest {
    ChatRequest {
        messages: vec![ChatMessage::system(system), ChatMessage::user(user)],
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

/// A rendered prompt; a template that does not render counts as a failed
/// model call (the caller's safe move).
fn rendered(prompt: Result<String, PromptError>) -> Option<String> {
    prompt.map_err(|e| tracing::warn!(error = %e, "an AI seat's prompt did not render; it falls back")).ok()
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

/// The seat as its prompts say it: its name, word and notes, and `heard`.
fn facts<'a>(view: &'a SeatView<'a>, heard: &'a str, notes: &'a str) -> SeatFacts<'a> {
    SeatFacts { name: &view.seat.name, word: own_word(view), heard, notes }
}

/// The seat's earlier reasons as a prompt reads them: none when blank.
fn notes_shown(notes: &str) -> &str {
    if notes.trim().is_empty() { "" } else { notes }
}

/// The rules of the game, every seat's system prompt.
pub fn system_prompt(prompts: &Prompts, lang: Language) -> Result<String, PromptError> {
    prompts.render("undercover/seat.system", context! { language => lang.code() })
}

/// What a seat's describe and vote prompts say of it.
#[derive(Debug, Clone, Copy)]
pub struct SeatFacts<'a> {
    pub name: &'a str,
    /// Its word; `None` for the blank.
    pub word: Option<&'a str>,
    /// What it heard: the record within its budget.
    pub heard: &'a str,
    /// Its own notes from earlier votes.
    pub notes: &'a str,
}

/// The describe prompt: who the seat is, its word (none for the blank),
/// its own notes, what was said, and the seed's strategy; a seat whose
/// last notes say it suspects it holds the odd word is told to blend in.
pub fn describe_prompt(prompts: &Prompts, lang: Language, seat: SeatFacts<'_>) -> Result<String, PromptError> {
    let SeatFacts { name, word, heard, notes } = seat;
    let suspects = notes.lines().last().is_some_and(|l| l.contains("[odd]"));
    let notes = notes_shown(notes);
    prompts.render("undercover/describe", context! { language => lang.code(), name, word, heard, notes, suspects })
}

/// The vote prompt: the seat, its word, its notes, what happened, the
/// choices, and the answer's form (its beliefs first, then the vote).
pub fn vote_prompt(
    prompts: &Prompts,
    lang: Language,
    seat: SeatFacts<'_>,
    choices: &[String],
) -> Result<String, PromptError> {
    let SeatFacts { name, word, heard, notes } = seat;
    let (word, notes) = (word.unwrap_or("-"), notes_shown(notes));
    prompts.render("undercover/vote", context! { language => lang.code(), name, word, heard, notes, choices })
}

/// The blank's last-guess prompt.
pub fn guess_prompt(prompts: &Prompts, lang: Language, name: &str, heard: &str) -> Result<String, PromptError> {
    prompts.render("undercover/guess", context! { language => lang.code(), name, heard })
}

/// Every fixed word an AI seat's built-in prompts hold, for the word-pair
/// check (a secret word there would be in every prompt).
pub fn prompt_frames(lang: Language) -> Result<String, PromptError> {
    let prompts = Prompts::from_sources(BUILT_IN.iter().map(|(name, source)| (name.to_string(), source.to_string())))?;
    Ok([
        system_prompt(&prompts, lang)?,
        describe_prompt(&prompts, lang, SeatFacts { name: "", word: Some(""), heard: "", notes: "x [odd]" })?,
        describe_prompt(&prompts, lang, SeatFacts { name: "", word: None, heard: "", notes: "x" })?,
        vote_prompt(&prompts, lang, SeatFacts { name: "", word: None, heard: "", notes: "x" }, &[])?,
        guess_prompt(&prompts, lang, "", "")?,
        note_line(lang, 1, "", &Reasons::default()),
        memory::frames(lang),
    ]
    .join("\n"))
}

/// One short line describing the seat's word (or, for the blank, a line
/// that blends in); the caller checks it against every secret word.
pub async fn describe(ctx: &TurnContext<'_>, view: &SeatView<'_>, lang: Language) -> Option<String> {
    let (heard, notes) = (heard(ctx, view, lang), own_notes(view));
    let prompts = &ctx.pipeline.prompts;
    let prompt = describe_prompt(prompts, lang, facts(view, &heard, &notes));
    let req = request(rendered(system_prompt(prompts, lang))?, rendered(prompt)?, 48);
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
    let (heard, notes) = (heard(ctx, view, lang), own_notes(view));
    let prompts = &ctx.pipeline.prompts;
    let prompt = vote_prompt(prompts, lang, facts(view, &heard, &notes), &list);
    let mut request = request(rendered(system_prompt(prompts, lang))?, rendered(prompt)?, 400);
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
    let prompts = &ctx.pipeline.prompts;
    let prompt = guess_prompt(prompts, lang, &view.seat.name, &heard);
    let said = ask(ctx, request(rendered(system_prompt(prompts, lang))?, rendered(prompt)?, 12)).await?;
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
