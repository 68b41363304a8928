//! The Judge's closed vocabulary and the tolerant parser that turns model
//! text into it. Whatever the Judge writes, players only ever see one of
//! these values (rendered from fixed text), never the Judge's own words.

use serde::{Deserialize, Serialize};

use crate::core::soup::puzzle::Puzzle;

pub use crate::core::game::record::{Intent, Verdict};

/// A parsed Judge reply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Judgement {
    pub intent: Intent,
    /// Present for questions.
    pub verdict: Option<Verdict>,
    /// Key-fact ids a guess states; only ids the puzzle has.
    pub facts: Vec<String>,
}

/// How cleanly a Judge reply parsed; counted for model-quality figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed {
    /// Valid JSON in the requested shape.
    Clean(Judgement),
    /// Recovered from loose text (a leading verdict word, JSON with extra
    /// prose around it, odd spellings).
    Salvaged(Judgement),
    /// Nothing usable: the caller applies the defined fallback.
    Unusable,
}

#[derive(Debug, Deserialize)]
struct RawJudgement {
    #[serde(default, alias = "type", alias = "intent")]
    kind: Option<String>,
    #[serde(default, alias = "answer")]
    verdict: Option<String>,
    #[serde(default, alias = "matched_facts", alias = "fact_ids")]
    facts: Option<Vec<serde_json::Value>>,
}

/// Parses a Judge reply. `expected` is the intent the caller asked for, or
/// `None` when the Judge was also asked to classify free text.
pub fn parse_judgement(raw: &str, expected: Option<Intent>, puzzle: &Puzzle) -> Parsed {
    if let Some((json, whole)) = first_json_object(raw)
        && let Ok(parsed) = serde_json::from_str::<RawJudgement>(json)
        && let Some(j) = from_raw(parsed, expected, puzzle)
    {
        return if whole { Parsed::Clean(j) } else { Parsed::Salvaged(j) };
    }
    match (expected, leading_verdict(raw)) {
        (Some(Intent::Guess), _) | (_, None) => Parsed::Unusable,
        (_, Some(verdict)) => {
            Parsed::Salvaged(Judgement { intent: Intent::Question, verdict: Some(verdict), facts: Vec::new() })
        }
    }
}

fn from_raw(raw: RawJudgement, expected: Option<Intent>, puzzle: &Puzzle) -> Option<Judgement> {
    let verdict = raw.verdict.as_deref().and_then(Verdict::parse);
    let facts = known_facts(raw.facts.unwrap_or_default(), puzzle);
    let intent = match expected {
        Some(intent) => intent,
        None => match raw.kind.as_deref().map(|k| k.trim().to_ascii_lowercase()) {
            Some(k) if k == "guess" || k == "hypothesis" => Intent::Guess,
            Some(k) if k == "chatter" || k == "chat" || k == "other" => Intent::Chatter,
            Some(k) if k == "question" => Intent::Question,
            _ if verdict.is_some() => Intent::Question,
            _ => return None,
        },
    };
    match intent {
        Intent::Question => verdict.map(|v| Judgement { intent, verdict: Some(v), facts: Vec::new() }),
        Intent::Guess => Some(Judgement { intent, verdict: None, facts }),
        Intent::Chatter => Some(Judgement { intent, verdict: None, facts: Vec::new() }),
    }
}

/// Keeps fact ids the puzzle really has, once each, accepting bare numbers
/// ("2" for "f2") because small models drop prefixes.
fn known_facts(values: Vec<serde_json::Value>, puzzle: &Puzzle) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in values {
        let id = match v {
            serde_json::Value::String(s) => s.trim().to_string(),
            serde_json::Value::Number(n) => n.to_string(),
            _ => continue,
        };
        let id = if puzzle.has_fact(&id) { id } else { format!("f{id}") };
        if puzzle.has_fact(&id) && !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

/// The first balanced `{...}` in `raw`, and whether it is all there is
/// (ignoring whitespace and a Markdown code fence).
fn first_json_object(raw: &str) -> Option<(&str, bool)> {
    let start = raw.find('{')?;
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in raw[start..].char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '{' if !in_string => depth += 1,
            '}' if !in_string => {
                depth -= 1;
                if depth == 0 {
                    let end = start + i + 1;
                    let rest = format!("{}{}", &raw[..start], &raw[end..]);
                    let whole = rest.trim().trim_matches('`').trim_start_matches("json").trim().is_empty();
                    return Some((&raw[start..end], whole));
                }
            }
            _ => {}
        }
    }
    None
}

/// A verdict word at the very start of the reply ("Yes.", "Answer: NO").
/// Only the start counts: a verdict word buried in prose is not an answer.
fn leading_verdict(raw: &str) -> Option<Verdict> {
    let text = raw.trim().trim_start_matches(['*', '`', '"', '\'', '#', ' ']);
    let lower = text.to_lowercase();
    let lower = ["verdict:", "answer:", "verdict", "answer", "判定:", "答案:", "判定：", "答案："]
        .iter()
        .find_map(|p| lower.strip_prefix(p))
        .unwrap_or(&lower)
        .trim_start();
    for (prefix, verdict) in [
        ("yes and no", Verdict::YesAndNo),
        ("yes_and_no", Verdict::YesAndNo),
        ("yes-and-no", Verdict::YesAndNo),
        ("是也不是", Verdict::YesAndNo),
        ("irrelevant", Verdict::Irrelevant),
        ("无关", Verdict::Irrelevant),
        ("不重要", Verdict::Irrelevant),
        ("yes", Verdict::Yes),
        ("是", Verdict::Yes),
        ("no", Verdict::No),
        ("不是", Verdict::No),
        ("否", Verdict::No),
    ] {
        if let Some(rest) = lower.strip_prefix(prefix)
            && rest.chars().next().is_none_or(|c| !c.is_ascii_alphanumeric())
        {
            return Some(verdict);
        }
    }
    None
}

/// The JSON schema the Judge is asked to follow, for providers with
/// structured output.
pub fn judgement_schema(expected: Option<Intent>) -> serde_json::Value {
    let verdicts: Vec<&str> = Verdict::ALL.iter().map(|v| v.as_str()).collect();
    let kinds: Vec<&str> = match expected {
        Some(Intent::Guess) => vec!["guess"],
        Some(Intent::Question) => vec!["question"],
        _ => vec!["question", "guess", "chatter"],
    };
    serde_json::json!({
        "type": "object",
        "properties": {
            "kind": { "type": "string", "enum": kinds },
            "verdict": { "type": "string", "enum": verdicts },
            "facts": { "type": "array", "items": { "type": "string" } }
        },
        "required": ["kind", "verdict", "facts"],
        "additionalProperties": false
    })
}

#[cfg(test)]
mod tests;
