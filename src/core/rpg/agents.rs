//! The Lore RPG's model calls, seed 001's agents: the **referee** (an
//! action checked against the lore, with the scene planner's route in the
//! same answer: one call where seed 001 spends two), the **narrator** in
//! its three modes (narration, disqualification, correction), an **NPC**
//! speaking from its persona, the **persona extractor**, the referee again
//! on the reply, and the rolling **summary**. Structured answers are
//! parsed into typed values with a defined fallback: an unreadable ruling
//! approves the action and the route comes from the names it mentions.

use serde::Deserialize;

use crate::core::game::TurnContext;
use crate::core::llm::{ChatMessage, ChatRequest, LlmClient, LlmError};
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

/// The referee's (and planner's) system prompt.
pub fn referee_rules(lang: Language, world: &World) -> String {
    match lang {
        Language::En => format!(
            "You are the rules referee of a role-playing game set in {title} (LORE-REFEREE). You check a player's \
             action against the world's rules and lore passages. Players may try anything the world allows; an \
             action breaks the world only when it claims a fact the lore denies or acts outside its rules (magic, \
             technology, travel, what exists). Then plan the scene: \"narrator_scene\" (the game master describes \
             what happens), \"engage_npc\" (a named character answers; give the name as target) or \"disqualify\" \
             (the action breaks the world). Answer with JSON only: {{\"approved\": true or false, \"reason\": \
             \"one sentence\", \"confidence\": 0.0 to 1.0, \"suggestions\": [\"what they could do instead\"], \
             \"next_action\": \"narrator_scene|engage_npc|disqualify\", \"target\": \"name or null\", \"cites\": \
             [\"passage id\"], \"flags\": {{\"a_named_event\": true}} (only when the action changes a lasting fact, \
             e.g. gate_opened), \"facts\": {{\"subject\": \"what is true of it now\"}} (at most {FACTS_PER_TURN}: what \
             the action establishes that later turns may need, such as where something was left, a name, a number, \
             a promise, a debt or a date, e.g. {{\"the iron key\": \"under the inn's doormat\"}}; {{}} when nothing)}}\n\
             The world's rules:\n{rules}",
            title = world.title,
            rules = rules_block(world)
        ),
        Language::Zh => format!(
            "你是角色扮演游戏《{title}》的规则裁判（LORE-REFEREE）。你要对照世界规则和设定段落检查玩家的行动。玩家可以尝试世界允许的任何事；\
             只有当行动声称了设定否认的事实，或超出了世界的规则（法术、技术、交通、存在之物）时，才算违背设定。然后安排场景：\
             \"narrator_scene\"（主持人描述发生了什么）、\"engage_npc\"（某个人物回应，target 写人名）或 \"disqualify\"（行动违背设定）。\
             只用 JSON 回答：{{\"approved\": true 或 false, \"reason\": \"一句话\", \"confidence\": 0.0 到 1.0, \"suggestions\": \
             [\"可以改做什么\"], \"next_action\": \"narrator_scene|engage_npc|disqualify\", \"target\": \"人名或 null\", \"cites\": \
             [\"段落 id\"], \"flags\": {{\"事件名\": true}}（仅当行动改变了持久的事实，如 gate_opened）, \"facts\": \
             {{\"对象\": \"它现在的情况\"}}（最多 {FACTS_PER_TURN} 条：行动确立的、之后的回合可能用到的事实，如东西放在哪里、名字、数目、\
             承诺、欠债或日期，例如 {{\"铁钥匙\": \"在客栈的门垫下\"}}；没有就给 {{}}）}}\n世界规则：\n{rules}",
            title = world.title,
            rules = rules_block(world)
        ),
    }
}

/// A summary chapter asked of the referee: turns `from` to `upto` (in
/// its latest turns), in at most `words` words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChapterAsk {
    pub from: u32,
    pub upto: u32,
    pub words: usize,
}

pub fn referee_prompt(
    lang: Language,
    world: &World,
    passages: &[&Passage],
    history: &str,
    (player, action): (&str, &str),
    chapter: Option<ChapterAsk>,
) -> Vec<ChatMessage> {
    let lore = passages_block(passages);
    let names = npc_names(world);
    let mut user = match lang {
        Language::En => format!(
            "Lore passages:\n{lore}\n\n{history}\n\nCharacters players can address: {names}\nThe action of {player}: {action}"
        ),
        Language::Zh => {
            format!("设定段落：\n{lore}\n\n{history}\n\n玩家可以交谈的人物：{names}\n{player} 的行动：{action}")
        }
    };
    if let Some(c) = chapter {
        user.push_str(&match lang {
            Language::En => format!(
                "\nAlso give \"chapter\": what happened in turns {}–{} of the latest turns, in at most {} words, keeping \
                 every name, place, item, promise and decision.",
                c.from, c.upto, c.words
            ),
            Language::Zh => format!(
                "\n另外给出 \"chapter\"：最近回合中第 {}–{} 回合发生了什么，不超过 {} 字，保留所有人名、地点、物品、承诺和决定。",
                c.from,
                c.upto,
                c.words * 2
            ),
        });
    }
    vec![ChatMessage::system(referee_rules(lang, world)), ChatMessage::user(user)]
}

/// The referee on a reply (the second check of seed 001).
pub fn reply_check_prompt(lang: Language, world: &World, passages: &[&Passage], reply: &str) -> Vec<ChatMessage> {
    let lore = passages_block(passages);
    let (system, user) = match lang {
        Language::En => (
            format!(
                "You are the rules referee of {title} (LORE-REFEREE-REPLY). Check the game master's reply against the \
                 world's rules and the lore passages: does it state anything they deny? Invented details that the \
                 lore leaves open are fine. Answer with JSON only: {{\"approved\": true or false, \"reason\": \"one \
                 sentence\", \"confidence\": 0.0 to 1.0, \"cites\": [\"passage id\"]}}\nThe world's rules:\n{rules}",
                title = world.title,
                rules = rules_block(world)
            ),
            format!("Lore passages:\n{lore}\n\nThe reply to check:\n{reply}"),
        ),
        Language::Zh => (
            format!(
                "你是《{title}》的规则裁判（LORE-REFEREE-REPLY）。对照世界规则和设定段落检查主持人的回应：它是否说了设定否认的事？\
                 设定未提及的细节可以自由发挥。只用 JSON 回答：{{\"approved\": true 或 false, \"reason\": \"一句话\", \
                 \"confidence\": 0.0 到 1.0, \"cites\": [\"段落 id\"]}}\n世界规则：\n{rules}",
                title = world.title,
                rules = rules_block(world)
            ),
            format!("设定段落：\n{lore}\n\n要检查的回应：\n{reply}"),
        ),
    };
    vec![ChatMessage::system(system), ChatMessage::user(user)]
}

/// What the narrator is asked to write.
pub enum Mode<'a> {
    Narration,
    Disqualification { reason: &'a str, suggestions: &'a [String] },
    Correction { wrong: &'a str, reason: &'a str },
}

pub fn narrator_prompt(
    lang: Language,
    world: &World,
    passages: &[&Passage],
    history: &str,
    player: &str,
    action: &str,
    mode: Mode<'_>,
) -> Vec<ChatMessage> {
    let lore = passages_block(passages);
    let system = match lang {
        Language::En => format!(
            "You are the game master of {title} (LORE-NARRATOR), a role-playing game. {premise}\nStay true to the \
             world's rules and the lore passages; never state what they deny. Speak to the players in the second \
             person, vividly and briefly. Never decide what a player does or says.\nThe world's rules:\n{rules}",
            title = world.title,
            premise = world.premise,
            rules = rules_block(world)
        ),
        Language::Zh => format!(
            "你是角色扮演游戏《{title}》的主持人（LORE-NARRATOR）。{premise}\n忠于世界规则和设定段落，绝不说出与之相悖的事。\
             用第二人称对玩家说话，生动而简短。不要替玩家决定行动或台词。\n世界规则：\n{rules}",
            title = world.title,
            premise = world.premise,
            rules = rules_block(world)
        ),
    };
    let task = match (lang, mode) {
        (Language::En, Mode::Narration) => {
            format!("{player} acts: {action}\nDescribe what happens next in two to four sentences.")
        }
        (Language::Zh, Mode::Narration) => format!("{player} 的行动：{action}\n用两到四句话描述接下来发生了什么。"),
        (Language::En, Mode::Disqualification { reason, suggestions }) => format!(
            "{player} tried: {action}\nThe referee ruled that this breaks the world: {reason}\nIn one or two sentences, \
             in the story's voice, tell them why it cannot happen{}.",
            if suggestions.is_empty() { String::new() } else { format!(", and suggest: {}", suggestions.join("; ")) }
        ),
        (Language::Zh, Mode::Disqualification { reason, suggestions }) => format!(
            "{player} 尝试：{action}\n裁判判定这违背了世界设定：{reason}\n用一两句话、以故事的口吻告诉他为什么做不到{}。",
            if suggestions.is_empty() { String::new() } else { format!("，并建议：{}", suggestions.join("；")) }
        ),
        (Language::En, Mode::Correction { wrong, reason }) => format!(
            "{player} acted: {action}\nThis reply broke the lore: \"{wrong}\"\nWhy: {reason}\nIn one or two \
             sentences, set the record straight, true to the passages, and go on with the scene."
        ),
        (Language::Zh, Mode::Correction { wrong, reason }) => format!(
            "{player} 的行动：{action}\n这段回应违背了设定：「{wrong}」\n原因：{reason}\n用一两句话按设定更正，然后继续场景。"
        ),
    };
    let user = match lang {
        Language::En => format!("Lore passages:\n{lore}\n\n{history}\n\n{task}"),
        Language::Zh => format!("设定段落：\n{lore}\n\n{history}\n\n{task}"),
    };
    vec![ChatMessage::system(system), ChatMessage::user(user)]
}

/// A persona as the NPC's own prompt shows it.
pub fn persona_card(lang: Language, p: &Persona) -> String {
    match lang {
        Language::En => format!(
            "You are {name}.\nHow you speak: {style}\nWhat you are like: {traits}\nYour background: {background}\nWhat you want: {wants}",
            name = p.name,
            style = p.style,
            traits = p.traits.join(", "),
            background = p.background,
            wants = p.wants
        ),
        Language::Zh => format!(
            "你是{name}。\n说话方式：{style}\n性格：{traits}\n背景：{background}\n你想要的：{wants}",
            name = p.name,
            style = p.style,
            traits = p.traits.join("、"),
            background = p.background,
            wants = p.wants
        ),
    }
}

pub fn npc_prompt(
    lang: Language,
    world: &World,
    persona: &Persona,
    secrets: &[&Passage],
    passages: &[&Passage],
    history: &str,
    (player, action): (&str, &str),
) -> Vec<ChatMessage> {
    let card = persona_card(lang, persona);
    let known = secrets.iter().map(|p| format!("- {}", p.text)).collect::<Vec<_>>().join("\n");
    let system = match lang {
        Language::En => format!(
            "You are a character in {title}, a role-playing game (LORE-NPC). {card}\nStay in character, true to the \
             world's rules and lore. Answer in one to three sentences, in your own voice, as speech (actions in \
             *asterisks*). Never speak for the players.{secret}\nThe world's rules:\n{rules}",
            title = world.title,
            secret = if known.is_empty() {
                String::new()
            } else {
                format!("\nWhat you know and never say outright (it guides what you do and hide):\n{known}")
            },
            rules = rules_block(world)
        ),
        Language::Zh => format!(
            "你是角色扮演游戏《{title}》中的人物（LORE-NPC）。{card}\n保持角色，忠于世界规则和设定。用一到三句话、以你自己的口吻回答\
             （动作写在 *星号* 里）。不要替玩家说话。{secret}\n世界规则：\n{rules}",
            title = world.title,
            secret = if known.is_empty() {
                String::new()
            } else {
                format!("\n你知道但绝不明说的事（它决定你做什么、隐瞒什么）：\n{known}")
            },
            rules = rules_block(world)
        ),
    };
    let lore = passages_block(passages);
    let user = match lang {
        Language::En => format!("Lore passages:\n{lore}\n\n{history}\n\n{player} to you: {action}"),
        Language::Zh => format!("设定段落：\n{lore}\n\n{history}\n\n{player} 对你：{action}"),
    };
    vec![ChatMessage::system(system), ChatMessage::user(user)]
}

pub fn persona_prompt(lang: Language, npc: &Npc, passages: &[&Passage]) -> Vec<ChatMessage> {
    let lore = passages_block(passages);
    let (system, user) = match lang {
        Language::En => (
            "You extract a character's persona from lore passages (LORE-PERSONA). Use only what the passages say. \
             Answer with JSON only: {\"speaking_style\": \"...\", \"traits\": [\"...\"], \"background\": \"...\", \
             \"wants\": \"...\"}"
                .to_string(),
            format!("The character: {}\nPassages:\n{lore}", npc.name),
        ),
        Language::Zh => (
            "你从设定段落中提取人物设定（LORE-PERSONA）。只使用段落里写到的内容。只用 JSON 回答：{\"speaking_style\": \"...\", \
             \"traits\": [\"...\"], \"background\": \"...\", \"wants\": \"...\"}"
                .to_string(),
            format!("人物：{}\n段落：\n{lore}", npc.name),
        ),
    };
    vec![ChatMessage::system(system), ChatMessage::user(user)]
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

pub fn summary_prompt(lang: Language, world: &World, previous: &str, turns: &str, words: usize) -> Vec<ChatMessage> {
    let (system, user) = match lang {
        Language::En => (
            format!(
                "You keep the running summary of a role-playing game in {} (LORE-SUMMARY), one chapter at a time. \
                 Write the next chapter: what happened in the new turns, in at most {words} words. Keep every name, \
                 place, item, promise, decision and open question; drop banter. Reply with the chapter only.",
                world.title
            ),
            format!("The story so far (for context):\n{previous}\n\nNew turns:\n{turns}"),
        ),
        Language::Zh => (
            format!(
                "你负责为《{}》的角色扮演游戏写前情提要（LORE-SUMMARY），每次写一章。写下一章：新的回合里发生了什么，不超过 {} 字。\
                 保留所有人名、地点、物品、承诺、决定和悬而未决的问题；略去闲聊。只回复这一章。",
                world.title,
                words * 2
            ),
            format!("此前的故事（供参考）：\n{previous}\n\n新的回合：\n{turns}"),
        ),
    };
    vec![ChatMessage::system(system), ChatMessage::user(user)]
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
