//! Live games by thread key. A thread's game is found in memory, or resumed
//! from its SQL binding (after a restart), so bound threads keep working.
//! Starting binds a thread; ending unbinds it. One actor per session:
//! resumes are serialised. Replies committed before a restart but never
//! shown are handed back to the front end to post.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::Context as _;

use crate::core::actor::{Delivery, SessionHandle};
use crate::core::guild::{GuildConfig, ThreadBinding};
use crate::core::soup::puzzle::Puzzle;
use crate::core::soup::transcript;
use crate::core::store::{OutboxItem, StoreError};
use crate::core::vocab::Player;

use super::{Bot, boards, delivery};

/// A finished game's transcript: the file's name, its Markdown (mentions
/// not yet neutralised) and the game's puzzle.
pub struct Transcript {
    pub name: String,
    pub markdown: String,
    pub puzzle: Arc<Puzzle>,
}

/// What a front end remembers about a thread's game.
#[derive(Debug, Clone)]
pub struct LiveGame {
    pub session_id: String,
    pub puzzle: Arc<Puzzle>,
    pub scope: String,
}

/// A thread's live game, and the replies a restart left unshown (empty
/// unless the game was just resumed).
pub struct Found {
    pub handle: SessionHandle,
    pub game: LiveGame,
    /// Public replies left unshown: the front end posts them in the thread.
    pub unsent: Vec<OutboxItem>,
    /// Messages for one seat (or the moderators) left undelivered: never
    /// posted in the thread; a front end delivers them privately or leaves
    /// them for the seat to ask for again.
    pub unsent_private: Vec<OutboxItem>,
}

/// Past this many remembered unbound channels, the memory is cleared.
const MAX_UNBOUND: usize = 100_000;

#[derive(Default)]
pub struct Games {
    threads: Mutex<HashMap<String, LiveGame>>,
    /// Thread keys known to play nothing, so chatter elsewhere costs no
    /// database read. Only this process binds threads, and it forgets a
    /// key here when it binds it.
    unbound: Mutex<HashSet<String>>,
    /// Held while a thread's session is resumed, so two messages arriving
    /// together never start two actors for one session.
    resume: tokio::sync::Mutex<()>,
}

impl Games {
    /// Held while any thread's game is resumed (Soup or seated).
    pub(super) async fn resume_lock(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.resume.lock().await
    }

    /// The thread a live Soup session plays in.
    fn thread_of_session(&self, session_id: &str) -> Option<String> {
        let threads = self.threads.lock().unwrap_or_else(PoisonError::into_inner);
        threads.iter().find(|(_, g)| g.session_id == session_id).map(|(t, _)| t.clone())
    }

    fn get(&self, thread: &str) -> Option<LiveGame> {
        self.threads.lock().unwrap_or_else(PoisonError::into_inner).get(thread).cloned()
    }

    fn insert(&self, thread: &str, game: LiveGame) {
        self.unbound.lock().unwrap_or_else(PoisonError::into_inner).remove(thread);
        self.threads.lock().unwrap_or_else(PoisonError::into_inner).insert(thread.to_string(), game);
    }

    fn known_unbound(&self, thread: &str) -> bool {
        self.unbound.lock().unwrap_or_else(PoisonError::into_inner).contains(thread)
    }

    fn mark_unbound(&self, thread: &str) {
        let mut unbound = self.unbound.lock().unwrap_or_else(PoisonError::into_inner);
        if unbound.len() >= MAX_UNBOUND {
            unbound.clear();
        }
        unbound.insert(thread.to_string());
    }

    fn remove(&self, thread: &str) -> Option<LiveGame> {
        self.threads.lock().unwrap_or_else(PoisonError::into_inner).remove(thread)
    }

    /// Forgets every live game (the bot is stopping).
    pub(super) fn clear(&self) {
        self.threads.lock().unwrap_or_else(PoisonError::into_inner).clear();
    }

    /// How many games are live in memory.
    pub fn len(&self) -> usize {
        self.threads.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Bot {
    /// The live game in a thread, resuming it from SQL when this process
    /// has not seen it yet; `None` when the thread plays nothing.
    pub async fn find_game(&self, thread: &str) -> anyhow::Result<Option<Found>> {
        if let Some(found) = self.cached(thread) {
            return Ok(Some(found));
        }
        if self.games.known_unbound(thread) {
            return Ok(None);
        }
        let binding = self.guilds.thread_binding(thread).await?;
        let Some(binding) = binding.filter(ThreadBinding::is_active) else {
            self.games.mark_unbound(thread);
            return Ok(None);
        };
        // A seated game's thread (`bot::tables`) is not Turtle Soup's.
        if self.store.session_kind(&binding.session_id).await?.is_some_and(|kind| kind != "soup") {
            return Ok(None);
        }
        let _one_at_a_time = self.games.resume.lock().await;
        if let Some(found) = self.cached(thread) {
            return Ok(Some(found));
        }
        match self.resume(thread, &binding).await {
            Ok(found) => Ok(Some(found)),
            Err(e) => {
                tracing::error!(thread, session = %binding.session_id, error = %format!("{e:#}"),
                    "cannot resume the thread's game; unbinding it");
                self.guilds.end_binding(&binding.thread, self.now_ms()).await?;
                self.games.mark_unbound(thread);
                Ok(None)
            }
        }
    }

    fn cached(&self, thread: &str) -> Option<Found> {
        let game = self.games.get(thread)?;
        let handle = self.sessions.get(&game.session_id)?;
        if handle.is_closed() {
            // Its actor stopped (another process played the session): the
            // next lookup resumes it from the record.
            self.sessions.remove(&game.session_id);
            self.games.remove(thread);
            return None;
        }
        Some(Found { handle, game, unsent: Vec::new(), unsent_private: Vec::new() })
    }

    async fn resume(&self, thread: &str, binding: &ThreadBinding) -> anyhow::Result<Found> {
        let customs = self.custom_puzzles(&binding.scope, true).await?;
        let config = self.guilds.guild_config(&binding.scope).await?;
        let engine = self.engine_for(config.model.as_deref());
        let library = &self.library;
        let corrections = self.corrections(&binding.scope).await?;
        let find = |id: &str| {
            let found = library.get(id).or_else(|| customs.iter().find(|p| p.id == id).cloned())?;
            Some(super::puzzles::corrected(found, &corrections))
        };
        let (handle, loaded) = engine.resume_session(&binding.session_id, find).await?;
        let puzzle = self.find_puzzle(&binding.scope, &loaded.puzzle_id).await?.context("the puzzle disappeared")?;
        let (unsent, unsent_private) = delivery::by_audience(delivery::left_unsent(&engine, &handle.id).await?);
        let game = LiveGame { session_id: handle.id.clone(), puzzle, scope: binding.scope.clone() };
        self.remember(thread, handle.clone(), game.clone());
        tracing::info!(thread, session = %handle.id, "resumed a bound thread");
        Ok(Found { handle, game, unsent, unsent_private })
    }

    fn remember(&self, thread: &str, handle: SessionHandle, game: LiveGame) {
        self.sessions.insert(handle);
        self.games.insert(thread, game);
    }

    /// The live Soup game a session plays and its thread (for turns no
    /// front-end call waits for: an AI player's).
    pub async fn soup_by_session(&self, session_id: &str) -> anyhow::Result<Option<(String, Found)>> {
        let Some(thread) = self.games.thread_of_session(session_id) else { return Ok(None) };
        Ok(self.find_game(&thread).await?.map(|found| (thread, found)))
    }

    /// Starts a game in `thread` with `ai_players` AI players and binds
    /// it. `Ok(None)` when the thread already has an active game.
    pub async fn bind_new_game(
        &self,
        thread: &str,
        scope: &str,
        puzzle: Arc<Puzzle>,
        config: &GuildConfig,
        host: Player,
        ai_players: u32,
    ) -> anyhow::Result<Option<(SessionHandle, Delivery)>> {
        let engine = self.engine_for(config.model.as_deref());
        let hint_limit = config.hint_limit.unwrap_or(self.defaults.hint_limit);
        let (handle, intro) =
            engine.start_session_with(puzzle.clone(), thread, hint_limit, host.clone(), ai_players).await?;
        if !self.bind(thread, scope, &handle.id, &host.id).await? {
            return Ok(None);
        }
        let game = LiveGame { session_id: handle.id.clone(), puzzle, scope: scope.to_string() };
        self.remember(thread, handle.clone(), game);
        Ok(Some((handle, intro)))
    }

    /// Binds `thread` to a new session; false when the thread already
    /// plays one (its binding is kept).
    pub(super) async fn bind(&self, thread: &str, scope: &str, session_id: &str, host: &str) -> anyhow::Result<bool> {
        let binding = ThreadBinding {
            thread: thread.to_string(),
            scope: scope.to_string(),
            session_id: session_id.to_string(),
            started_by: host.to_string(),
            created_ms: self.now_ms(),
            ended_ms: None,
        };
        match self.guilds.bind_thread(&binding).await {
            Ok(()) => Ok(true),
            Err(StoreError::Duplicate(_)) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// The newest finished Soup game played in `place` (a thread key, or
    /// a key prefix such as a Slack channel's, `slack:<channel>`) as a
    /// Markdown file; `None` when none has ended there. A front end asks
    /// only while no game is on in that place: an earlier game of the same
    /// puzzle would show the story being played for.
    pub async fn soup_transcript(&self, place: &str, scope: &str) -> anyhow::Result<Option<Transcript>> {
        let Some(id) = boards::last_finished(self.store.as_ref(), place, "soup").await? else { return Ok(None) };
        let loaded = self.store.load_session(&id).await?.context("the finished game's record is gone")?;
        let puzzle = self
            .find_puzzle(scope, &loaded.puzzle_id)
            .await?
            .with_context(|| format!("the puzzle {} is no longer available", loaded.puzzle_id))?;
        let (name, markdown) = transcript::file(&puzzle, &loaded)?;
        Ok(Some(Transcript { name, markdown, puzzle }))
    }

    /// Forgets a thread's game and ends its binding.
    pub async fn end_game(&self, thread: &str) -> anyhow::Result<()> {
        if let Some(game) = self.games.remove(thread) {
            self.sessions.remove(&game.session_id);
        }
        self.games.mark_unbound(thread);
        self.guilds.end_binding(thread, self.now_ms()).await?;
        Ok(())
    }
}
