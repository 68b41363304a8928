//! What Slack sends, as JSON (and form bodies for the Events API), each
//! checked against slack-morphism's own model types so the fake never
//! sends what the real Slack could not; and Slack's request signature.

use hmac::{Hmac, KeyInit, Mac};
use serde_json::{Value, json};
use sha2::Sha256;
use slack_morphism::prelude::*;

use super::TEAM;

/// `v0=` + hex HMAC-SHA256 over `v0:{timestamp}:{body}`.
pub fn signed(secret: &str, timestamp: i64, body: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key");
    mac.update(format!("v0:{timestamp}:{body}").as_bytes());
    let digest = mac.finalize().into_bytes();
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("v0={hex}")
}

fn checked<T: serde::de::DeserializeOwned>(value: Value) -> Value {
    if let Err(e) = serde_json::from_value::<T>(value.clone()) {
        panic!("the fake built a payload slack-morphism cannot read ({e}): {value}");
    }
    value
}

/// Socket Mode frames. slack-morphism keeps its envelope type private, so
/// these are checked where it matters: the payloads inside are checked
/// above, and the real Socket Mode client reads every frame in the tests.
fn envelope_frame(value: Value) -> Value {
    value
}

pub fn hello() -> Value {
    envelope_frame(json!({
        "type": "hello", "num_connections": 1,
        "debug_info": {"host": "fake-slack", "build_number": 1, "approximate_connection_time": 18060},
        "connection_info": {"app_id": "A0FAKE"}
    }))
}

pub fn disconnect(reason: &str) -> Value {
    envelope_frame(json!({
        "type": "disconnect", "reason": reason, "debug_info": {"host": "fake-slack"}
    }))
}

/// A user's message, top-level or in a thread, as an event callback.
pub fn message_event(
    channel: &str,
    event_id: &str,
    user: &str,
    text: &str,
    thread_ts: Option<&str>,
    ts: &str,
) -> Value {
    let mut event =
        json!({"type": "message", "channel": channel, "user": user, "text": text, "ts": ts, "channel_type": "channel"});
    if let Some(thread) = thread_ts {
        event["thread_ts"] = json!(thread);
    }
    callback(event_id, event)
}

/// A bot's message (its own or another app's) in a thread.
pub fn bot_message_event(
    channel: &str,
    event_id: &str,
    bot_id: &str,
    user: &str,
    text: &str,
    thread_ts: &str,
    ts: &str,
) -> Value {
    callback(
        event_id,
        json!({"type": "message", "channel": channel, "user": user, "bot_id": bot_id,
        "text": text, "ts": ts, "thread_ts": thread_ts}),
    )
}

fn callback(event_id: &str, event: Value) -> Value {
    checked::<SlackPushEventCallback>(json!({
        "token": "unused", "team_id": TEAM, "api_app_id": "A0FAKE", "type": "event_callback",
        "event": event, "event_id": event_id, "event_time": 1_700_000_000
    }))
}

/// A `/soup` command's fields.
pub fn command(channel: &str, user: &str, text: &str, trigger_id: &str) -> Value {
    command_named("/soup", channel, user, text, trigger_id)
}

/// A slash command's fields, for any command (`/undercover`).
pub fn command_named(command: &str, channel: &str, user: &str, text: &str, trigger_id: &str) -> Value {
    checked::<SlackCommandEvent>(json!({
        "team_id": TEAM, "team_domain": "fake", "channel_id": channel, "channel_name": "games",
        "user_id": user, "user_name": user, "command": command, "text": text,
        "response_url": "https://hooks.slack.com/commands/fake", "trigger_id": trigger_id, "api_app_id": "A0FAKE"
    }))
}

/// A button press under the message `message_ts`.
pub fn button(channel: &str, user: &str, action_id: &str, message_ts: &str, trigger_id: &str) -> Value {
    checked::<SlackInteractionEvent>(json!({
        "type": "block_actions",
        "team": {"id": TEAM, "domain": "fake"},
        "user": {"id": user, "username": user, "team_id": TEAM},
        "api_app_id": "A0FAKE",
        "container": {"type": "message", "message_ts": message_ts, "channel_id": channel, "is_ephemeral": false},
        "trigger_id": trigger_id,
        "channel": {"id": channel, "name": "games"},
        "actions": [{"type": "button", "action_id": action_id, "block_id": "soup_buttons", "action_ts": "1700000001.000001"}]
    }))
}

/// A Socket Mode envelope around a payload.
pub fn envelope(kind: &str, envelope_id: &str, payload: Value) -> Value {
    envelope_frame(json!({
        "type": kind, "envelope_id": envelope_id, "accepts_response_payload": kind != "events_api", "payload": payload
    }))
}

/// A slash command's form body, as the Events API receives it.
pub fn command_form(command: &Value) -> String {
    let pairs: Vec<(String, String)> = command
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.clone(), v.as_str().map_or_else(|| v.to_string(), str::to_string)))
        .collect();
    serde_urlencoded::to_string(pairs).unwrap_or_default()
}

/// An interaction's form body (`payload=<json>`).
pub fn interaction_form(payload: &Value) -> String {
    serde_urlencoded::to_string([("payload", payload.to_string())]).unwrap_or_default()
}
