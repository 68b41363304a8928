//! The poise triad: `Data` (what every command and event handler shares),
//! `Error` and `Context`; and the `Inbox` of interactions Discord POSTed to
//! the Interactions Endpoint (`endpoint.rs`), waiting for their first
//! response, which every handler's first response looks in. Nothing here
//! talks to Discord.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use poise::serenity_prelude as serenity;
use tokio::sync::oneshot;

use crate::bot::limits::RateLimiter;
use crate::bot::{Bot, BotParts};
use crate::core::actor::Engine;
use crate::core::catalogue::Catalogue;
use crate::core::guild::GuildStore;
use crate::puzzles::PuzzleLibrary;

pub use crate::bot::{Defaults, ModelFactory};

use super::config::DiscordSettings;

pub type Error = anyhow::Error;
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// The platform id of the event behind a command: the interaction id (or
/// the message id for prefix commands), for de-duplication.
pub fn event_id(ctx: Context<'_>) -> String {
    match ctx {
        poise::Context::Application(a) => a.interaction.id.to_string(),
        poise::Context::Prefix(p) => p.msg.id.to_string(),
    }
}

/// Everything the bot's handlers share: the platform-neutral `Bot` (its
/// fields and methods are reached through `Deref`) and Discord's settings.
/// Cloning is cheap (shared parts), so a turn can move to the game runtime.
#[derive(Clone)]
pub struct Data {
    pub bot: Arc<Bot>,
    pub settings: Arc<DiscordSettings>,
    pub limiter: Arc<RateLimiter>,
    /// The REST client interaction acks go through when Discord is not
    /// waiting on an HTTP request (`Data::first_response`), with its own
    /// connection; set by `spawn`, the bot's client until then.
    pub acks: Option<Arc<poise::serenity_prelude::Http>>,
    /// Interactions Discord POSTed to the endpoint, waiting for their
    /// first response (`Data::first_response`).
    pub inbox: Arc<Inbox>,
}

impl std::ops::Deref for Data {
    type Target = Bot;

    fn deref(&self) -> &Bot {
        &self.bot
    }
}

/// The parts `Data` is built from.
pub struct Parts {
    pub engine: Arc<Engine>,
    pub guilds: Arc<dyn GuildStore>,
    pub library: PuzzleLibrary,
    pub catalogue: Catalogue,
    pub settings: DiscordSettings,
    pub defaults: Defaults,
    pub models: Option<ModelFactory>,
}

impl Data {
    pub fn new(parts: Parts) -> Data {
        let bot = BotParts {
            engine: parts.engine,
            guilds: parts.guilds,
            library: parts.library,
            catalogue: parts.catalogue,
            defaults: parts.defaults,
            models: parts.models,
            hosted: crate::assets::hosted_games(),
        };
        Data::from_bot(bot, parts.settings)
    }

    pub fn from_bot(bot: BotParts, settings: DiscordSettings) -> Data {
        let limiter = RateLimiter::new(settings.turns_per_window, settings.window_secs * 1000);
        Data {
            bot: Arc::new(Bot::new(bot)),
            settings: Arc::new(settings),
            limiter: Arc::new(limiter),
            acks: None,
            inbox: Arc::default(),
        }
    }
}

/// poise's framework over `Data`.
pub type Framework = poise::Framework<Data, Error>;
/// Requests waiting for their interaction's first response (JSON).
type Waiting = HashMap<serenity::InteractionId, oneshot::Sender<Vec<u8>>>;

/// What the endpoint shares with the bot: the requests waiting for their
/// first response, and (once connected) the framework and a context to
/// dispatch with.
#[derive(Default)]
pub struct Inbox {
    waiting: Mutex<Waiting>,
    pub(super) framework: OnceLock<Arc<Framework>>,
    pub(super) context: OnceLock<serenity::Context>,
}

impl Inbox {
    fn lock(&self) -> std::sync::MutexGuard<'_, Waiting> {
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Notes a request waiting for `id`'s first response; `None` when one
    /// already is (Discord sent the interaction twice).
    pub(super) fn open(&self, id: serenity::InteractionId) -> Option<oneshot::Receiver<Vec<u8>>> {
        match self.lock().entry(id) {
            Entry::Occupied(_) => None,
            Entry::Vacant(slot) => {
                let (tx, rx) = oneshot::channel();
                slot.insert(tx);
                Some(rx)
            }
        }
    }

    pub(super) fn close(&self, id: serenity::InteractionId) {
        self.lock().remove(&id);
    }

    /// Answers `id`'s waiting request with `response`; false when none is
    /// waiting (the interaction came over the gateway, or its request was
    /// answered 202 already), so the caller responds through the API.
    pub fn answer(&self, id: serenity::InteractionId, response: &serenity::CreateInteractionResponse) -> bool {
        let Some(waiting) = self.lock().remove(&id) else { return false };
        match serde_json::to_vec(response) {
            Ok(body) => waiting.send(body).is_ok(),
            Err(e) => {
                tracing::error!(error = %e, "an interaction response could not be serialised");
                false
            }
        }
    }

    /// The context interactions are dispatched with: the first shard's,
    /// kept when it connects.
    pub fn connected(&self, ctx: &serenity::Context) {
        let _ = self.context.set(ctx.clone());
    }
}
