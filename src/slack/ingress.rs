//! What Slack sends, normalised: `Incoming` (a command, a message, a
//! button) from slack-morphism's payload types, whichever connection mode
//! brought it; and the Events API endpoint (axum): every request's v0
//! signature checked (HMAC-SHA256 over `v0:{ts}:{body}`, constant-time,
//! timestamps more than 5 minutes away refused) before anything is parsed,
//! the URL verification challenge answered, and every event acknowledged
//! with 200 at once while its turn plays in a spawned task.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use slack_morphism::prelude::*;
use slack_morphism::signature_verifier::SlackEventSignatureVerifier;

use super::SlackBot;

/// A slash command (`/soup …`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandIn {
    /// The slash command (`/soup`, or a hosted game's `/undercover`).
    pub command: String,
    pub team: String,
    pub channel: String,
    pub user: String,
    pub text: String,
    /// Unique per invocation: the event id for de-duplication.
    pub trigger_id: String,
}

/// A message posted in a channel or thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageIn {
    pub team: String,
    pub channel: String,
    pub user: String,
    pub text: String,
    pub thread_ts: Option<String>,
    pub event_id: String,
}

/// A button under a game's intro.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ButtonIn {
    pub team: String,
    pub channel: String,
    pub user: String,
    pub action_id: String,
    /// The intro message, which is the game thread's parent.
    pub message_ts: String,
    pub trigger_id: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Incoming {
    Command(CommandIn),
    Message(MessageIn),
    Button(ButtonIn),
}

impl Incoming {
    /// The id Slack repeats when it delivers the same event again.
    pub fn id(&self) -> &str {
        match self {
            Incoming::Command(c) => &c.trigger_id,
            Incoming::Message(m) => &m.event_id,
            Incoming::Button(b) => &b.trigger_id,
        }
    }
}

pub fn from_command(event: &SlackCommandEvent) -> Incoming {
    Incoming::Command(CommandIn {
        command: event.command.to_string(),
        team: event.team_id.to_string(),
        channel: event.channel_id.to_string(),
        user: event.user_id.to_string(),
        text: event.text.clone().unwrap_or_default(),
        trigger_id: event.trigger_id.to_string(),
    })
}

/// The bot events the app subscribes to, and the bot token scope each
/// needs: `from_push` reads `message` events, which Slack sends from the
/// public (`message.channels`) and private (`message.groups`) channels the
/// bot is in. Nothing else is read from the Events API.
pub const EVENTS: &[(&str, &str)] = &[("message.channels", "channels:history"), ("message.groups", "groups:history")];

/// A human's plain message; `None` for bots (any `bot_id`, the bot
/// itself), edits, joins and every other subtype.
pub fn from_push(event: &SlackPushEventCallback, me: Option<&str>) -> Option<Incoming> {
    let SlackEventCallbackBody::Message(msg) = &event.event else { return None };
    if msg.subtype.is_some() || msg.sender.bot_id.is_some() || msg.hidden == Some(true) {
        return None;
    }
    let user = msg.sender.user.as_ref()?.to_string();
    if me == Some(user.as_str()) {
        return None;
    }
    let text = msg.content.as_ref().and_then(|c| c.text.clone()).filter(|t| !t.trim().is_empty())?;
    Some(Incoming::Message(MessageIn {
        team: event.team_id.to_string(),
        channel: msg.origin.channel.as_ref()?.to_string(),
        user,
        text,
        thread_ts: msg.origin.thread_ts.as_ref().map(ToString::to_string),
        event_id: event.event_id.to_string(),
    }))
}

/// A button press on a message; `None` for anything else.
pub fn from_interaction(event: &SlackInteractionEvent) -> Option<Incoming> {
    let SlackInteractionEvent::BlockActions(press) = event else { return None };
    let SlackInteractionActionContainer::Message(container) = &press.container else { return None };
    let action = press.actions.as_ref()?.first()?;
    let channel = container.channel_id.as_ref().or(press.channel.as_ref().map(|c| &c.id))?;
    Some(Incoming::Button(ButtonIn {
        team: press.team.id.to_string(),
        channel: channel.to_string(),
        user: press.user.as_ref()?.id.to_string(),
        action_id: action.action_id.to_string(),
        message_ts: container.message_ts.to_string(),
        trigger_id: press.trigger_id.to_string(),
    }))
}

/// The Events API endpoint's state.
pub struct Endpoint {
    pub bot: Arc<SlackBot>,
    pub verifier: SlackEventSignatureVerifier,
}

/// `POST /slack/events`, `/slack/commands`, `/slack/interactions`.
pub fn events_router(bot: Arc<SlackBot>, signing_secret: &str) -> Router {
    let verifier = SlackEventSignatureVerifier::new(&SlackSigningSecret::new(signing_secret.to_string()));
    let state = Arc::new(Endpoint { bot, verifier });
    Router::new()
        .route("/slack/events", post(on_events))
        .route("/slack/commands", post(on_command))
        .route("/slack/interactions", post(on_interaction))
        .with_state(state)
        .layer(axum::middleware::from_fn(timed))
}

/// Counts each request answered (Slack's acknowledgement) and its time.
async fn timed(request: axum::extract::Request, next: axum::middleware::Next) -> axum::response::Response {
    let started = std::time::Instant::now();
    let response = next.run(request).await;
    crate::core::telemetry::telemetry().ack("slack", started.elapsed());
    response
}

/// The body, when its signature and timestamp are good.
fn verified<'a>(endpoint: &Endpoint, headers: &HeaderMap, body: &'a Bytes) -> Result<&'a str, StatusCode> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or_default();
    let body = std::str::from_utf8(body).map_err(|_| StatusCode::BAD_REQUEST)?;
    let hash = header(SlackEventSignatureVerifier::SLACK_SIGNED_HASH_HEADER);
    let ts = header(SlackEventSignatureVerifier::SLACK_SIGNED_TIMESTAMP);
    match endpoint.verifier.verify(hash, body, ts) {
        Ok(()) => Ok(body),
        Err(e) => {
            tracing::warn!(target: "security", error = %e, "Slack request refused: bad signature or timestamp");
            Err(StatusCode::UNAUTHORIZED)
        }
    }
}

async fn on_events(State(endpoint): State<Arc<Endpoint>>, headers: HeaderMap, body: Bytes) -> Response {
    let body = match verified(&endpoint, &headers, &body) {
        Ok(body) => body,
        Err(refused) => return refused.into_response(),
    };
    let event: SlackPushEvent = match serde_json::from_str(body) {
        Ok(event) => event,
        Err(e) => {
            tracing::debug!(error = %e, "unmodelled Slack event acknowledged");
            return StatusCode::OK.into_response();
        }
    };
    match event {
        SlackPushEvent::UrlVerification(challenge) => challenge.challenge.into_response(),
        SlackPushEvent::EventCallback(callback) => {
            // A retry (`X-Slack-Retry-Num`) carries the same event_id: `accept`
            // drops it unless the first delivery never arrived.
            if let Some(retry) = headers.get("x-slack-retry-num") {
                tracing::debug!(event = %callback.event_id, ?retry, "Slack retried an event");
            }
            if let Some(incoming) = from_push(&callback, endpoint.bot.me.get().map(String::as_str)) {
                endpoint.bot.accept(incoming);
            }
            StatusCode::OK.into_response()
        }
        _ => StatusCode::OK.into_response(),
    }
}

async fn on_command(State(endpoint): State<Arc<Endpoint>>, headers: HeaderMap, body: Bytes) -> Response {
    let body = match verified(&endpoint, &headers, &body) {
        Ok(body) => body,
        Err(refused) => return refused.into_response(),
    };
    match serde_urlencoded::from_str::<SlackCommandEvent>(body) {
        Ok(command) => {
            endpoint.bot.accept(from_command(&command));
            StatusCode::OK.into_response()
        }
        Err(e) => {
            tracing::warn!(error = %e, "unreadable slash command");
            StatusCode::BAD_REQUEST.into_response()
        }
    }
}

#[derive(serde::Deserialize)]
struct InteractionForm {
    payload: String,
}

async fn on_interaction(State(endpoint): State<Arc<Endpoint>>, headers: HeaderMap, body: Bytes) -> Response {
    let body = match verified(&endpoint, &headers, &body) {
        Ok(body) => body,
        Err(refused) => return refused.into_response(),
    };
    let parsed = serde_urlencoded::from_str::<InteractionForm>(body)
        .ok()
        .and_then(|form| serde_json::from_str::<SlackInteractionEvent>(&form.payload).ok());
    if let Some(incoming) = parsed.as_ref().and_then(from_interaction) {
        endpoint.bot.accept(incoming);
    }
    StatusCode::OK.into_response()
}
