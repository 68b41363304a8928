//! What every chat-bot front end (Discord, Slack) shares and none of them
//! names a platform for: the live games by thread key (resumed from their
//! SQL bindings), the engine per configured model, the puzzles a scope may
//! play and the choice of one for a new game, the per-user turn limit, and
//! the instant rule-based model the offline tests and benchmarks use. The
//! terminal goes through it too for delivery by audience and the boards:
//! no front end reaches the store but through this layer and the ports.
//!
//! Scopes and thread keys are the platform-qualified strings of
//! `core::guild` (`discord:<guild>`, `slack:<team>`; `discord:<thread>`,
//! `slack:<channel>:<thread ts>`). This module sends nothing: a front end
//! shows what it returns.
//!
//! - `games.rs`: thread key ↔ session actor; `tables.rs`: seated games
//!   (`HostedGame`) by thread; `delivery.rs`: delivery by audience (rows
//!   a stop left unshown, marking them sent, the terminal's courier);
//!   `boards.rs`: the leaderboard and the last finished game, which the
//!   terminal uses too; `puzzles.rs`: playable puzzles
//!   and the choice for `start`; `limits.rs`: the rate limiter;
//!   `instant.rs`: `InstantModel`; `text.rs`: splitting long replies;
//!   `runtime.rs`: the lower-priority runtime turns run on; `net.rs`:
//!   TCP_NODELAY for the servers around the bots; `words.rs`: every fixed
//!   sentence the bots say, once per language, in each platform's markup;
//!   `quota.rs`: platform rate limits as the local fakes enforce them
//!   (with the fakes: the `fakes` feature).

pub mod boards;
pub mod delivery;
pub mod games;
pub mod instant;
pub mod limits;
pub mod net;
pub mod puzzles;
#[cfg(feature = "fakes")]
pub mod quota;
pub mod runtime;
pub mod tables;
pub mod text;
pub mod words;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::core::actor::{Engine, Sessions};
use crate::core::catalogue::Catalogue;
use crate::core::guild::{GuildConfig, GuildStore};
use crate::core::llm::RoleModels;
use crate::core::store::{Clock, LeaderRow, RoleRow, Store};
use crate::core::vocab::Language;
use crate::puzzles::PuzzleLibrary;

pub use games::{Found, Games, LiveGame, Transcript};
pub use puzzles::{NoPuzzle, Wanted};
pub use tables::{HostedGame, LiveTable, Opening, Tables};

/// Builds the models for a model name a moderator chose (`config model`).
pub type ModelFactory = Arc<dyn Fn(&str) -> anyhow::Result<RoleModels> + Send + Sync>;

/// Game settings the bot falls back to where a scope set nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defaults {
    pub language: Language,
    pub hint_limit: u32,
    /// Seated games' start options from the config (`[game.start.<group>]`).
    pub start: crate::core::game::StartDefaults,
}

/// The parts a `Bot` is built from.
pub struct BotParts {
    pub engine: Arc<Engine>,
    pub guilds: Arc<dyn GuildStore>,
    pub library: PuzzleLibrary,
    pub catalogue: Catalogue,
    pub defaults: Defaults,
    pub models: Option<ModelFactory>,
    /// Seated games hosted beside Turtle Soup, by catalogue group.
    pub hosted: Vec<Arc<dyn HostedGame>>,
}

/// The platform-neutral state a bot front end's handlers share.
pub struct Bot {
    /// The engine for scopes that chose no model of their own.
    pub engine: Arc<Engine>,
    pub store: Arc<dyn Store>,
    pub guilds: Arc<dyn GuildStore>,
    pub library: PuzzleLibrary,
    pub catalogue: Catalogue,
    pub defaults: Defaults,
    pub clock: Arc<dyn Clock>,
    /// Live games by thread key, and their session actors.
    pub games: Games,
    pub sessions: Sessions,
    /// Live seated games by thread key.
    pub tables: Tables,
    pub hosted: Vec<Arc<dyn HostedGame>>,
    pub models: Option<ModelFactory>,
    /// Engines for scopes that chose a model, by model name.
    pub engines: Mutex<HashMap<String, Arc<Engine>>>,
}

impl Bot {
    pub fn new(parts: BotParts) -> Bot {
        // Acknowledgements first: turns run on their own, lower-priority
        // threads.
        match runtime::games() {
            Ok(games) => parts.engine.run_games_on(games),
            Err(e) => tracing::warn!(error = %e, "no separate game runtime; turns share the bot's threads"),
        }
        Bot {
            store: parts.engine.store.clone(),
            clock: parts.engine.clock.clone(),
            engine: parts.engine,
            guilds: parts.guilds,
            library: parts.library,
            catalogue: parts.catalogue,
            defaults: parts.defaults,
            games: Games::default(),
            sessions: Sessions::default(),
            tables: Tables::default(),
            hosted: parts.hosted,
            models: parts.models,
            engines: Mutex::default(),
        }
    }

    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// `/soup forget-me`, once confirmed: erases what the bot remembers
    /// about the player and starts their record afresh (earlier games no
    /// longer count in stats, boards or memory rebuilds). The number of
    /// memories erased.
    pub async fn forget_player(&self, player_id: &str) -> anyhow::Result<usize> {
        let namespace = crate::core::memory::player_namespace(&crate::core::vocab::Player {
            id: player_id.to_string(),
            name: String::new(),
        });
        // The record first: every process's index follows it, and it is
        // erased even where this process has no vector store open.
        let recorded =
            crate::core::store::MemoryRecord::record_forget(self.store.as_ref(), &namespace, self.now_ms()).await?;
        let indexed = match &self.engine.pipeline.memory {
            Some(memory) => memory.forget(&namespace).await?,
            None => 0,
        };
        let removed = recorded.max(indexed);
        self.store.erase_player_memory(player_id, self.now_ms()).await?;
        tracing::info!(player = player_id, removed, "a player erased their memory and stats");
        Ok(removed)
    }

    /// Lets go of every live game (the bot is stopping): each session's
    /// actor ends once the last handle to it is gone, and with it its
    /// armed deadlines; the record stays for the next process.
    pub fn forget_all(&self) {
        self.sessions.clear();
        self.games.clear();
        self.tables.clear();
    }

    /// The bot stops as its process would: every live game is let go and
    /// its engines play nothing more (no timer fires, no queued input is
    /// played), even where a handle to a session is still held somewhere.
    pub fn shut_down(&self) {
        self.engine.stop();
        for engine in self.engines.lock().unwrap_or_else(PoisonError::into_inner).values() {
            engine.stop();
        }
        self.forget_all();
    }

    /// The engine for a scope's chosen model; the default engine when it
    /// chose none, or when that model cannot be built (logged).
    pub fn engine_for(&self, model: Option<&str>) -> Arc<Engine> {
        let (Some(model), Some(factory)) = (model, &self.models) else { return self.engine.clone() };
        let mut engines = self.engines.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(engine) = engines.get(model) {
            return engine.clone();
        }
        match factory(model) {
            Ok(models) => {
                let base = &self.engine;
                let mut pipeline = base.pipeline.clone();
                pipeline.models = models;
                let engine = Engine::new(pipeline, base.store.clone(), base.clock.clone(), base.expire_after_ms)
                    .sharing_actors_with(base);
                let engine = Arc::new(engine);
                if let Some(games) = base.games_runtime() {
                    engine.run_games_on(games);
                }
                if let Some(courier) = base.courier() {
                    engine.set_courier(courier);
                }
                engines.insert(model.to_string(), engine.clone());
                engine
            }
            Err(e) => {
                tracing::warn!(model, error = %format!("{e:#}"), "cannot build the server's model; using the default");
                self.engine.clone()
            }
        }
    }

    /// The language the bot speaks in a scope.
    pub fn language_of(&self, config: &GuildConfig) -> Language {
        config.language.unwrap_or(self.defaults.language)
    }

    /// A scope's language, looked up; the default when it cannot be read.
    pub async fn scope_language(&self, scope: &str) -> Language {
        match self.guilds.guild_config(scope).await {
            Ok(config) => self.language_of(&config),
            Err(e) => {
                tracing::warn!(error = %e, scope, "cannot read the scope's settings");
                self.defaults.language
            }
        }
    }
}

/// The leaderboard's rows, one line each, names made safe by the front end.
pub fn leaderboard_lines(rows: &[LeaderRow], safe_name: impl Fn(&str) -> String) -> String {
    rows.iter()
        .enumerate()
        .map(|(i, r)| format!("{}. {} · {} pts · {} solved\n", i + 1, safe_name(&r.name), r.points, r.solves))
        .collect()
}

/// Games and wins per player and role, one line per player, most wins
/// first; `role_name` is the game's name for a stored role.
pub fn role_stats_lines(
    lang: Language,
    rows: &[RoleRow],
    role_name: impl Fn(&str) -> String,
    safe_name: impl Fn(&str) -> String,
) -> String {
    let mut players: Vec<(&str, &str, i64, i64, Vec<String>)> = Vec::new();
    for r in rows {
        let i = match players.iter().position(|p| p.0 == r.player_id) {
            Some(i) => i,
            None => {
                players.push((&r.player_id, &r.name, 0, 0, Vec::new()));
                players.len() - 1
            }
        };
        let p = &mut players[i];
        p.2 += r.games;
        p.3 += r.wins;
        p.4.push(format!("{} {}/{}", role_name(&r.role), r.wins, r.games));
    }
    players.sort_by(|a, b| b.3.cmp(&a.3).then(b.2.cmp(&a.2)).then(a.1.cmp(b.1)));
    if players.is_empty() {
        return match lang {
            Language::En => "No finished games here yet.".to_string(),
            Language::Zh => "这里还没有打完的对局。".to_string(),
        };
    }
    players
        .iter()
        .enumerate()
        .map(|(i, (_, name, games, wins, roles))| match lang {
            Language::En => {
                format!("{}. {} · {wins} wins in {games} games ({})\n", i + 1, safe_name(name), roles.join(", "))
            }
            Language::Zh => {
                format!("{}. {} · {games} 局胜 {wins} 局（{}）\n", i + 1, safe_name(name), roles.join("，"))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
