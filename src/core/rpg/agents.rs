//! The Lore RPG's model calls, seed 001's agents: the **referee** (an
//! action checked against the lore, with the scene planner's route in the
//! same answer: one call where seed 001 spends two), the **narrator** in
//! its three modes (narration, disqualification, correction), an **NPC**
//! speaking from its persona, the **persona extractor**, the referee again
//! on the reply, and the rolling **summary**. Structured answers are
//! parsed into typed values with a defined fallback: an unreadable ruling
//! approves the action and the route comes from the names it mentions.

use minijinja::context;
use serde::Deserialize;

use crate::core::game::TurnContext;
use crate::core::llm::{ChatMessage, ChatRequest, LlmClient, LlmError};
use crate::core::prompts::{PromptError, Prompts};
use crate::core::vocab::Language;

use super::Persona;
use super::world::{Npc, Passage, World};

/// Longest reply shown, in characters.
pub const MAX_REPLY: usize = 700;
/// A ruling below this confidence gives the player the benefit of the doubt.
pub const CONFIDENT: f32 = 0.5;

/// Where the scene goes (seed 001's `next_action`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    Narrate,
    Npc(String),
    Disqualify,
}

/// The referee's answer about an action or a reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Ruling {
    pub approved: bool,
    pub reason: String,
    pub confidence: f32,
    pub suggestions: Vec<String>,
    /// The planner's route (actions only); `None` when not given.
    pub plan: Option<Plan>,
    /// Passage ids it cited.
    pub cites: Vec<String>,
    /// Named flags the action sets ("gate_opened": true), kept with the
    /// session's frozen layer.
    pub flags: Vec<(String, bool)>,
    /// The summary's next chapter, when the referee was asked for one
    /// (folded into its call instead of a call of its own).
    pub chapter: Option<String>,
    /// What the action established that later turns may need (subject,
    /// what is true of it now), kept in the session's facts layer.
    pub facts: Vec<(String, String)>,
}

impl Ruling {
    /// Whether the ruling rejects with confidence.
    pub fn rejects(&self) -> bool {
        !self.approved && self.confidence >= CONFIDENT
    }
}

#[derive(Debug, Deserialize)]
struct RawRuling {
    approved: Option<serde_json::Value>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    confidence: Option<serde_json::Value>,
    #[serde(default)]
    suggestions: Option<serde_json::Value>,
    #[serde(default, alias = "action", alias = "route")]
    next_action: Option<String>,
    #[serde(default, alias = "npc")]
    target: Option<serde_json::Value>,
    #[serde(default, alias = "citations", alias = "sources")]
    cites: Option<serde_json::Value>,
    #[serde(default)]
    flags: Option<serde_json::Value>,
    #[serde(default)]
    chapter: Option<String>,
    #[serde(default, alias = "state", alias = "remember")]
    facts: Option<serde_json::Value>,
}

/// Facts a ruling may set at once.
pub const FACTS_PER_TURN: usize = 3;

/// `{"Ada's mule": "Pepper Quill, tied at the chapel well"}` as (subject,
/// text) pairs (a few; an empty text forgets the subject). Numbers and
/// booleans are read as text; anything else is skipped.
fn facts_of(v: &Option<serde_json::Value>) -> Vec<(String, String)> {
    let Some(serde_json::Value::Object(map)) = v else { return Vec::new() };
    map.iter()
        .filter_map(|(k, v)| {
            let text = match v {
                serde_json::Value::String(s) => s.trim().to_string(),
                serde_json::Value::Number(n) => n.to_string(),
                serde_json::Value::Bool(b) => b.to_string(),
                serde_json::Value::Null => String::new(),
                _ => return None,
            };
            let subject = clip(k.trim(), crate::core::context::Fact::SUBJECT_CHARS);
            (!subject.is_empty()).then(|| (subject, clip(&text, crate::core::context::Fact::TEXT_CHARS)))
        })
        .take(FACTS_PER_TURN)
        .collect()
}

/// `{"gate_opened": true}` as named booleans (a few, short names).
fn flags_of(v: &Option<serde_json::Value>) -> Vec<(String, bool)> {
    let Some(serde_json::Value::Object(map)) = v else { return Vec::new() };
    map.iter()
        .filter_map(|(k, v)| truthy(v).map(|b| (clip(k.trim(), 40), b)))
        .filter(|(k, _)| !k.is_empty())
        .take(4)
        .collect()
}

fn json_object(text: &str) -> Option<&str> {
    let start = text.find('{')?;
    let end = text.rfind('}')?;
    (end > start).then(|| &text[start..=end])
}

fn truthy(v: &serde_json::Value) -> Option<bool> {
    match v {
        serde_json::Value::Bool(b) => Some(*b),
        serde_json::Value::String(s) => match s.trim().to_lowercase().as_str() {
            "true" | "yes" | "approved" | "consistent" => Some(true),
            "false" | "no" | "rejected" | "contradicts" | "disqualified" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

fn strings(v: &Option<serde_json::Value>) -> Vec<String> {
    match v {
        Some(serde_json::Value::Array(items)) => items
            .iter()
            .filter_map(|i| match i {
                serde_json::Value::String(s) => Some(s.trim().to_string()),
                serde_json::Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
            .filter(|s| !s.is_empty())
            .take(3)
            .collect(),
        Some(serde_json::Value::String(s)) if !s.trim().is_empty() => vec![s.trim().to_string()],
        _ => Vec::new(),
    }
}

/// Reads a referee's answer: JSON (also inside prose or a code fence), or
/// a plain verdict word; `None` when neither is there.
pub fn parse_ruling(text: &str) -> Option<Ruling> {
    if let Some(raw) = json_object(text).and_then(|j| serde_json::from_str::<RawRuling>(j).ok()) {
        let plan = raw.next_action.as_deref().map(str::to_lowercase).and_then(|a| match a.trim() {
            "narrator_scene" | "narrate" | "narrator" | "scene" => Some(Plan::Narrate),
            "disqualify" | "disqualified" | "reject" => Some(Plan::Disqualify),
            "engage_npc" | "npc" => {
                let target = match &raw.target {
                    Some(serde_json::Value::String(s)) => s.trim().to_string(),
                    _ => String::new(),
                };
                Some(Plan::Npc(target))
            }
            _ => None,
        });
        let approved = raw.approved.as_ref().and_then(truthy).or(match &plan {
            Some(Plan::Disqualify) => Some(false),
            Some(_) => Some(true),
            None => None,
        })?;
        let confidence = match &raw.confidence {
            Some(serde_json::Value::Number(n)) => n.as_f64().unwrap_or(1.0) as f32,
            Some(serde_json::Value::String(s)) => s.trim().parse().unwrap_or(1.0),
            _ => 1.0,
        };
        let confidence = if confidence > 1.0 { confidence / 100.0 } else { confidence }.clamp(0.0, 1.0);
        return Some(Ruling {
            approved,
            reason: clip(raw.reason.as_deref().unwrap_or_default().trim(), 240),
            confidence,
            suggestions: strings(&raw.suggestions),
            plan,
            cites: strings(&raw.cites),
            flags: flags_of(&raw.flags),
            chapter: raw.chapter.map(|c| c.trim().to_string()).filter(|c| !c.is_empty()),
            facts: facts_of(&raw.facts),
        });
    }
    let approved = verdict_word(text)?;
    let reason = text.trim().split_once([':', '-', '—', '.']).map(|(_, r)| clip(r.trim(), 240)).unwrap_or_default();
    Some(Ruling {
        approved,
        reason,
        confidence: 0.8,
        suggestions: Vec::new(),
        plan: None,
        cites: Vec::new(),
        flags: Vec::new(),
        chapter: None,
        facts: Vec::new(),
    })
}

/// A prose ruling's verdict: its first word, whole ("No." rejects;
/// "Nothing forbids it" or "Nobody minds" is no verdict at all).
fn verdict_word(text: &str) -> Option<bool> {
    let first: String = text.trim().chars().take_while(|c| c.is_alphanumeric()).collect::<String>().to_lowercase();
    match first.as_str() {
        "approved" | "approve" | "consistent" | "yes" | "allowed" => Some(true),
        "rejected" | "reject" | "contradicts" | "contradicted" | "inconsistent" | "no" | "disqualified"
        | "disqualify" => Some(false),
        _ => None,
    }
}

pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max).collect();
    match cut.rfind(['.', '!', '?', '。', '！', '？']) {
        Some(i) if i > max / 2 => cut[..=i + cut[i..].chars().next().map_or(0, char::len_utf8) - 1].to_string(),
        _ => format!("{}…", cut.trim_end()),
    }
}

/// A model's prose as shown: the first lines, no role label or quotes,
/// at most `MAX_REPLY` characters; `None` when nothing is left.
pub fn clean_reply(text: &str, speaker: &str) -> Option<String> {
    let mut t = text.trim();
    for label in [speaker, "Game master", "GM", "Narrator", "主持人"] {
        if let Some(rest) = t.strip_prefix(label).and_then(|r| r.trim_start().strip_prefix([':', '：'])) {
            t = rest.trim();
        }
    }
    let t = t.trim_matches(|c: char| c == '"' || c == '“' || c == '”').trim();
    let t = clip(t, MAX_REPLY);
    (!t.is_empty()).then_some(t)
}

fn passages_block(passages: &[&Passage]) -> String {
    passages.iter().map(|p| format!("[{}] {}: {}", p.id, p.title, p.text)).collect::<Vec<_>>().join("\n")
}

fn rules_block(world: &World) -> String {
    world.rules.iter().map(|r| format!("- {r}")).collect::<Vec<_>>().join("\n")
}

fn npc_names(world: &World) -> String {
    world.npcs.iter().map(|n| n.name.as_str()).collect::<Vec<_>>().join(", ")
}

/// A model's two messages, each its template rendered.
fn messages(
    prompts: &Prompts,
    (system, user): (&str, &str),
    (system_ctx, user_ctx): (minijinja::Value, minijinja::Value),
) -> Result<Vec<ChatMessage>, PromptError> {
    Ok(vec![
        ChatMessage::system(prompts.render(system, system_ctx)?),
        ChatMessage::user(prompts.render(user, user_ctx)?),
    ])
}

/// A summary chapter asked of the referee: turns `from` to `upto` (in
/// its latest turns), in at most `words` words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChapterAsk {
    pub from: u32,
    pub upto: u32,
    pub words: usize,
}

/// The referee's (and planner's) request (`rpg/referee.system`, `.user`):
/// the world's rules, the lore passages, the history, the characters
/// players can address, the action, and the summary's next chapter when
/// one is due.
pub fn referee_prompt(
    prompts: &Prompts,
    lang: Language,
    world: &World,
    passages: &[&Passage],
    history: &str,
    (player, action): (&str, &str),
    chapter: Option<ChapterAsk>,
) -> Result<Vec<ChatMessage>, PromptError> {
    let language = lang.code();
    let rules = rules_block(world);
    let system = context! { language, title => world.title, rules, facts_per_turn => FACTS_PER_TURN };
    let chapter = chapter.map(|c| context! { start => c.from, upto => c.upto, words => c.words });
    let user = context! { language, lore => passages_block(passages), history, names => npc_names(world), player,
        action, chapter };
    messages(prompts, ("rpg/referee.system", "rpg/referee.user"), (system, user))
}

/// The referee on a reply (the second check of seed 001;
/// `rpg/reply_check.system`, `.user`).
pub fn reply_check_prompt(
    prompts: &Prompts,
    lang: Language,
    world: &World,
    passages: &[&Passage],
    reply: &str,
) -> Result<Vec<ChatMessage>, PromptError> {
    let language = lang.code();
    let system = context! { language, title => world.title, rules => rules_block(world) };
    let user = context! { language, lore => passages_block(passages), reply };
    messages(prompts, ("rpg/reply_check.system", "rpg/reply_check.user"), (system, user))
}

/// What the narrator is asked to write.
pub enum Mode<'a> {
    Narration,
    Disqualification { reason: &'a str, suggestions: &'a [String] },
    Correction { wrong: &'a str, reason: &'a str },
}

/// The game master's request (`rpg/narrator.system`, `.user`): the world,
/// the lore passages, the public history and the task its `mode` names.
pub fn narrator_prompt(
    prompts: &Prompts,
    lang: Language,
    world: &World,
    passages: &[&Passage],
    history: &str,
    (player, action): (&str, &str),
    mode: Mode<'_>,
) -> Result<Vec<ChatMessage>, PromptError> {
    let language = lang.code();
    let system = context! { language, title => world.title, premise => world.premise, rules => rules_block(world) };
    let (mode, reason, suggestions, wrong): (&str, &str, &[String], &str) = match mode {
        Mode::Narration => ("narration", "", &[], ""),
        Mode::Disqualification { reason, suggestions } => ("disqualification", reason, suggestions, ""),
        Mode::Correction { wrong, reason } => ("correction", reason, &[], wrong),
    };
    let user = context! { language, lore => passages_block(passages), history, player, action, mode, reason,
        suggestions, wrong };
    messages(prompts, ("rpg/narrator.system", "rpg/narrator.user"), (system, user))
}

/// A persona as the NPC's own prompt shows it (`rpg/npc.card`).
pub fn persona_card(prompts: &Prompts, lang: Language, p: &Persona) -> Result<String, PromptError> {
    prompts.render(
        "rpg/npc.card",
        context! { language => lang.code(), name => p.name, style => p.style, traits => p.traits,
            background => p.background, wants => p.wants },
    )
}

/// An NPC's request (`rpg/npc.system`, `.user`): its persona, what it
/// knows and never says outright (its GM-only passages), the world's
/// rules, the lore, the public history and what the player said to it.
pub fn npc_prompt(
    prompts: &Prompts,
    lang: Language,
    (world, persona): (&World, &Persona),
    secrets: &[&Passage],
    passages: &[&Passage],
    history: &str,
    (player, action): (&str, &str),
) -> Result<Vec<ChatMessage>, PromptError> {
    let language = lang.code();
    let card = persona_card(prompts, lang, persona)?;
    let known = secrets.iter().map(|p| format!("- {}", p.text)).collect::<Vec<_>>().join("\n");
    let system = context! { language, title => world.title, card, known, rules => rules_block(world) };
    let user = context! { language, lore => passages_block(passages), history, player, action };
    messages(prompts, ("rpg/npc.system", "rpg/npc.user"), (system, user))
}

/// The persona extractor's request (`rpg/persona.system`, `.user`): the
/// character and its own passages.
pub fn persona_prompt(
    prompts: &Prompts,
    lang: Language,
    npc: &Npc,
    passages: &[&Passage],
) -> Result<Vec<ChatMessage>, PromptError> {
    let language = lang.code();
    let user = context! { language, name => npc.name, lore => passages_block(passages) };
    messages(prompts, ("rpg/persona.system", "rpg/persona.user"), (context! { language }, user))
}

#[derive(Debug, Deserialize)]
struct RawPersona {
    #[serde(default, alias = "style")]
    speaking_style: Option<String>,
    #[serde(default, alias = "personality_traits")]
    traits: Option<serde_json::Value>,
    #[serde(default)]
    background: Option<String>,
    #[serde(default, alias = "goals")]
    wants: Option<String>,
}

/// A persona from the extractor's JSON; `None` when unreadable or empty.
pub fn parse_persona(text: &str, npc: &Npc) -> Option<Persona> {
    let raw: RawPersona = serde_json::from_str(json_object(text)?).ok()?;
    let style = clip(raw.speaking_style.unwrap_or_default().trim(), 200);
    let background = clip(raw.background.unwrap_or_default().trim(), 400);
    if style.is_empty() && background.is_empty() {
        return None;
    }
    Some(Persona {
        npc: npc.id.clone(),
        name: npc.name.clone(),
        style,
        traits: strings(&raw.traits).into_iter().map(|t| clip(&t, 40)).collect(),
        background,
        wants: clip(raw.wants.unwrap_or_default().trim(), 200),
        extracted: true,
        sources: npc.passages.clone(),
    })
}

/// The persona without a model: the NPC's first passage as background.
pub fn stock_persona(lang: Language, npc: &Npc, passages: &[&Passage]) -> Persona {
    let background = passages.first().map(|p| clip(&p.text, 400)).unwrap_or_default();
    Persona {
        npc: npc.id.clone(),
        name: npc.name.clone(),
        style: match lang {
            Language::En => "plain and guarded, as the passages describe them".into(),
            Language::Zh => "说话朴实而谨慎，如设定所述".into(),
        },
        traits: Vec::new(),
        background,
        wants: String::new(),
        extracted: false,
        sources: npc.passages.clone(),
    }
}

/// The summary's request (`rpg/summary.system`, `.user`): the next
/// chapter, in at most `words` words (twice as many characters in
/// Chinese), from the story so far and the new turns.
pub fn summary_prompt(
    prompts: &Prompts,
    lang: Language,
    world: &World,
    (previous, turns): (&str, &str),
    words: usize,
) -> Result<Vec<ChatMessage>, PromptError> {
    let language = lang.code();
    let system = context! { language, title => world.title, words };
    messages(prompts, ("rpg/summary.system", "rpg/summary.user"), (system, context! { language, previous, turns }))
}

fn request(messages: Vec<ChatMessage>, max_tokens: u32, temperature: f32) -> ChatRequest {
    ChatRequest { messages, max_tokens, temperature, seed: None, json_schema: None }
}

/// One model call's text; `Err` when the model failed (the turn is not played).
pub async fn call(
    model: &dyn LlmClient,
    messages: Vec<ChatMessage>,
    max_tokens: u32,
    temperature: f32,
) -> Result<String, LlmError> {
    model.chat(request(messages, max_tokens, temperature)).await.map(|r| r.text)
}

/// The referee's JSON schema (providers with structured output use it).
pub fn ruling_schema(with_plan: bool, chapter: bool) -> serde_json::Value {
    let mut props = serde_json::json!({
        "approved": {"type": "boolean"},
        "reason": {"type": "string"},
        "confidence": {"type": "number"},
        "cites": {"type": "array", "items": {"type": "string"}}
    });
    if with_plan {
        props["suggestions"] = serde_json::json!({"type": "array", "items": {"type": "string"}});
        props["next_action"] =
            serde_json::json!({"type": "string", "enum": ["narrator_scene", "engage_npc", "disqualify"]});
        props["target"] = serde_json::json!({"type": ["string", "null"]});
        props["flags"] = serde_json::json!({"type": "object", "additionalProperties": {"type": "boolean"}});
        props["facts"] = serde_json::json!({"type": "object", "additionalProperties": {"type": "string"}});
    }
    let mut required = vec!["approved", "reason"];
    if chapter {
        props["chapter"] = serde_json::json!({"type": "string"});
        required.push("chapter");
    }
    serde_json::json!({"type": "object", "properties": props, "required": required})
}

/// The referee's call, structured where the provider supports it.
pub async fn rule(
    ctx: &TurnContext<'_>,
    messages: Vec<ChatMessage>,
    with_plan: bool,
    chapter: bool,
) -> Result<String, LlmError> {
    let mut req = request(messages, if chapter { 320 } else { 160 }, 0.0);
    req.json_schema = Some(ruling_schema(with_plan, chapter));
    ctx.pipeline.models.judge.chat(req).await.map(|r| r.text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rulings_are_read_from_json_prose_or_a_verdict_word() {
        let r = parse_ruling(
            "Sure: ```json\n{\"approved\": false, \"reason\": \"No one flies.\", \"confidence\": 0.9, \"suggestions\": [\"Take the causeway\"], \"next_action\": \"disqualify\", \"target\": null}\n```",
        )
        .unwrap();
        assert!(r.rejects());
        assert_eq!(r.plan, Some(Plan::Disqualify));
        assert_eq!(r.suggestions, ["Take the causeway"]);
        let r = parse_ruling("{\"approved\": true, \"flags\": {\"gate_opened\": true, \"x\": 3}}").unwrap();
        assert_eq!(r.flags, [("gate_opened".to_string(), true)]);
        let r = parse_ruling(
            "{\"approved\": true, \"facts\": {\"Ada's debt\": \"eleven shillings to Mabry\", \"coins\": 3, \"x\": [1]}}",
        )
        .unwrap();
        let facts: Vec<(&str, &str)> = r.facts.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(facts.len(), 2, "{facts:?}");
        assert!(facts.contains(&("Ada's debt", "eleven shillings to Mabry")) && facts.contains(&("coins", "3")));
        let many = parse_ruling("{\"approved\": true, \"facts\": {\"a\": \"1\", \"b\": \"2\", \"c\": \"3\", \"d\": \"4\"}}");
        assert_eq!(many.unwrap().facts.len(), FACTS_PER_TURN);
        let r =
            parse_ruling("{\"approved\": \"yes\", \"next_action\": \"engage_npc\", \"target\": \"Tamsin\"}").unwrap();
        assert!(r.approved && r.confidence == 1.0);
        assert_eq!(r.plan, Some(Plan::Npc("Tamsin".into())));
        let r = parse_ruling("{\"approved\": false, \"reason\": \"maybe\", \"confidence\": 30}").unwrap();
        assert!(!r.rejects(), "low confidence gives the benefit of the doubt");
        assert!(parse_ruling("Contradicts: the dead stay dead.").is_some_and(|r| r.rejects()));
        assert!(parse_ruling("The harbour is quiet tonight.").is_none());
        assert!(parse_ruling("{\"reason\": \"no verdict here\"}").is_none());
        // A verdict is a whole first word: prose that merely opens with
        // "no…" or "yes…" is not one.
        assert!(parse_ruling("Nothing forbids it: the causeway is open.").is_none());
        assert!(parse_ruling("Nobody in Hollowtide would stop you.").is_none());
        assert!(parse_ruling("Yesterday's tide was high.").is_none());
        assert!(parse_ruling("No. The dead stay dead.").is_some_and(|r| r.rejects()));
        assert!(parse_ruling("Yes - the ferry runs.").is_some_and(|r| r.approved));
    }

    #[test]
    fn replies_are_cleaned_and_clipped() {
        assert_eq!(clean_reply("Game master: \"The bell tolls.\"", "Mira").as_deref(), Some("The bell tolls."));
        assert_eq!(clean_reply("Mira: Go away.", "Mira").as_deref(), Some("Go away."));
        assert!(clean_reply("  ", "x").is_none());
        assert!(clean_reply(&"word ".repeat(400), "x").unwrap().chars().count() <= MAX_REPLY + 1);
    }
}
