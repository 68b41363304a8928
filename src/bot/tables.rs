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
use crate::core::guild::{CustomContent, GuildConfig, ThreadBinding};
use crate::core::store::{NewSession, OutboxItem, StoreError};
use crate::core::vocab::Language;
use crate::core::vocab::Player;

use super::words::{Markup, Word, say};
use super::{Bot, delivery};

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
        let options = self.defaults.start.fill(game.group(), options.clone());
        let options = TableOptions { custom: self.guilds.custom_content(scope, game.kind()).await?, ..options };
        let (new, table) = match game.open(&host, language, &options, template) {
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
            if !table.handle.is_closed() {
                return Ok(Some(FoundTable { table, unsent: Vec::new(), unsent_private: Vec::new() }));
            }
            // Its actor stopped (another process played the session).
            self.tables.remove(thread);
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
        let mut language = self.language_of(&config);
        let handle = engine
            .resume_table(&binding.session_id, |loaded| {
                let table = opener.resume(loaded)?;
                language = table.language();
                Ok(table)
            })
            .await?;
        let live = LiveTable { handle: handle.clone(), game, scope: binding.scope.clone(), language };
        self.tables.insert(thread, live.clone());
        let (unsent, unsent_private) = delivery::by_audience(delivery::left_unsent(&engine, &handle.id).await?);
        tracing::info!(thread, session = %handle.id, "resumed a bound table");
        Ok(FoundTable { table: live, unsent, unsent_private })
    }

    /// Starts a session's actor again from the record when none runs here
    /// (the engine's courier asks: an input was handed to the session).
    /// Returns the public replies the session's last holder committed but
    /// never showed (it died between the two), for the courier to show;
    /// none when it runs here already or no active thread plays it.
    pub async fn reopen_session(&self, session_id: &str) -> anyhow::Result<Vec<Delivery>> {
        let live = |h: Option<SessionHandle>| h.is_some_and(|h| !h.is_closed());
        let table = self.tables.thread_of(session_id).and_then(|t| self.tables.get(&t)).map(|t| t.handle);
        if live(self.sessions.get(session_id)) || live(table) {
            return Ok(Vec::new());
        }
        let bindings = self.guilds.active_bindings().await?;
        let Some(binding) = bindings.into_iter().find(|b| b.session_id == session_id) else { return Ok(Vec::new()) };
        let unsent = match self.store.session_kind(session_id).await? {
            Some(kind) if kind == "soup" => self.find_game(&binding.thread).await?.map(|found| found.unsent),
            Some(_) => self.find_table(&binding.thread).await?.map(|found| found.unsent),
            None => None,
        };
        Ok(unsent.unwrap_or_default().into_iter().map(Delivery::unsent).collect())
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

    /// A moderator's `… pairs add` (a server's own content for `game`):
    /// the sentence to answer with. Without a language, text with Chinese
    /// characters is Chinese content and any other is English.
    pub async fn add_content(
        &self,
        game: &Arc<dyn HostedGame>,
        scope: &str,
        language: Option<Language>,
        text: &str,
        by: &Player,
        markup: Markup,
    ) -> anyhow::Result<String> {
        let group = game.group();
        let cjk = text.chars().any(crate::core::text::is_cjk);
        let language = language.unwrap_or(if cjk { Language::Zh } else { Language::En });
        let Some(read) = game.custom(language, text) else {
            return Ok(say(language, markup, &Word::UnknownVerb(group)));
        };
        let item = match read {
            Ok(item) => item,
            Err(why) => return Ok(why),
        };
        let row = CustomContent {
            scope: scope.to_string(),
            game: game.kind().to_string(),
            id: item.id.clone(),
            language,
            source: item.source,
            added_by: by.id.clone(),
            created_ms: self.now_ms(),
        };
        Ok(match self.guilds.add_custom_content(&row).await {
            Ok(()) => say(language, markup, &Word::ContentAdded { id: &item.id, shown: &item.shown }),
            Err(StoreError::Duplicate(_)) => say(language, markup, &Word::ContentExists(&item.id)),
            Err(e) => return Err(e.into()),
        })
    }

    /// `… pairs list`: the server's own content for `game`, one line each.
    pub async fn list_content(
        &self,
        game: &Arc<dyn HostedGame>,
        scope: &str,
        language: Language,
        markup: Markup,
    ) -> anyhow::Result<String> {
        let group = game.group();
        let items = self.guilds.custom_content(scope, game.kind()).await?;
        if items.is_empty() {
            return Ok(say(language, markup, &Word::NoContent { group }));
        }
        let mut lines = vec![say(language, markup, &Word::ContentHeading { group })];
        for item in &items {
            lines.push(format!("• `{}` ({}) {}", item.id, item.language.code(), game.custom_shown(item)));
        }
        Ok(lines.join("\n"))
    }

    /// `… pairs remove <id>`.
    pub async fn remove_content(
        &self,
        game: &Arc<dyn HostedGame>,
        scope: &str,
        id: &str,
        language: Language,
        markup: Markup,
    ) -> anyhow::Result<String> {
        let id = id.trim().trim_matches('`');
        Ok(if self.guilds.remove_custom_content(scope, game.kind(), id).await? {
            say(language, markup, &Word::ContentRemoved(id))
        } else {
            say(language, markup, &Word::NoSuchContent { id, group: game.group() })
        })
    }

    /// Forgets a thread's table and ends its binding.
    pub async fn end_table(&self, thread: &str) -> anyhow::Result<()> {
        self.tables.remove(thread);
        self.guilds.end_binding(thread, self.now_ms()).await?;
        Ok(())
    }
}
