//! What Slack refuses in a message call, enforced on every call the fake
//! gets: the published limits of Block Kit and of `chat.postMessage`,
//! `chat.postEphemeral` and `chat.update`, answered with Slack's own error
//! codes (`msg_too_long`, `invalid_blocks`, `no_text`,
//! `user_not_in_channel`, `cant_update_message`, `message_not_found`,
//! `thread_not_found`). A refused call changes nothing and is kept in the
//! fake's list of refusals, which the test rig holds to be empty.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

/// A message's `text`, in characters.
pub const TEXT_MAX: usize = 40_000;
/// Blocks in one message.
pub const BLOCKS_MAX: usize = 50;
/// A section's text (and a header's, a context element's: their own
/// limits are lower or equal; see `block`).
pub const SECTION_TEXT_MAX: usize = 3_000;
/// A section's `fields`: each, and how many.
pub const FIELD_TEXT_MAX: usize = 2_000;
pub const FIELDS_MAX: usize = 10;
/// A header block's plain text.
pub const HEADER_TEXT_MAX: usize = 150;
/// A button's label.
pub const BUTTON_TEXT_MAX: usize = 75;
/// `action_id` and `block_id`.
pub const ID_MAX: usize = 255;
/// A button's `value`.
pub const VALUE_MAX: usize = 2_000;
/// Elements of an actions block, and of a context block.
pub const ACTIONS_MAX: usize = 25;
pub const CONTEXT_MAX: usize = 10;

/// Who wrote a message the fake knows of, by its `ts`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Author {
    Bot,
    User,
}

/// What the fake has seen of the workspace: channels' members (users who
/// wrote, pressed or commanded there, or were added) and messages by ts.
#[derive(Debug, Default)]
pub struct Workspace {
    pub members: HashMap<String, HashSet<String>>,
    pub messages: HashMap<String, Author>,
}

impl Workspace {
    /// Learns from an inbound payload (an event, a command, an
    /// interaction) who is in which channel and which messages exist.
    pub fn saw(&mut self, payload: &Value) {
        let event = payload.get("event").unwrap_or(payload);
        let channel = event
            .get("channel")
            .and_then(|c| c.as_str().or_else(|| c.get("id").and_then(Value::as_str)))
            .or_else(|| event.get("channel_id").and_then(Value::as_str));
        let user = event
            .get("user")
            .and_then(|u| u.as_str().or_else(|| u.get("id").and_then(Value::as_str)))
            .or_else(|| event.get("user_id").and_then(Value::as_str));
        if let (Some(channel), Some(user)) = (channel, user) {
            self.members.entry(channel.to_owned()).or_default().insert(user.to_owned());
        }
        for ts in [event.get("ts"), event.get("thread_ts")].into_iter().flatten().filter_map(Value::as_str) {
            self.messages.entry(ts.to_owned()).or_insert(Author::User);
        }
    }

    /// Slack's error for a message call, or `None` when Slack would take it.
    pub fn refuse(&self, method: &str, body: &Value) -> Option<&'static str> {
        match method {
            "chat.postMessage" | "chat.postEphemeral" | "chat.update" => {}
            _ => return None,
        }
        if let Some(error) = message(body) {
            return Some(error);
        }
        let text = |key: &str| body.get(key).and_then(Value::as_str);
        if let Some(thread) = text("thread_ts").filter(|t| !self.messages.contains_key(*t)) {
            tracing::debug!(thread, "fake Slack: no such thread");
            return Some("thread_not_found");
        }
        match method {
            "chat.postEphemeral" => {
                let member = self
                    .members
                    .get(text("channel").unwrap_or_default())
                    .is_some_and(|members| members.contains(text("user").unwrap_or_default()));
                (!member).then_some("user_not_in_channel")
            }
            "chat.update" => match self.messages.get(text("ts").unwrap_or_default()) {
                Some(Author::Bot) => None,
                Some(Author::User) => Some("cant_update_message"),
                None => Some("message_not_found"),
            },
            _ => None,
        }
    }
}

/// The message's own limits: its text and its blocks.
fn message(body: &Value) -> Option<&'static str> {
    let text = body.get("text").and_then(Value::as_str).unwrap_or_default();
    let blocks = match body.get("blocks") {
        None | Some(Value::Null) => Vec::new(),
        // Form-encoded calls carry blocks as a JSON string.
        Some(Value::String(s)) => match serde_json::from_str::<Vec<Value>>(s) {
            Ok(blocks) => blocks,
            Err(_) => return Some("invalid_blocks_format"),
        },
        Some(Value::Array(blocks)) => blocks.clone(),
        Some(_) => return Some("invalid_blocks_format"),
    };
    if text.trim().is_empty() && blocks.is_empty() {
        return Some("no_text");
    }
    if chars(text) > TEXT_MAX {
        return Some("msg_too_long");
    }
    if blocks.len() > BLOCKS_MAX || !blocks.iter().all(block) {
        return Some("invalid_blocks");
    }
    None
}

fn chars(text: &str) -> usize {
    text.chars().count()
}

fn short(value: Option<&Value>, max: usize) -> bool {
    value.and_then(Value::as_str).is_none_or(|s| !s.is_empty() && chars(s) <= max)
}

/// A text object's `text`, at most `max` characters and not empty.
fn text_object(value: Option<&Value>, max: usize) -> bool {
    value.is_none_or(|object| {
        object.get("text").and_then(Value::as_str).is_some_and(|s| !s.is_empty() && chars(s) <= max)
    })
}

fn block(block: &Value) -> bool {
    if !short(block.get("block_id"), ID_MAX) {
        return false;
    }
    let list = |key: &str| block.get(key).and_then(Value::as_array).cloned().unwrap_or_default();
    match block.get("type").and_then(Value::as_str) {
        Some("section") => {
            let fields = list("fields");
            (block.get("text").is_some() || !fields.is_empty())
                && text_object(block.get("text"), SECTION_TEXT_MAX)
                && fields.len() <= FIELDS_MAX
                && fields.iter().all(|f| text_object(Some(f), FIELD_TEXT_MAX))
                && block.get("accessory").is_none_or(element)
        }
        Some("header") => block.get("text").is_some() && text_object(block.get("text"), HEADER_TEXT_MAX),
        Some("actions") => {
            let elements = list("elements");
            !elements.is_empty() && elements.len() <= ACTIONS_MAX && elements.iter().all(element)
        }
        Some("context") => {
            let elements = list("elements");
            !elements.is_empty()
                && elements.len() <= CONTEXT_MAX
                && elements.iter().all(|e| {
                    e.get("type").and_then(Value::as_str) == Some("image") || text_object(Some(e), SECTION_TEXT_MAX)
                })
        }
        Some("divider" | "image" | "rich_text" | "file" | "input" | "video") => true,
        _ => false,
    }
}

/// An interactive element: a button's label, value and ids.
fn element(element: &Value) -> bool {
    if !short(element.get("action_id"), ID_MAX) {
        return false;
    }
    match element.get("type").and_then(Value::as_str) {
        Some("button") => {
            element.get("text").is_some()
                && text_object(element.get("text"), BUTTON_TEXT_MAX)
                && short(element.get("value"), VALUE_MAX)
                && short(element.get("url"), 3_000)
        }
        Some(_) => true,
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn workspace() -> Workspace {
        let mut workspace = Workspace::default();
        workspace.saw(&json!({"event": {"channel": "C1", "user": "U1", "ts": "1.1"}}));
        workspace.messages.insert("2.2".into(), Author::Bot);
        workspace
    }

    #[test]
    fn messages_within_the_limits_pass() {
        let w = workspace();
        let button =
            json!({"type": "button", "action_id": "soup:hint", "text": {"type": "plain_text", "text": "Hint"}});
        let body = json!({"channel": "C1", "text": "hi", "thread_ts": "2.2", "blocks": [
            {"type": "section", "text": {"type": "mrkdwn", "text": "x".repeat(SECTION_TEXT_MAX)}},
            {"type": "actions", "block_id": "b", "elements": [button]}]});
        assert_eq!(w.refuse("chat.postMessage", &body), None);
        assert_eq!(w.refuse("chat.postEphemeral", &json!({"channel": "C1", "user": "U1", "text": "psst"})), None);
        assert_eq!(w.refuse("chat.update", &json!({"channel": "C1", "ts": "2.2", "text": "edited"})), None);
        assert_eq!(w.refuse("users.info", &json!({})), None);
    }

    #[test]
    fn what_slack_refuses_is_refused_with_its_error() {
        let w = workspace();
        let post = |body: Value| w.refuse("chat.postMessage", &body);
        assert_eq!(post(json!({"channel": "C1", "text": "x".repeat(TEXT_MAX + 1)})), Some("msg_too_long"));
        assert_eq!(post(json!({"channel": "C1", "text": " "})), Some("no_text"));
        let section = |n: usize| json!({"type": "section", "text": {"type": "mrkdwn", "text": "y".repeat(n)}});
        assert_eq!(post(json!({"text": "t", "blocks": [section(SECTION_TEXT_MAX + 1)]})), Some("invalid_blocks"));
        assert_eq!(post(json!({"text": "t", "blocks": vec![section(1); BLOCKS_MAX + 1]})), Some("invalid_blocks"));
        let button = |label: usize, value: usize| {
            json!({"type": "actions", "elements": [{"type": "button", "action_id": "a",
                "text": {"type": "plain_text", "text": "b".repeat(label)}, "value": "v".repeat(value)}]})
        };
        assert_eq!(post(json!({"text": "t", "blocks": [button(BUTTON_TEXT_MAX + 1, 1)]})), Some("invalid_blocks"));
        assert_eq!(post(json!({"text": "t", "blocks": [button(3, VALUE_MAX + 1)]})), Some("invalid_blocks"));
        assert_eq!(
            post(json!({"text": "t", "blocks": [{"type": "divider", "block_id": "i".repeat(ID_MAX + 1)}]})),
            Some("invalid_blocks")
        );
        assert_eq!(post(json!({"channel": "C1", "text": "t", "thread_ts": "9.9"})), Some("thread_not_found"));
        let ephemeral = json!({"channel": "C1", "user": "U2", "text": "psst"});
        assert_eq!(w.refuse("chat.postEphemeral", &ephemeral), Some("user_not_in_channel"));
        assert_eq!(w.refuse("chat.update", &json!({"ts": "1.1", "text": "e"})), Some("cant_update_message"));
        assert_eq!(w.refuse("chat.update", &json!({"ts": "3.3", "text": "e"})), Some("message_not_found"));
    }
}
