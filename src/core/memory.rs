//! Long-term memory: what the bot remembers about players, guilds and the
//! world across games and servers. SQL keeps the record; a vector index
//! (LanceDB) answers "which memories are relevant to this?".
//!
//! Namespaces: `player:<platform>:<user id>` (one per person per platform,
//! shared across servers), `guild:<platform>:<id>`, and `global`. Only
//! public content is ever written here, so only public roles read it and the
//! Judge never does.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::core::vocab::Player;

/// What a memory records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MemoryKind {
    /// A short public summary of one finished game.
    Summary,
    /// Counters: games, solves, questions per solve, hints used.
    Stats,
    /// How this player plays (derived from their stats).
    Profile,
    /// One turn of a long session, kept searchable (`session:<id>`).
    Turn,
}

impl MemoryKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MemoryKind::Summary => "summary",
            MemoryKind::Stats => "stats",
            MemoryKind::Profile => "profile",
            MemoryKind::Turn => "turn",
        }
    }

    pub fn parse(s: &str) -> Option<MemoryKind> {
        [MemoryKind::Summary, MemoryKind::Stats, MemoryKind::Profile, MemoryKind::Turn]
            .into_iter()
            .find(|k| k.as_str() == s)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryItem {
    /// Stable id; writing the same id again replaces the memory.
    pub id: String,
    pub namespace: String,
    pub kind: MemoryKind,
    pub text: String,
    pub updated_ms: i64,
}

/// The memory namespace of a player (player ids carry their platform).
pub fn player_namespace(player: &Player) -> String {
    format!("player:{}", player.id)
}

#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum MemoryError {
    #[error("embedding failed: {0}")]
    Embed(String),
    #[error("memory store failed: {0}")]
    Store(String),
}

#[async_trait]
pub trait Memory: Send + Sync {
    /// Writes (or replaces, by id) memories.
    async fn put(&self, items: &[MemoryItem]) -> Result<(), MemoryError>;

    /// Up to `k` memories from these namespaces, most relevant to `query` first.
    async fn recall(&self, namespaces: &[String], query: &str, k: usize) -> Result<Vec<MemoryItem>, MemoryError>;

    /// Everything in one namespace, newest first.
    async fn list(&self, namespace: &str) -> Result<Vec<MemoryItem>, MemoryError>;

    /// Erases a namespace; returns how many memories were removed.
    async fn forget(&self, namespace: &str) -> Result<usize, MemoryError>;
}
