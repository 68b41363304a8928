//! The guild port: what a bot front end keeps per server (Discord guild,
//! Slack workspace) besides the games themselves: moderator settings,
//! which thread plays which session, and the server's private puzzles.
//! `crate::store` implements it with sqlx; this module does no I/O.
//!
//! Scopes are platform-qualified strings (`discord:<guild id>`), threads
//! too (`discord:<thread id>`), so two platforms never share a row.

use async_trait::async_trait;

use super::store::{CustomPuzzle, StoreError};
use crate::core::vocab::Language;

/// Settings a moderator changed for one server; `None` means "use the
/// bot's default".
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GuildConfig {
    pub language: Option<Language>,
    pub hint_limit: Option<u32>,
    /// The only channel games may start in.
    pub channel: Option<String>,
    /// The model that hosts new games here.
    pub model: Option<String>,
    /// Members of this role count as moderators.
    pub mod_role: Option<String>,
}

/// Which session a thread plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadBinding {
    pub thread: String,
    pub scope: String,
    pub session_id: String,
    /// Who started the game (a player id).
    pub started_by: String,
    pub created_ms: i64,
    /// Set once the game there has ended and the thread plays nothing.
    pub ended_ms: Option<i64>,
}

impl ThreadBinding {
    pub fn is_active(&self) -> bool {
        self.ended_ms.is_none()
    }
}

/// A puzzle a moderator uploaded, before it is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCustomPuzzle<'a> {
    pub scope: &'a str,
    pub id: &'a str,
    /// The validated TOML text, kept as uploaded.
    pub source: &'a str,
    pub added_by: &'a str,
    pub created_ms: i64,
}

/// A server's own content for a seated game (Undercover: one word pair),
/// kept as the game's text; the game validates it when it is added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomContent {
    pub scope: String,
    /// The game's kind (`undercover`).
    pub game: String,
    pub id: String,
    pub language: Language,
    /// The game's own text for it (Undercover: the pair as TOML).
    pub source: String,
    pub added_by: String,
    pub created_ms: i64,
}

#[async_trait]
pub trait GuildStore: Send + Sync {
    /// The server's settings; all `None` for a server never configured.
    async fn guild_config(&self, scope: &str) -> Result<GuildConfig, StoreError>;

    async fn set_guild_config(&self, scope: &str, config: &GuildConfig, now_ms: i64) -> Result<(), StoreError>;

    /// Binds a thread to a session. MUST return `StoreError::Duplicate`
    /// (and change nothing) when the thread already has an active binding;
    /// an ended binding is replaced.
    async fn bind_thread(&self, binding: &ThreadBinding) -> Result<(), StoreError>;

    /// The thread's binding, active or ended; `Ok(None)` if it never had one.
    async fn thread_binding(&self, thread: &str) -> Result<Option<ThreadBinding>, StoreError>;

    /// Marks the thread's binding ended. Returns false when it had no
    /// active binding (ending twice is harmless).
    async fn end_binding(&self, thread: &str, now_ms: i64) -> Result<bool, StoreError>;

    /// Active bindings, oldest first (to resume after a restart).
    async fn active_bindings(&self) -> Result<Vec<ThreadBinding>, StoreError>;

    /// Stores a custom puzzle, enabled. MUST return `StoreError::Duplicate`
    /// when the scope already has a puzzle with that id.
    async fn add_custom_puzzle(&self, puzzle: &NewCustomPuzzle<'_>) -> Result<(), StoreError>;

    /// Returns false when there was no such puzzle.
    async fn remove_custom_puzzle(&self, scope: &str, id: &str) -> Result<bool, StoreError>;

    /// The scope's custom puzzles (enabled or not), by id.
    async fn scoped_puzzles(&self, scope: &str) -> Result<Vec<CustomPuzzle>, StoreError>;

    /// Enables or disables any puzzle (built-in or custom) for the scope.
    async fn set_puzzle_enabled(&self, scope: &str, id: &str, enabled: bool) -> Result<(), StoreError>;

    /// Ids of built-in puzzles the scope disabled.
    async fn disabled_puzzles(&self, scope: &str) -> Result<Vec<String>, StoreError>;

    /// Queues the puzzle the next game in `channel` uses.
    async fn set_next_puzzle(&self, scope: &str, channel: &str, puzzle_id: &str) -> Result<(), StoreError>;

    /// Takes (and clears) the queued puzzle for `channel`.
    async fn take_next_puzzle(&self, scope: &str, channel: &str) -> Result<Option<String>, StoreError>;

    /// Stores a server's content for a game. MUST return
    /// `StoreError::Duplicate` when the scope's game already has that id.
    async fn add_custom_content(&self, item: &CustomContent) -> Result<(), StoreError>;

    /// Returns false when there was no such item.
    async fn remove_custom_content(&self, scope: &str, game: &str, id: &str) -> Result<bool, StoreError>;

    /// The scope's content for a game, oldest first.
    async fn custom_content(&self, scope: &str, game: &str) -> Result<Vec<CustomContent>, StoreError>;
}
