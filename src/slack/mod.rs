//! The Slack front end (slack-morphism): team Turtle Soup in threads, over
//! Socket Mode or the Events API. The same engine and command catalogue as
//! Discord and the terminal.
//!
//! It only translates. `/soup start` posts the surface (Block Kit, with
//! Hint / Status / Give up buttons); the thread under it is the game and is
//! bound to its session in SQL (`slack:<channel>:<thread ts>`, scope
//! `slack:<team>`). A thread reply, `/soup <verb>` or a button becomes an
//! `Inbound` (event id = Slack's `event_id`, or the `trigger_id` for
//! commands and buttons; player `slack:<user>`) for the session actor; a
//! "thinking…" message is posted and then updated in place with the reply
//! (mentions neutralised, split), which is then marked delivered. Every
//! event is acknowledged at once and played in a spawned task; events seen
//! before (Slack's retries) are dropped by id before any work. Game rules
//! live in `core`; shared bot logic in `crate::bot`; this is the only module
//! that names slack-morphism.
//!
//! - `ingress.rs`: Slack payloads → `Incoming`, the Events API endpoint
//!   (signatures, URL verification, retries); `socket.rs`: Socket Mode.
//! - `play.rs`: start, turns, the end of a game; `admin.rs`: `/soup admin`
//!   and its permission check; `command.rs`: `/soup` text → `SoupCommand`.
//! - `render.rs`, `words.rs`: text and blocks; `web.rs`: Web API calls.
//! - `manifest.rs`: the scopes, events and slash commands the Slack app
//!   needs, which `deploy/slack-manifest.json` asks for.
//! - `fake/`: a local fake of Slack's Web API and Socket Mode for the tests
//!   and `bench.rs` (both only with the `fakes` feature).

pub mod admin;
#[cfg(feature = "fakes")]
pub mod bench;
pub mod command;
#[cfg(feature = "fakes")]
pub mod fake;
pub mod ingress;
pub mod manifest;
pub mod outbox;
pub mod play;
pub mod render;
pub mod settings;
pub mod socket;
pub mod tables;
pub mod web;
pub mod words;

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use slack_morphism::prelude::*;

use crate::bot::limits::RateLimiter;
use crate::bot::{Bot, BotParts};

pub use ingress::{Incoming, events_router};
pub use settings::{Mode, SlackSettings};

/// Remembered event ids (Slack's retries, redelivered envelopes).
const SEEN_EVENTS: usize = 10_000;

/// Where the bot's Web API calls go.
#[derive(Debug, Clone)]
pub struct Endpoint {
    pub bot_token: String,
    /// `None`: slack.com. `Some("http://127.0.0.1:PORT/api")`: a fake.
    pub api_url: Option<String>,
}

/// Everything the Slack handlers share: the platform-neutral `Bot` (its
/// fields and methods are reached through `Deref`), the Web API client and
/// the bookkeeping for de-duplication.
pub struct SlackBot {
    pub bot: Bot,
    pub settings: SlackSettings,
    pub limiter: RateLimiter,
    pub client: Arc<SlackHyperClient>,
    pub token: SlackApiToken,
    /// The bot's own user id, from `auth.test`: its messages are ignored.
    pub me: OnceLock<String>,
    seen: Mutex<(HashSet<String>, VecDeque<String>)>,
    /// The latest game thread (key) per channel, for `/soup <verb>`.
    channels: Mutex<HashMap<String, String>>,
    /// Display names by user id, with when they were looked up.
    names: Mutex<HashMap<String, (String, i64)>>,
    /// Web API methods a 429 holds, until when (`web.rs`).
    held: Mutex<HashMap<String, tokio::time::Instant>>,
}

impl std::ops::Deref for SlackBot {
    type Target = Bot;

    fn deref(&self) -> &Bot {
        &self.bot
    }
}

/// A Web API client for slack.com, or for a local fake over plain http.
pub fn client(endpoint: &Endpoint) -> anyhow::Result<Arc<SlackHyperClient>> {
    let builder = hyper_rustls::HttpsConnectorBuilder::new().with_native_roots()?;
    let connector = match &endpoint.api_url {
        Some(url) => SlackClientHyperConnector::with_connector(builder.https_or_http().enable_http2().build())
            .with_slack_api_url(url),
        None => SlackClientHyperConnector::with_connector(builder.https_only().enable_http2().build()),
    };
    Ok(Arc::new(SlackClient::new(connector)))
}

impl SlackBot {
    /// Builds the bot and asks Slack who it is (`auth.test`).
    pub async fn connect(
        parts: BotParts,
        settings: SlackSettings,
        endpoint: &Endpoint,
    ) -> anyhow::Result<Arc<SlackBot>> {
        let limiter = RateLimiter::new(settings.turns_per_window, settings.window_secs * 1000);
        let token = SlackApiToken::new(endpoint.bot_token.clone().into());
        let bot = Arc::new(SlackBot {
            bot: Bot::new(parts),
            settings,
            limiter,
            client: client(endpoint)?,
            token,
            me: OnceLock::new(),
            seen: Mutex::default(),
            channels: Mutex::default(),
            names: Mutex::default(),
            held: Mutex::default(),
        });
        let me = bot.session().auth_test().await.map_err(|e| anyhow::anyhow!("Slack auth.test failed: {e}"))?;
        let _ = bot.me.set(me.user_id.to_string());
        tracing::info!(user = %me.user_id, team = %me.team, "connected to Slack");
        // Deadlines and AI seats' moves are shown in their threads; tables
        // with a running deadline resume now, so their timers fire.
        bot.engine.set_courier(Arc::new(tables::SlackCourier(Arc::downgrade(&bot))));
        match bot.resume_deadlines().await {
            Ok(0) => {}
            Ok(n) => tracing::info!(tables = n, "resumed tables with deadlines"),
            Err(e) => tracing::warn!(error = %format!("{e:#}"), "could not resume tables with deadlines"),
        }
        Ok(bot)
    }

    pub fn session(&self) -> SlackClientSession<'_, SlackClientHyperHttpsConnector> {
        self.client.open_session(&self.token)
    }

    /// Records an event id; false when it was seen before (a retry).
    pub fn first_time(&self, id: &str) -> bool {
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        if !seen.0.insert(id.to_string()) {
            return false;
        }
        seen.1.push_back(id.to_string());
        if seen.1.len() > SEEN_EVENTS
            && let Some(old) = seen.1.pop_front()
        {
            seen.0.remove(&old);
        }
        true
    }

    /// Acknowledges at once: a new event is played in a spawned task, a
    /// repeated one is dropped. Returns whether it will be played.
    pub fn accept(self: &Arc<Self>, incoming: Incoming) -> bool {
        if !self.first_time(incoming.id()) {
            tracing::debug!(id = incoming.id(), "repeated Slack event dropped");
            return false;
        }
        let bot = self.clone();
        tokio::spawn(async move { bot.play(incoming).await });
        true
    }

    fn remember_channel(&self, channel: &str, thread: &str) {
        self.channels.lock().unwrap_or_else(PoisonError::into_inner).insert(channel.to_string(), thread.to_string());
    }

    fn forget_channel(&self, thread: &str) {
        self.channels.lock().unwrap_or_else(PoisonError::into_inner).retain(|_, t| t != thread);
    }

    /// The channel's game thread key: remembered, or the newest active
    /// binding there (after a restart).
    async fn channel_thread(&self, channel: &str) -> anyhow::Result<Option<String>> {
        let known = self.channels.lock().unwrap_or_else(PoisonError::into_inner).get(channel).cloned();
        if known.is_some() {
            return Ok(known);
        }
        let prefix = format!("slack:{channel}:");
        let newest = self.guilds.active_bindings().await?.into_iter().rev().find(|b| b.thread.starts_with(&prefix));
        Ok(newest.map(|b| b.thread))
    }
}

/// `slack:<team id>`: a workspace's settings and puzzles.
pub fn scope_of(team: &str) -> String {
    format!("slack:{team}")
}

/// `slack:<channel>:<thread ts>`: a game thread's key.
pub fn thread_key(channel: &str, thread_ts: &str) -> String {
    format!("slack:{channel}:{thread_ts}")
}

/// The thread ts back from a key.
pub fn thread_ts_of(key: &str) -> Option<&str> {
    key.rsplit(':').next()
}

#[cfg(test)]
mod tests;
