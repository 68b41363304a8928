//! The fake's REST API: records every call, answers the routes the bot
//! uses the way Discord does (status codes serenity checks, JSON it can
//! read), and 404s the rest with Discord's error shape. With rate limits
//! set (`limits.rs`), a call past them is answered 429 and not recorded.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::limits::{add_headers, too_many};
use super::payloads::{self, sent_message};
use super::{APP, Call, Inner, lock};
use crate::bot::quota::Admission;

pub(super) async fn serve(listener: tokio::net::TcpListener, inner: Arc<Inner>) {
    let app = axum::Router::new().fallback(handle).with_state(inner);
    if let Err(e) = axum::serve(crate::bot::net::no_delay(listener), app).await {
        tracing::error!(error = %e, "fake Discord REST server stopped");
    }
}

async fn handle(State(inner): State<Arc<Inner>>, req: Request) -> Response {
    let at = Instant::now();
    let method = req.method().clone();
    let full = req.uri().path().to_string();
    if let Some(name) = full.strip_prefix("/files/") {
        return match inner.file(name) {
            Some(bytes) => (StatusCode::OK, bytes).into_response(),
            None => not_found(),
        };
    }
    let path = full.strip_prefix("/api/v10").unwrap_or(&full).to_string();
    // A refused call is counted, not recorded: it did nothing.
    let left = match inner.quotas.admit(&inner.limits.buckets(method.as_str(), &path), at) {
        Admission::Refused { bucket, retry_after, global } => return too_many(&bucket, retry_after, global),
        Admission::Admitted(left) => left,
    };
    let (body, files) = read_body(req).await;
    let refused = inner.conform(method.as_str(), &path, &body);
    if refused.iter().any(|v| v.route != path) {
        // A route of Discord's API with a body it refuses: 400, as Discord.
        let answer = axum::Json(super::spec::invalid_form_body(&refused));
        return (StatusCode::BAD_REQUEST, answer).into_response();
    }
    let mut call =
        Call { at, method: method.to_string(), path: path.clone(), body, files, created: None, inline: false };
    let mut response = answer(&inner, &method, &path, &mut call);
    inner.record(call);
    for bucket in &left {
        if bucket.key != "global" {
            add_headers(response.headers_mut(), bucket);
        }
    }
    response
}

async fn read_body(req: Request) -> (Value, Vec<(String, Vec<u8>)>) {
    let multipart = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    if !multipart {
        let bytes = Bytes::from_request(req, &()).await.unwrap_or_default();
        return (serde_json::from_slice(&bytes).unwrap_or(Value::Null), Vec::new());
    }
    let Ok(mut form) = Multipart::from_request(req, &()).await else { return (Value::Null, Vec::new()) };
    let (mut body, mut files) = (Value::Null, Vec::new());
    while let Ok(Some(field)) = form.next_field().await {
        let name = field.name().unwrap_or_default().to_string();
        let file_name = field.file_name().map(str::to_string);
        let bytes = field.bytes().await.unwrap_or_default();
        if name == "payload_json" {
            body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        } else {
            files.push((file_name.unwrap_or(name), bytes.to_vec()));
        }
    }
    (body, files)
}

fn json_ok(value: Value) -> Response {
    (StatusCode::OK, axum::Json(value)).into_response()
}

fn no_content() -> Response {
    StatusCode::NO_CONTENT.into_response()
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, axum::Json(json!({"message": "404: Not Found", "code": 0}))).into_response()
}

fn answer(inner: &Inner, method: &Method, path: &str, call: &mut Call) -> Response {
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    match (method.as_str(), parts.as_slice()) {
        ("GET", ["gateway"]) => json_ok(json!({"url": inner.gateway})),
        ("GET", ["gateway", "bot"]) => {
            json_ok(json!({"url": inner.gateway, "shards": inner.shards.load(std::sync::atomic::Ordering::Relaxed),
            "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}}))
        }
        ("PUT", ["applications", _, "commands"] | ["applications", _, "guilds", _, "commands"]) => {
            json_ok(registered(inner, &call.body))
        }
        ("POST", ["interactions", _, _, "callback"]) => no_content(),
        ("POST", ["webhooks", _, token]) => {
            let channel = inner.token_channel(token).unwrap_or_default();
            created_message(inner, channel, call)
        }
        ("PATCH" | "GET", ["webhooks", _, token, "messages", _]) => {
            let channel = inner.token_channel(token).unwrap_or_default();
            created_message(inner, channel, call)
        }
        ("DELETE", ["webhooks", ..]) => no_content(),
        ("POST", ["users", "@me", "channels"]) => dm_channel(inner, &call.body),
        ("POST", ["channels", channel, "messages"]) => match channel.parse() {
            Ok(channel) if inner.dm_refused(channel) => dms_closed(),
            Ok(channel) => created_message(inner, channel, call),
            Err(_) => not_found(),
        },
        ("PATCH", ["channels", channel, "messages", _]) => {
            created_message(inner, channel.parse().unwrap_or_default(), call)
        }
        ("DELETE", ["channels", _, "messages", _]) => no_content(),
        ("POST", ["channels", _, "typing"]) => no_content(),
        ("PUT" | "DELETE", ["channels", _, "messages", _, "reactions", ..]) => no_content(),
        ("POST", ["channels", parent, "threads"] | ["channels", parent, "messages", _, "threads"]) => {
            let Ok(parent) = parent.parse() else { return not_found() };
            let id = inner.next_id();
            let name = call.body.get("name").and_then(Value::as_str).unwrap_or("thread").to_string();
            let thread = payloads::channel(id, inner.guild_of(parent), 11, &name, Some(parent), false);
            inner.set_channel(id, thread.clone());
            call.created = Some(id);
            json_ok(thread)
        }
        ("GET", ["channels", channel]) => match channel.parse().ok().and_then(|c| inner.channel(c)) {
            Some(c) => json_ok(c),
            None => not_found(),
        },
        ("PATCH", ["channels", channel]) => match channel.parse().ok().and_then(|c| inner.channel(c)) {
            Some(mut c) => {
                if let Some(archived) = call.body.get("archived") {
                    c["thread_metadata"]["archived"] = archived.clone();
                }
                json_ok(c)
            }
            None => not_found(),
        },
        _ => not_found(),
    }
}

/// `POST /users/@me/channels`: the DM channel with `recipient_id`.
fn dm_channel(inner: &Inner, body: &Value) -> Response {
    let Some(user) = body["recipient_id"].as_str().and_then(|u| u.parse::<u64>().ok()) else {
        return (StatusCode::BAD_REQUEST, axum::Json(json!({"code": 50035, "message": "Invalid Form Body"})))
            .into_response();
    };
    let channel = inner.dm_channel(user);
    json_ok(json!({
        "id": channel.to_string(), "type": 1, "last_message_id": null,
        "recipients": [inner.user_json(user)],
    }))
}

/// Discord's answer to a DM the user does not accept.
fn dms_closed() -> Response {
    let body = json!({"code": 50007, "message": "Cannot send messages to this user"});
    (StatusCode::FORBIDDEN, axum::Json(body)).into_response()
}

fn created_message(inner: &Inner, channel: u64, call: &mut Call) -> Response {
    // Discord's `enforce_nonce`: a nonce seen in the channel before gets
    // the message it created back.
    let nonce = match (&call.body["nonce"], call.body["enforce_nonce"].as_bool()) {
        (Value::String(n), Some(true)) => Some(n.clone()),
        (Value::Number(n), Some(true)) => Some(n.to_string()),
        _ => None,
    };
    if let Some(first) = nonce.as_ref().and_then(|n| lock(&inner.nonces).get(&(channel, n.clone())).cloned()) {
        return json_ok(first);
    }
    let id = inner.next_id();
    call.created = Some(id);
    let message = sent_message(id, channel, &inner.bot, &call.body, &call.files);
    if let Some(nonce) = nonce {
        lock(&inner.nonces).insert((channel, nonce), message.clone());
    }
    json_ok(message)
}

/// The registered commands, as Discord echoes them back with ids.
fn registered(inner: &Inner, body: &Value) -> Value {
    let commands = body.as_array().cloned().unwrap_or_default();
    let out: Vec<Value> = commands
        .into_iter()
        .map(|mut c| {
            c["id"] = json!(inner.next_id().to_string());
            c["application_id"] = json!(APP.to_string());
            c["version"] = json!("1");
            if c.get("type").is_none() {
                c["type"] = json!(1);
            }
            if c.get("description").is_none() {
                c["description"] = json!("");
            }
            c
        })
        .collect();
    Value::Array(out)
}
