//! The fake's Web API: `/api/<method>`, JSON or query bodies, answered
//! with the fields slack-morphism reads; every call recorded. With rate
//! limits set (`limits.rs`), a call past them is answered 429 and not
//! recorded.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Json, Response};
use serde_json::{Value, json};

use super::rules::Author;
use super::{BOT_ID, BOT_USER, Call, Inner, Refusal, TEAM, Upload, lock};
use crate::bot::quota::Admission;

pub(super) async fn serve(listener: tokio::net::TcpListener, inner: Arc<Inner>) {
    let app = axum::Router::new()
        .route("/api/{method}", axum::routing::any(handle))
        .route("/upload/{file}", axum::routing::post(upload))
        .with_state(inner);
    if let Err(e) = axum::serve(crate::bot::net::no_delay(listener), app).await {
        tracing::warn!(error = %e, "fake Slack Web API stopped");
    }
}

async fn handle(
    State(inner): State<Arc<Inner>>,
    Path(method): Path<String>,
    RawQuery(query): RawQuery,
    body: Bytes,
) -> Response {
    let at = std::time::Instant::now();
    let body: Value = serde_json::from_slice(&body).unwrap_or_else(|_| {
        let pairs: Vec<(String, String)> =
            serde_urlencoded::from_str(query.as_deref().unwrap_or_default()).unwrap_or_default();
        Value::Object(pairs.into_iter().map(|(k, v)| (k, Value::String(v))).collect())
    });
    let channel = body.get("channel").or_else(|| body.get("channel_id")).cloned().unwrap_or(Value::Null);
    if let Admission::Refused { retry_after, .. } =
        inner.quotas.admit(&inner.limits.buckets(&method, channel.as_str()), at)
    {
        return super::limits::too_many(retry_after);
    }
    if let Some(error) = lock(&inner.workspace).refuse(&method, &body) {
        tracing::warn!(method, error, %body, "fake Slack refused a call");
        lock(&inner.refusals).push(Refusal { method, error, body });
        return Json(json!({"ok": false, "error": error})).into_response();
    }
    let (reply, ts) = match method.as_str() {
        "auth.test" => (
            json!({"ok": true, "user_id": BOT_USER, "team_id": TEAM, "team": "Fake", "bot_id": BOT_ID,
                   "url": "https://fake.slack.com/", "user": "echoes"}),
            None,
        ),
        "chat.postMessage" => {
            let ts = inner.next_ts();
            lock(&inner.workspace).messages.insert(ts.clone(), Author::Bot);
            let message = json!({"ts": ts, "text": body.get("text"), "bot_id": BOT_ID, "user": BOT_USER});
            (json!({"ok": true, "channel": channel, "ts": ts, "message": message}), Some(ts))
        }
        "chat.update" => {
            let ts = body.get("ts").and_then(Value::as_str).unwrap_or_default().to_string();
            (json!({"ok": true, "channel": channel, "ts": ts, "message": {"text": body.get("text")}}), Some(ts))
        }
        "chat.delete" => (json!({"ok": true, "channel": body["channel"], "ts": body["ts"]}), None),
        "chat.postEphemeral" => (json!({"ok": true, "message_ts": inner.next_ts()}), None),
        "conversations.replies" => (replies(&inner, &body), None),
        "usergroups.users.list" => {
            let group = body.get("usergroup").and_then(Value::as_str).unwrap_or_default();
            let users = lock(&inner.groups).get(group).cloned();
            match users {
                Some(users) => (json!({"ok": true, "users": users}), None),
                None => (json!({"ok": false, "error": "no_such_subteam"}), None),
            }
        }
        "users.info" => {
            let id = body.get("user").and_then(Value::as_str).unwrap_or_default().to_string();
            let name = lock(&inner.users).get(&id).cloned();
            match name {
                Some(name) => (
                    json!({"ok": true, "user": {"id": id, "team_id": TEAM, "name": name.to_lowercase(),
                           "real_name": name, "profile": {"display_name": name, "real_name": name}}}),
                    None,
                ),
                None => (json!({"ok": false, "error": "user_not_found"}), None),
            }
        }
        "apps.connections.open" => (json!({"ok": true, "url": inner.ws_url}), None),
        "files.getUploadURLExternal" => (announce(&inner, &body), None),
        "files.completeUploadExternal" => (complete(&inner, &body), None),
        _ => (json!({"ok": false, "error": "unknown_method"}), None),
    };
    inner.record(Call { at, method, body, ts });
    Json(reply).into_response()
}

/// `conversations.replies`: the thread's root and replies the bot posted
/// (oldest first, deleted ones left out), each with its `metadata` when
/// the call asks `include_all_metadata`, as Slack does.
fn replies(inner: &Inner, body: &Value) -> Value {
    let field = |key: &str| body.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
    let (channel, thread) = (field("channel"), field("ts"));
    if !lock(&inner.workspace).messages.contains_key(&thread) {
        return json!({"ok": false, "error": "thread_not_found"});
    }
    let with_metadata =
        matches!(body.get("include_all_metadata"), Some(Value::Bool(true))) || field("include_all_metadata") == "true";
    let calls = lock(&inner.calls).clone();
    let deleted: std::collections::HashSet<&str> =
        calls.iter().filter(|c| c.method == "chat.delete").filter_map(|c| c.body.get("ts")?.as_str()).collect();
    let messages: Vec<Value> = calls
        .iter()
        .filter(|c| c.method == "chat.postMessage" && c.body.get("channel").and_then(Value::as_str) == Some(&channel))
        .filter_map(|c| Some((c, c.ts.as_deref()?)))
        .filter(|(c, ts)| (*ts == thread || c.thread_ts() == Some(thread.as_str())) && !deleted.contains(ts))
        .map(|(posted, ts)| {
            // What it says now: the last `chat.update` of it, if any.
            let updated = calls.iter().rev().find(|u| u.method == "chat.update" && u.ts.as_deref() == Some(ts));
            let c = updated.unwrap_or(posted);
            let mut message = json!({"type": "message", "ts": ts, "text": c.text(), "bot_id": BOT_ID,
                                     "user": BOT_USER, "thread_ts": thread});
            let metadata = match c.body.get("metadata") {
                Some(Value::String(s)) => serde_json::from_str(s).unwrap_or(Value::Null),
                Some(m) => m.clone(),
                None => Value::Null,
            };
            if with_metadata && !metadata.is_null() {
                message["metadata"] = metadata;
            }
            message
        })
        .collect();
    json!({"ok": true, "messages": messages, "has_more": false})
}

/// `files.getUploadURLExternal`: a file id and the URL to POST its bytes to.
fn announce(inner: &Inner, body: &Value) -> Value {
    let name = body.get("filename").and_then(Value::as_str).unwrap_or_default().to_string();
    let length = body.get("length").and_then(Value::as_str).and_then(|l| l.parse::<usize>().ok());
    let Some(length) = length.filter(|l| *l > 0 && !name.is_empty()) else {
        return json!({"ok": false, "error": "invalid_arguments"});
    };
    let id = format!("F0{}", inner.next_ts().replace('.', ""));
    lock(&inner.files).insert(id.clone(), Upload { name, length, ..Upload::default() });
    json!({"ok": true, "file_id": id, "upload_url": format!("{}/upload/{id}", inner.web_url)})
}

/// The upload URL: Slack answers in plain text, not JSON.
async fn upload(State(inner): State<Arc<Inner>>, Path(file): Path<String>, body: Bytes) -> (StatusCode, String) {
    let mut files = lock(&inner.files);
    match files.get_mut(&file) {
        Some(upload) if upload.length == body.len() => {
            upload.bytes = Some(body.to_vec());
            (StatusCode::OK, format!("OK - {}", body.len()))
        }
        Some(_) => (StatusCode::BAD_REQUEST, "length mismatch".into()),
        None => (StatusCode::NOT_FOUND, "no such upload".into()),
    }
}

/// `files.completeUploadExternal`: shares uploaded files in a channel or thread.
fn complete(inner: &Inner, body: &Value) -> Value {
    let ids: Vec<String> = body
        .get("files")
        .and_then(Value::as_array)
        .map(|files| files.iter().filter_map(|f| f.get("id").and_then(Value::as_str).map(str::to_owned)).collect())
        .unwrap_or_default();
    let channel = body.get("channel_id").and_then(Value::as_str).map(str::to_owned);
    let thread = body.get("thread_ts").and_then(Value::as_str).map(str::to_owned);
    let mut files = lock(&inner.files);
    if ids.is_empty() || ids.iter().any(|id| files.get(id).is_none_or(|f| f.bytes.is_none())) {
        return json!({"ok": false, "error": "file_not_found"});
    }
    let mut shared = Vec::new();
    for id in &ids {
        let file = files.get_mut(id).expect("checked above");
        file.shared = channel.clone().map(|c| (c, thread.clone()));
        shared.push(json!({"id": id, "name": file.name, "title": file.name}));
    }
    json!({"ok": true, "files": shared})
}
