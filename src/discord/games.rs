//! Live games by thread. A thread's game is found in memory, or resumed
//! from its SQL binding (after a restart), so bound threads keep working.
//! Starting binds a thread; ending (game over, moderator, thread archived
//! or deleted) unbinds it. One actor per session: resumes are serialised.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::Context as _;
use poise::serenity_prelude as serenity;

use crate::core::actor::{Delivery, SessionHandle};
use crate::core::guild::{GuildConfig, ThreadBinding};
use crate::core::puzzle::{Language, Puzzle};
use crate::core::soup::Player;
use crate::core::store::StoreError;

use super::types::{Data, Error};

/// What the adapter remembers about a thread's game.
#[derive(Debug, Clone)]
pub struct LiveGame {
    pub session_id: String,
    pub puzzle: Arc<Puzzle>,
    pub scope: String,
}

/// Past this many remembered unbound channels, the memory is cleared.
const MAX_UNBOUND: usize = 100_000;

#[derive(Default)]
pub struct Games {
    threads: Mutex<HashMap<u64, LiveGame>>,
    /// Channels known to play nothing, so chatter elsewhere in a server
    /// costs no database read. Only this process binds threads, and it
    /// forgets a channel here when it binds it.
    unbound: Mutex<HashSet<u64>>,
    /// Held while a thread's session is resumed, so two messages arriving
    /// together never start two actors for one session.
    resume: tokio::sync::Mutex<()>,
}

impl Games {
    fn get(&self, thread: serenity::ChannelId) -> Option<LiveGame> {
        self.threads.lock().unwrap_or_else(PoisonError::into_inner).get(&thread.get()).cloned()
    }

    fn insert(&self, thread: serenity::ChannelId, game: LiveGame) {
        self.unbound.lock().unwrap_or_else(PoisonError::into_inner).remove(&thread.get());
        self.threads.lock().unwrap_or_else(PoisonError::into_inner).insert(thread.get(), game);
    }

    fn known_unbound(&self, channel: serenity::ChannelId) -> bool {
        self.unbound.lock().unwrap_or_else(PoisonError::into_inner).contains(&channel.get())
    }

    fn mark_unbound(&self, channel: serenity::ChannelId) {
        let mut unbound = self.unbound.lock().unwrap_or_else(PoisonError::into_inner);
        if unbound.len() >= MAX_UNBOUND {
            unbound.clear();
        }
        unbound.insert(channel.get());
    }

    fn remove(&self, thread: serenity::ChannelId) -> Option<LiveGame> {
        self.threads.lock().unwrap_or_else(PoisonError::into_inner).remove(&thread.get())
    }

    /// How many games are live in memory.
    pub fn len(&self) -> usize {
        self.threads.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// `discord:<guild id>`: the scope of a server's settings and puzzles.
pub fn scope_of(guild: serenity::GuildId) -> String {
    format!("discord:{guild}")
}

/// `discord:<thread id>`: a thread's key in bindings and session rows.
pub fn thread_key(thread: serenity::ChannelId) -> String {
    format!("discord:{thread}")
}

pub fn player_of(user: &serenity::User) -> Player {
    Player { id: format!("discord:{}", user.id), name: super::render::neutralise(user.display_name()) }
}

impl Data {
    /// The live game in a thread, resuming it from SQL when this process
    /// has not seen it yet; `None` when the thread plays nothing.
    pub async fn game_in(
        &self,
        http: &serenity::Http,
        thread: serenity::ChannelId,
    ) -> Result<Option<(SessionHandle, LiveGame)>, Error> {
        self.find_game(Some(http), thread).await
    }

    /// Like `game_in`, but replies left unsent by a restart are not posted
    /// (for threads that can no longer be posted to).
    pub async fn game_quietly(&self, thread: serenity::ChannelId) -> Result<Option<(SessionHandle, LiveGame)>, Error> {
        self.find_game(None, thread).await
    }

    async fn find_game(
        &self,
        http: Option<&serenity::Http>,
        thread: serenity::ChannelId,
    ) -> Result<Option<(SessionHandle, LiveGame)>, Error> {
        if let Some(found) = self.cached(thread).await {
            return Ok(Some(found));
        }
        if self.games.known_unbound(thread) {
            return Ok(None);
        }
        let binding = self.guilds.thread_binding(&thread_key(thread)).await?;
        let Some(binding) = binding.filter(ThreadBinding::is_active) else {
            self.games.mark_unbound(thread);
            return Ok(None);
        };
        let _one_at_a_time = self.games.resume.lock().await;
        if let Some(found) = self.cached(thread).await {
            return Ok(Some(found));
        }
        match self.resume(http, thread, &binding).await {
            Ok(found) => Ok(Some(found)),
            Err(e) => {
                tracing::error!(thread = %thread, session = %binding.session_id, error = %format!("{e:#}"),
                    "cannot resume the thread's game; unbinding it");
                self.guilds.end_binding(&binding.thread, self.now_ms()).await?;
                self.games.mark_unbound(thread);
                Ok(None)
            }
        }
    }

    async fn cached(&self, thread: serenity::ChannelId) -> Option<(SessionHandle, LiveGame)> {
        let game = self.games.get(thread)?;
        let handle = self.sessions.get(&game.session_id).await?;
        Some((handle, game))
    }

    async fn resume(
        &self,
        http: Option<&serenity::Http>,
        thread: serenity::ChannelId,
        binding: &ThreadBinding,
    ) -> Result<(SessionHandle, LiveGame), Error> {
        let customs = self.custom_puzzles(&binding.scope, true).await?;
        let config = self.guilds.guild_config(&binding.scope).await?;
        let engine = self.engine_for(config.model.as_deref());
        let library = &self.library;
        let find = |id: &str| library.get(id).or_else(|| customs.iter().find(|p| p.id == id).cloned());
        let (handle, loaded) = engine.resume_session(&binding.session_id, find).await?;
        let puzzle = self.find_puzzle(&binding.scope, &loaded.puzzle_id).await?.context("the puzzle disappeared")?;
        // Replies committed before a restart but never shown go out now.
        let unsent = match http {
            Some(http) => self.store.unsent(&handle.id).await?.into_iter().map(|item| (http, item)).collect(),
            None => Vec::new(),
        };
        for (http, item) in unsent {
            let reply = crate::core::pipeline::Reply { kind: item.kind, text: item.body, verdict: None };
            let lang = puzzle.language;
            super::send::post(http, thread, &reply, lang, self.settings.max_reply_messages, None).await?;
            self.store.mark_sent(item.id).await?;
        }
        let game = LiveGame { session_id: handle.id.clone(), puzzle, scope: binding.scope.clone() };
        self.remember(thread, handle.clone(), game.clone()).await;
        tracing::info!(thread = %thread, session = %handle.id, "resumed a bound thread");
        Ok((handle, game))
    }

    async fn remember(&self, thread: serenity::ChannelId, handle: SessionHandle, game: LiveGame) {
        self.sessions.insert(handle).await;
        self.games.insert(thread, game);
    }

    /// Starts a game in `thread` and binds it. `Ok(None)` when the thread
    /// already has an active game.
    pub async fn open_game(
        &self,
        thread: serenity::ChannelId,
        scope: &str,
        puzzle: Arc<Puzzle>,
        config: &GuildConfig,
        host: Player,
    ) -> Result<Option<(SessionHandle, Delivery)>, Error> {
        let engine = self.engine_for(config.model.as_deref());
        let hint_limit = config.hint_limit.unwrap_or(self.defaults.hint_limit);
        let (handle, intro) =
            engine.start_session(puzzle.clone(), &thread_key(thread), hint_limit, host.clone()).await?;
        let binding = ThreadBinding {
            thread: thread_key(thread),
            scope: scope.to_string(),
            session_id: handle.id.clone(),
            started_by: host.id,
            created_ms: self.now_ms(),
            ended_ms: None,
        };
        match self.guilds.bind_thread(&binding).await {
            Ok(()) => {}
            Err(StoreError::Duplicate(_)) => return Ok(None),
            Err(e) => return Err(e.into()),
        }
        let game = LiveGame { session_id: handle.id.clone(), puzzle, scope: scope.to_string() };
        self.remember(thread, handle.clone(), game).await;
        Ok(Some((handle, intro)))
    }

    /// Forgets a thread's game and ends its binding.
    pub async fn close_game(&self, thread: serenity::ChannelId) -> Result<(), Error> {
        if let Some(game) = self.games.remove(thread) {
            self.sessions.remove(&game.session_id).await;
        }
        self.games.mark_unbound(thread);
        self.guilds.end_binding(&thread_key(thread), self.now_ms()).await?;
        Ok(())
    }

    /// The server's custom puzzles that parse, disabled ones too when asked.
    pub async fn custom_puzzles(&self, scope: &str, include_disabled: bool) -> Result<Vec<Arc<Puzzle>>, Error> {
        let mut out = Vec::new();
        for custom in self.guilds.scoped_puzzles(scope).await? {
            if !custom.enabled && !include_disabled {
                continue;
            }
            match Puzzle::from_toml(&custom.source, None, None) {
                Ok(p) => out.push(Arc::new(p)),
                Err(problems) => tracing::warn!(id = %custom.id, scope, ?problems, "stored custom puzzle skipped"),
            }
        }
        Ok(out)
    }

    /// Puzzles a new game on this server may use: built-ins it did not
    /// disable, and its enabled custom puzzles.
    pub async fn playable_puzzles(&self, scope: &str) -> Result<Vec<Arc<Puzzle>>, Error> {
        let disabled = self.guilds.disabled_puzzles(scope).await?;
        let mut out: Vec<Arc<Puzzle>> =
            self.library.all().iter().filter(|p| !disabled.contains(&p.id)).cloned().collect();
        out.extend(self.custom_puzzles(scope, false).await?);
        Ok(out)
    }

    /// Any puzzle this server can see, enabled or not.
    pub async fn find_puzzle(&self, scope: &str, id: &str) -> Result<Option<Arc<Puzzle>>, Error> {
        if let Some(p) = self.library.get(id) {
            return Ok(Some(p));
        }
        Ok(self.custom_puzzles(scope, true).await?.into_iter().find(|p| p.id == id))
    }

    /// The language the bot speaks on a server.
    pub fn language_of(&self, config: &GuildConfig) -> Language {
        config.language.unwrap_or(self.defaults.language)
    }

    /// The server's language, looked up; the default when unknown.
    pub async fn guild_language(&self, guild: Option<serenity::GuildId>) -> Language {
        let Some(guild) = guild else { return self.defaults.language };
        match self.guilds.guild_config(&scope_of(guild)).await {
            Ok(config) => self.language_of(&config),
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the server's settings");
                self.defaults.language
            }
        }
    }
}
