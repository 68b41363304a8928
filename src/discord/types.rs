//! The poise triad: `Data` (what every command and event handler shares),
//! `Error` and `Context`. Nothing here talks to Discord.

use std::collections::HashMap;
use std::sync::Arc;

use crate::core::actor::{Engine, Sessions};
use crate::core::catalogue::Catalogue;
use crate::core::guild::GuildStore;
use crate::core::llm::RoleModels;
use crate::core::puzzle::Language;
use crate::core::store::{Clock, Store};
use crate::puzzles::PuzzleLibrary;

use super::config::DiscordSettings;
use super::games::Games;
use super::limits::RateLimiter;

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

/// Builds the models for a model name a moderator chose (`config model`).
pub type ModelFactory = Arc<dyn Fn(&str) -> anyhow::Result<RoleModels> + Send + Sync>;

/// Game settings the bot falls back to where a server set nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Defaults {
    pub language: Language,
    pub hint_limit: u32,
}

/// Everything the bot's handlers share.
pub struct Data {
    /// The engine for servers that chose no model of their own.
    pub engine: Arc<Engine>,
    pub store: Arc<dyn Store>,
    pub guilds: Arc<dyn GuildStore>,
    pub library: PuzzleLibrary,
    pub catalogue: Catalogue,
    pub settings: DiscordSettings,
    pub defaults: Defaults,
    pub clock: Arc<dyn Clock>,
    /// Live games by thread, and their session actors.
    pub games: Games,
    pub sessions: Sessions,
    pub limiter: RateLimiter,
    pub models: Option<ModelFactory>,
    /// Engines for servers that chose a model, by model name.
    pub engines: std::sync::Mutex<HashMap<String, Arc<Engine>>>,
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
        let limiter = RateLimiter::new(parts.settings.turns_per_window, parts.settings.window_secs * 1000);
        Data {
            store: parts.engine.store.clone(),
            clock: parts.engine.clock.clone(),
            engine: parts.engine,
            guilds: parts.guilds,
            library: parts.library,
            catalogue: parts.catalogue,
            settings: parts.settings,
            defaults: parts.defaults,
            games: Games::default(),
            sessions: Sessions::default(),
            limiter,
            models: parts.models,
            engines: std::sync::Mutex::default(),
        }
    }

    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// The engine for a server's chosen model; the default engine when it
    /// chose none, or when that model cannot be built (logged).
    pub fn engine_for(&self, model: Option<&str>) -> Arc<Engine> {
        let (Some(model), Some(factory)) = (model, &self.models) else { return self.engine.clone() };
        let mut engines = self.engines.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(engine) = engines.get(model) {
            return engine.clone();
        }
        match factory(model) {
            Ok(models) => {
                let base = &self.engine;
                let mut pipeline = base.pipeline.clone();
                pipeline.models = models;
                let engine =
                    Arc::new(Engine::new(pipeline, base.store.clone(), base.clock.clone(), base.expire_after_ms));
                engines.insert(model.to_string(), engine.clone());
                engine
            }
            Err(e) => {
                tracing::warn!(model, error = %format!("{e:#}"), "cannot build the server's model; using the default");
                self.engine.clone()
            }
        }
    }
}
