//! The AI seats' model calls (Werewolf Arena's agents): a bid for the
//! floor with what the seat would say, a day vote, a night action, the
//! Hunter's shot. Each prompt is a template in `prompts/werewolf/`,
//! rendered from the seat's `SeatView` only:
//! the public record (through the layered context: the older turns
//! folded, the recent ones verbatim) and the seat's own lines (its role,
//! what it did and learned at night, its pack's channel) with its private
//! notes. The model answers with structured output: its beliefs about
//! each player first (private reasoning, kept as the seat's notes and
//! read back into its own prompts only), then the move. An answer that is
//! not JSON is salvaged where it can be; `None` (the model failed) and a
//! move that breaks a rule fall back to a safe move in the table.

use minijinja::context;
use serde_json::{Value, json};

use crate::core::context::{Layers, estimate_tokens, fold_older};
use crate::core::game::{SeatView, TurnContext};
use crate::core::llm::echo::Instructions;
use crate::core::llm::{ChatMessage, ChatRequest};
use crate::core::prompts::PromptError;
use crate::core::vocab::Language;

/// Public turns shown verbatim; older ones are folded.
const HOT_TURNS: usize = 24;
/// Tokens for the folded older turns, and for the whole public block.
const COLD_TOKENS: usize = 300;
const PUBLIC_TOKENS: usize = 1_800;
/// Longest speech or note an AI seat may make, in characters.
pub const MAX_SPEECH: usize = 300;
/// Longest private notes kept, in characters.
const MAX_MEMO: usize = 600;

/// What an AI seat is asked to choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    Vote,
    Kill,
    Check,
    Protect,
    Potion,
    Shoot,
}

/// The Witch's choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Potion {
    Save,
    Poison,
    None,
}

/// The seat asking, and what its prompt may hold.
pub struct Asker<'a> {
    pub view: &'a SeatView<'a>,
    /// `#3 Carol`.
    pub label: &'a str,
    pub lang: Language,
    pub seats: usize,
    pub day: u32,
    /// The session's canary: seeing it in a reply is a prompt leaking.
    pub canary: &'a str,
    pub memo: Option<&'a str>,
}

/// A seat's choice, read from its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// An option's id (a seat number), if one was named.
    pub target: Option<String>,
    pub potion: Potion,
    /// A werewolf's line to the pack.
    pub note: Option<String>,
    pub memo: Option<String>,
    /// The answer was the JSON asked for (not salvaged from text).
    pub clean: bool,
}

/// A seat's bid for the floor and what it would say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bid {
    pub urgency: u8,
    pub speech: Option<String>,
    pub memo: Option<String>,
    pub clean: bool,
}

/// The model's answer to a choice; `None` when the model failed.
pub async fn choose(
    ctx: &TurnContext<'_>,
    asker: &Asker<'_>,
    ask: Ask,
    options: &[(String, String)],
    witch: (&str, &str),
) -> Option<Choice> {
    let schema = match ask {
        Ask::Kill => note_schema(),
        Ask::Potion => potion_schema(),
        _ => target_schema(),
    };
    let messages = rendered(prompt(ctx, asker, ask.name(), options, witch))?;
    let instructions = instructions_of(asker, &messages);
    let said = ask_model(ctx, messages, schema, 400).await?;
    let mut choice = parse_choice(&said, options);
    choice.note = choice.note.filter(|n| !instructions.echoed_by(n));
    Some(choice)
}

impl Ask {
    /// Its name in the prompt templates (`ask == "kill"`).
    fn name(self) -> &'static str {
        match self {
            Ask::Vote => "vote",
            Ask::Kill => "kill",
            Ask::Check => "check",
            Ask::Protect => "protect",
            Ask::Potion => "potion",
            Ask::Shoot => "shoot",
        }
    }
}

/// The engine's guard for a seat's words (a speech, a note to the pack):
/// the prompt's runs that the seat's public record lacks.
fn instructions_of(asker: &Asker<'_>, messages: &[ChatMessage]) -> Instructions {
    let public: Vec<String> = asker.view.public.iter().map(|t| format!("{}: {}", t.player, t.text)).collect();
    Instructions::of(messages, &public.join("\n"), asker.lang)
}

/// The model's bid for the floor; `None` when the model failed.
pub async fn bid(ctx: &TurnContext<'_>, asker: &Asker<'_>) -> Option<Bid> {
    let messages = rendered(prompt(ctx, asker, "debate", &[], ("", "")))?;
    let instructions = instructions_of(asker, &messages);
    let said = ask_model(ctx, messages, bid_schema(), 500).await?;
    let mut bid = parse_bid(&said);
    bid.speech = bid.speech.filter(|s| !instructions.echoed_by(s));
    Some(bid)
}

/// A rendered prompt; a template that does not render counts as a failed
/// model call (the table's safe move).
fn rendered(prompt: Result<Vec<ChatMessage>, PromptError>) -> Option<Vec<ChatMessage>> {
    prompt.map_err(|e| tracing::warn!(error = %e, "an AI seat's prompt did not render; it falls back")).ok()
}

/// The prompt (`prompts/werewolf/seat.system` and `seat.user`): the
/// canary, the rules and who the seat is (system); what only it knows,
/// its notes, the public record, the task (`ask`: `debate`, `vote`,
/// `kill`, …) and the answer's form (user).
pub fn prompt(
    ctx: &TurnContext<'_>,
    asker: &Asker<'_>,
    ask: &str,
    options: &[(String, String)],
    witch: (&str, &str),
) -> Result<Vec<ChatMessage>, PromptError> {
    let language = asker.lang.code();
    let prompts = &ctx.pipeline.prompts;
    let (canary, seats, seat) = (asker.canary, asker.seats, asker.label);
    let system = prompts.render("werewolf/seat.system", context! { language, canary, seats, seat })?;
    let known = (!asker.view.own.is_empty()).then(|| asker.view.own.join("\n"));
    let memo = asker.memo.filter(|m| !m.trim().is_empty()).unwrap_or("");
    let public = public_block(ctx, asker.view, asker.lang);
    let choices: String = options.iter().map(|(_, label)| label.as_str()).collect::<Vec<_>>().join(", ");
    let (day, victim, potions) = (asker.day, witch.0, witch.1);
    let user = prompts.render(
        "werewolf/seat.user",
        context! { language, known, memo, public, ask, day, choices, victim, potions },
    )?;
    Ok(vec![ChatMessage::system(system), ChatMessage::user(user)])
}

/// The public record through the layered context: turns before the hot
/// window folded into one bounded line, the recent ones verbatim, fitted
/// to a budget by the model's own tokenizer where it has one.
fn public_block(ctx: &TurnContext<'_>, view: &SeatView<'_>, lang: Language) -> String {
    let model = ctx.pipeline.models.narrator.clone();
    let count = move |t: &str| model.count_tokens(t).unwrap_or_else(|| estimate_tokens(t));
    let lines: Vec<String> = view.public.iter().map(|t| format!("{}: {}", t.player, t.text)).collect();
    let split = lines.len().saturating_sub(HOT_TURNS);
    let summary = fold_older(&lines[..split], COLD_TOKENS, &count).unwrap_or_default();
    let layers = Layers { summary, hot: lines[split..].to_vec(), ..Layers::default() };
    layers.fit(lang, PUBLIC_TOKENS, &count).0
}

async fn ask_model(
    ctx: &TurnContext<'_>,
    messages: Vec<ChatMessage>,
    schema: Value,
    max_tokens: u32,
) -> Option<String> {
    let request = ChatRequest { messages, max_tokens, temperature: 0.7, seed: None, json_schema: Some(schema) };
    match ctx.pipeline.models.narrator.chat(request).await {
        Ok(reply) => Some(reply.text),
        Err(e) => {
            tracing::info!(error = %e, "an AI seat's model call failed; it falls back to a safe move");
            None
        }
    }
}

fn beliefs_schema() -> Value {
    json!({"type": "array", "items": {"type": "object",
        "properties": {"seat": {"type": "integer"}, "belief": {"type": "string"}},
        "required": ["seat", "belief"], "additionalProperties": false}})
}

fn object_schema(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
}

fn target_schema() -> Value {
    object_schema(json!({"beliefs": beliefs_schema(), "target": {"type": "integer"}}), &["beliefs", "target"])
}

fn note_schema() -> Value {
    let props = json!({"beliefs": beliefs_schema(), "target": {"type": "integer"}, "note": {"type": "string"}});
    object_schema(props, &["beliefs", "target", "note"])
}

fn potion_schema() -> Value {
    let props = json!({"beliefs": beliefs_schema(),
        "potion": {"type": "string", "enum": ["save", "poison", "none"]}, "target": {"type": "integer"}});
    object_schema(props, &["beliefs", "potion", "target"])
}

fn bid_schema() -> Value {
    let props = json!({"beliefs": beliefs_schema(),
        "urgency": {"type": "integer", "minimum": 0, "maximum": 4}, "speech": {"type": "string"}});
    object_schema(props, &["beliefs", "urgency", "speech"])
}

/// The JSON object in an answer (a model may wrap it in prose or a fence).
fn json_of(said: &str) -> Option<Value> {
    let (start, end) = (said.find('{')?, said.rfind('}')?);
    serde_json::from_str::<Value>(said.get(start..=end)?).ok().filter(Value::is_object)
}

/// Reads a choice among `options` (ids are seat numbers); an answer that
/// is not JSON is salvaged: the first option's number in it.
pub fn parse_choice(said: &str, options: &[(String, String)]) -> Choice {
    let is_option = |n: &str| options.iter().any(|(id, _)| id == n);
    match json_of(said) {
        Some(v) => {
            let target = number_in(&v["target"]).filter(|n| is_option(n));
            let potion = match v["potion"].as_str().map(str::to_lowercase).as_deref() {
                Some("save") => Potion::Save,
                Some("poison") => Potion::Poison,
                _ => Potion::None,
            };
            let note = v["note"].as_str().and_then(clean_text);
            Choice { target, potion, note, memo: memo_of(&v["beliefs"]), clean: true }
        }
        None => {
            let lower = said.to_lowercase();
            let potion = if lower.contains("poison") {
                Potion::Poison
            } else if lower.contains("save") {
                Potion::Save
            } else {
                Potion::None
            };
            let target = numbers(said).into_iter().find(|n| is_option(n));
            Choice { target, potion, note: None, memo: None, clean: false }
        }
    }
}

/// Reads a bid; an answer that is not JSON is salvaged as a speech with
/// a middling urgency.
pub fn parse_bid(said: &str) -> Bid {
    match json_of(said) {
        Some(v) => {
            let urgency = v["urgency"].as_u64().or_else(|| number_in(&v["urgency"]).and_then(|n| n.parse().ok()));
            Bid {
                urgency: urgency.unwrap_or(2).min(4) as u8,
                speech: v["speech"].as_str().and_then(clean_text),
                memo: memo_of(&v["beliefs"]),
                clean: true,
            }
        }
        None => Bid { urgency: 2, speech: clean_text(said), memo: None, clean: false },
    }
}

/// A seat number from a JSON number or a string holding one (`"#3"`).
fn number_in(v: &Value) -> Option<String> {
    match v {
        Value::Number(n) => n.as_u64().map(|n| n.to_string()),
        Value::String(s) => numbers(s).into_iter().next(),
        _ => None,
    }
}

/// Every run of digits in a text, in order.
fn numbers(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_digit()).filter(|t| !t.is_empty()).map(str::to_string).collect()
}

/// The seat's beliefs as notes: `#3: lied about the vote`, one a line.
fn memo_of(beliefs: &Value) -> Option<String> {
    let line = |seat: &str, belief: &str| format!("#{}: {}", seat.trim_start_matches('#'), belief.trim());
    let lines: Vec<String> = match beliefs {
        Value::Array(items) => {
            items.iter().filter_map(|b| Some(line(&number_in(&b["seat"])?, b["belief"].as_str()?))).collect()
        }
        Value::Object(map) => map.iter().filter_map(|(k, b)| Some(line(k, b.as_str()?))).collect(),
        Value::String(s) => vec![s.trim().to_string()],
        _ => Vec::new(),
    };
    let memo: String = lines.join("\n").chars().take(MAX_MEMO).collect();
    (!memo.trim().is_empty()).then_some(memo)
}

/// A speech or note as posted: one paragraph without quotes or a speaker
/// label, cut short; `None` for nothing usable.
pub fn clean_text(said: &str) -> Option<String> {
    let joined = said.split_whitespace().collect::<Vec<_>>().join(" ");
    let text = joined
        .trim_matches(|c: char| matches!(c, '"' | '“' | '”' | '\'' | '「' | '」' | '*' | '`') || c.is_whitespace());
    let text: String = text.chars().take(MAX_SPEECH).collect();
    (!text.trim().is_empty()).then_some(text)
}
