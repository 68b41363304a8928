//! Seated games the bots host beside Turtle Soup: each is registered as a
//! `HostedGame` (how to open its lobby, how to rebuild its table from the
//! record) under its catalogue group (`/undercover …`). A thread plays at
//! most one game; its binding names the session, and the session names
//! its game, so a restart resumes the right one.
//!
//! Platform-free like the rest of `bot`: the front ends render what the
//! tables say (`Delivery::messages` with their audiences) and deliver a
//! seat's message only to that seat.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::core::actor::{Delivery, Inbound, SessionHandle};
pub use crate::core::game::HostedGame;
use crate::core::game::{TableOptions, TurnInput};
use crate::core::guild::{GuildConfig, ThreadBinding};
use crate::core::puzzle::Language;
use crate::core::soup::Player;
use crate::core::store::{NewSession, OutboxItem};

use super::Bot;

/// A thread's seated game.
#[derive(Clone)]
pub struct LiveTable {
    pub handle: SessionHandle,
    pub game: Arc<dyn HostedGame>,
    pub scope: String,
    pub language: Language,
}

/// Tables by thread key, and which thread each session plays in (for
/// replies no front-end call waits for: deadlines, agents).
#[derive(Default)]
pub struct Tables {
    threads: Mutex<HashMap<String, LiveTable>>,
    sessions: Mutex<HashMap<String, String>>,
}

impl Tables {
    fn get(&self, thread: &str) -> Option<LiveTable> {
        self.threads.lock().unwrap_or_else(PoisonError::into_inner).get(thread).cloned()
    }

    fn insert(&self, thread: &str, table: LiveTable) {
        let session = table.handle.id.clone();
        self.threads.lock().unwrap_or_else(PoisonError::into_inner).insert(thread.to_string(), table);
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner).insert(session, thread.to_string());
    }

    /// The thread a session plays in.
    pub fn thread_of(&self, session_id: &str) -> Option<String> {
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner).get(session_id).cloned()
    }

    pub(super) fn clear(&self) {
        self.threads.lock().unwrap_or_else(PoisonError::into_inner).clear();
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner).clear();
    }

    fn remove(&self, thread: &str) {
        let table = self.threads.lock().unwrap_or_else(PoisonError::into_inner).remove(thread);
        if let Some(table) = table {
            self.sessions.lock().unwrap_or_else(PoisonError::into_inner).remove(&table.handle.id);
        }
    }
}

/// What opening a lobby did.
pub enum Opening {
    /// The lobby is open; its first reply.
    Open(LiveTable, Delivery),
    /// The thread already plays a game.
    Busy,
    /// The game refused the options (a sentence for the host).
    Refused(String),
}

/// A table found for a thread, with what a restart left undelivered.
pub struct FoundTable {
    pub table: LiveTable,
    /// Public replies to post in the thread.
    pub unsent: Vec<OutboxItem>,
    /// Messages for one seat: delivered privately, never in the thread.
    pub unsent_private: Vec<OutboxItem>,
}

impl Bot {
    /// The hosted game registered under a catalogue group.
    pub fn hosted(&self, group: &str) -> Option<Arc<dyn HostedGame>> {
        self.hosted.iter().find(|g| g.group() == group).cloned()
    }

    /// Opens a lobby of `game` in `thread` and binds it; `Opening::Busy`
    /// when the thread already plays something.
    pub async fn open_table(
        &self,
        game: Arc<dyn HostedGame>,
        thread: &str,
        scope: &str,
        config: &GuildConfig,
        host: Player,
        options: &TableOptions,
    ) -> anyhow::Result<Opening> {
        let language = options.language.unwrap_or_else(|| self.language_of(config));
        let engine = self.engine_for(config.model.as_deref());
        let template = NewSession::for_game(game.kind(), language, thread, self.now_ms());
        let (new, table) = match game.open(&host, language, options, template) {
            Ok(opened) => opened,
            Err(why) => return Ok(Opening::Refused(why)),
        };
        let handle = engine.create_session(&new, table).await?;
        if !self.bind(thread, scope, &handle.id, &host.id).await? {
            return Ok(Opening::Busy);
        }
        let live = LiveTable { handle: handle.clone(), game, scope: scope.to_string(), language };
        self.tables.insert(thread, live.clone());
        let intro = handle.send(Inbound::new(host, TurnInput::Status)).await?;
        Ok(Opening::Open(live, intro))
    }

    /// The seated game in a thread, resumed from SQL after a restart;
    /// `None` when the thread plays nothing or plays Turtle Soup.
    pub async fn find_table(&self, thread: &str) -> anyhow::Result<Option<FoundTable>> {
        if let Some(table) = self.tables.get(thread) {
            return Ok(Some(FoundTable { table, unsent: Vec::new(), unsent_private: Vec::new() }));
        }
        let Some(binding) = self.guilds.thread_binding(thread).await?.filter(ThreadBinding::is_active) else {
            return Ok(None);
        };
        let Some(kind) = self.store.session_kind(&binding.session_id).await? else { return Ok(None) };
        let Some(game) = self.hosted.iter().find(|g| g.kind() == kind).cloned() else { return Ok(None) };
        let _one_at_a_time = self.games.resume_lock().await;
        if let Some(table) = self.tables.get(thread) {
            return Ok(Some(FoundTable { table, unsent: Vec::new(), unsent_private: Vec::new() }));
        }
        self.resume_table(thread, &binding, game).await.map(Some)
    }

    async fn resume_table(
        &self,
        thread: &str,
        binding: &ThreadBinding,
        game: Arc<dyn HostedGame>,
    ) -> anyhow::Result<FoundTable> {
        let config = self.guilds.guild_config(&binding.scope).await?;
        let engine = self.engine_for(config.model.as_deref());
        let opener = game.clone();
        let handle = engine.resume_table(&binding.session_id, |loaded| opener.resume(loaded)).await?;
        let language = self.language_of(&config);
        let live = LiveTable { handle: handle.clone(), game, scope: binding.scope.clone(), language };
        self.tables.insert(thread, live.clone());
        let (unsent, unsent_private): (Vec<_>, Vec<_>) =
            self.store.unsent(&handle.id).await?.into_iter().partition(|item| !item.audience.is_private());
        tracing::info!(thread, session = %handle.id, "resumed a bound table");
        Ok(FoundTable { table: live, unsent, unsent_private })
    }

    /// Resumes every bound table whose phase has a deadline, so timers
    /// fire after a restart even if nobody speaks in the thread.
    pub async fn resume_deadlines(&self) -> anyhow::Result<usize> {
        let mut resumed = 0;
        let bindings = self.guilds.active_bindings().await?;
        for (session_id, _) in self.store.pending_deadlines().await? {
            let Some(binding) = bindings.iter().find(|b| b.session_id == session_id) else { continue };
            if self.find_table(&binding.thread).await?.is_some() {
                resumed += 1;
            }
        }
        Ok(resumed)
    }

    /// Forgets a thread's table and ends its binding.
    pub async fn end_table(&self, thread: &str) -> anyhow::Result<()> {
        self.tables.remove(thread);
        self.guilds.end_binding(thread, self.now_ms()).await?;
        Ok(())
    }
}
