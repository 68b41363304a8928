//! Structured output for the local model, the counterpart of Ollama's
//! `format` and OpenAI's `response_format`: when a request carries a JSON
//! schema of a flat object, the reply is built field by field so it always
//! parses. Fixed text (braces, keys, quotes) is forced; an enum value is
//! decoded greedily among the values' tokens; free strings and string lists are
//! sampled and then written out escaped.
//!
//! Schemas of any other shape return `None` from `Shape::of` and the
//! request is generated freely; the caller's parser copes either way.

use serde_json::Value;

use super::run::{GenerateError, Run};
use super::sampler::log_prob;
use super::tokenizer::ChatTokenizer;

/// Tokens a string list may take: lists here hold short ids, and small
/// models otherwise fill them with prose until the budget runs out.
const LIST_CAP: usize = 24;

/// One property's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Field {
    /// A string from a closed list.
    Enum(Vec<String>),
    Text,
    /// An array of strings, optionally from a closed list.
    List(Option<Vec<String>>),
}

/// A flat object: its properties in the order they are written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    pub fields: Vec<(String, Field)>,
}

impl Shape {
    /// The shape of a schema, if it is a flat object this module can build.
    /// Properties are written in `required` order, then the rest.
    pub fn of(schema: &Value) -> Option<Shape> {
        if schema.get("type")?.as_str()? != "object" {
            return None;
        }
        let properties = schema.get("properties")?.as_object()?;
        let mut order: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).filter(|n| properties.contains_key(*n)).collect())
            .unwrap_or_default();
        for name in properties.keys() {
            if !order.contains(&name.as_str()) {
                order.push(name);
            }
        }
        let fields: Option<Vec<(String, Field)>> =
            order.into_iter().map(|name| Some((name.to_owned(), field_of(&properties[name])?))).collect();
        fields.filter(|f| !f.is_empty()).map(|fields| Shape { fields })
    }
}

fn field_of(schema: &Value) -> Option<Field> {
    match schema.get("type")?.as_str()? {
        "string" => Some(match enum_of(schema) {
            Some(values) => Field::Enum(values),
            None => Field::Text,
        }),
        "array" => {
            let items = schema.get("items")?;
            (items.get("type")?.as_str()? == "string").then(|| Field::List(enum_of(items)))
        }
        _ => None,
    }
}

fn enum_of(schema: &Value) -> Option<Vec<String>> {
    let values: Vec<String> =
        schema.get("enum")?.as_array()?.iter().filter_map(Value::as_str).map(str::to_owned).collect();
    (!values.is_empty()).then_some(values)
}

/// Builds the reply for `shape`. `stops` end free text early.
pub fn generate(
    shape: &Shape,
    run: &mut Run<'_>,
    tokenizer: &ChatTokenizer,
    stops: &[u32],
) -> Result<String, GenerateError> {
    let mut text = String::from("{");
    force(run, tokenizer, "{")?;
    for (i, (name, field)) in shape.fields.iter().enumerate() {
        let key = format!("{}{}: ", if i == 0 { "" } else { ", " }, quote(name));
        force(run, tokenizer, &key)?;
        text.push_str(&key);
        let value = match field {
            Field::Enum(values) => {
                force(run, tokenizer, "\"")?;
                quote(choose(run, tokenizer, values)?)
            }
            Field::Text => {
                force(run, tokenizer, "\"")?;
                let raw = run.free(tokenizer, stops, usize::MAX, |t| closing_quote(t).is_some())?;
                quote(&raw[..closing_quote(&raw).unwrap_or(raw.len())])
            }
            Field::List(allowed) => {
                force(run, tokenizer, "[")?;
                let raw = run.free(tokenizer, stops, LIST_CAP, |t| t.contains(']'))?;
                list(&raw, allowed.as_deref())
            }
        };
        text.push_str(&value);
    }
    text.push('}');
    Ok(text)
}

/// Feeds fixed text.
fn force(run: &mut Run<'_>, tokenizer: &ChatTokenizer, text: &str) -> Result<(), GenerateError> {
    let ids = tokenizer.encode(text).map_err(GenerateError::Failed)?;
    run.push(&ids)
}

/// The enum value (with its closing quote) the model prefers, fed into the
/// state: token by token, only tokens that go on to some value are allowed
/// and the likeliest is taken; once one value is left, its rest is forced.
/// (`YES` and `YES_AND_NO` part where the model weighs `"` against `_`.)
fn choose<'v>(run: &mut Run<'_>, tokenizer: &ChatTokenizer, values: &'v [String]) -> Result<&'v str, GenerateError> {
    let encoded: Vec<Vec<u32>> = values
        .iter()
        .map(|value| tokenizer.encode(&format!("{value}\"")))
        .collect::<Result<_, _>>()
        .map_err(GenerateError::Failed)?;
    let mut alive: Vec<usize> = (0..values.len()).filter(|&i| !encoded[i].is_empty()).collect();
    let mut step = 0;
    loop {
        if run.cancelled() {
            return Err(GenerateError::Cancelled);
        }
        // A value whose tokens are all in is the choice (it ends in `"`, so
        // no other value can go on past it).
        let finished = alive.iter().copied().find(|&i| encoded[i].len() == step);
        match (alive.as_slice(), finished) {
            ([], _) => return Err(GenerateError::Failed("an enum has no values".to_owned())),
            (_, Some(i)) => return Ok(&values[i]),
            ([only], None) => {
                run.push(&encoded[*only][step..])?;
                return Ok(&values[*only]);
            }
            _ => {}
        }
        let best = alive
            .iter()
            .map(|&i| encoded[i][step])
            .max_by(|a, b| log_prob(&run.logits, *a).total_cmp(&log_prob(&run.logits, *b)))
            .unwrap_or_default();
        alive.retain(|&i| encoded[i][step] == best);
        run.push(&[best])?;
        step += 1;
    }
}

/// Byte index of the first unescaped `"`.
fn closing_quote(text: &str) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return Some(i),
            _ => {}
        }
    }
    None
}

/// The quoted strings in `raw` (up to its first `]`), kept when allowed,
/// once each, as a JSON array.
pub fn list(raw: &str, allowed: Option<&[String]>) -> String {
    let body = raw.split(']').next().unwrap_or_default();
    let mut items: Vec<&str> = Vec::new();
    for item in body.split('"').skip(1).step_by(2) {
        let item = item.trim();
        let ok = !item.is_empty() && allowed.is_none_or(|a| a.iter().any(|v| v == item));
        if ok && !items.contains(&item) {
            items.push(item);
        }
    }
    let quoted: Vec<String> = items.iter().map(|s| quote(s)).collect();
    format!("[{}]", quoted.join(", "))
}

fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned())
}
