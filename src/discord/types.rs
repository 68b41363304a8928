//! The poise triad: `Data` (what every command and event handler shares),
//! `Error` and `Context`. Nothing here talks to Discord.

use std::sync::Arc;

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
    pub inbox: Arc<super::endpoint::Inbox>,
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
