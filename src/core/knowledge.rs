//! Puzzle knowledge as typed documents, and the one rule that decides which
//! agent role may read which document.
//!
//! Retrieval always takes a `Role`; the visibility filter is applied by the
//! knowledge layer from `Role::may_see`, so no caller can forget it and no
//! API retrieves without a role.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

/// Who is asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Holds the answer; may read everything.
    Judge,
    /// Writes remarks players read; public documents only.
    Narrator,
    /// Serves hints; public documents and stored hints.
    HintMaster,
    /// An AI player at the table; exactly what a human player may know.
    PlayerAgent,
}

/// Who may read a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    Public,
    Hint,
    Judge,
}

impl Visibility {
    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::Public => "public",
            Visibility::Hint => "hint",
            Visibility::Judge => "judge",
        }
    }

    pub fn parse(s: &str) -> Option<Visibility> {
        match s {
            "public" => Some(Visibility::Public),
            "hint" => Some(Visibility::Hint),
            "judge" => Some(Visibility::Judge),
            _ => None,
        }
    }
}

impl Role {
    /// The single source of the visibility rule.
    pub fn may_see(self) -> &'static [Visibility] {
        match self {
            Role::Judge => &[Visibility::Public, Visibility::Hint, Visibility::Judge],
            Role::HintMaster => &[Visibility::Public, Visibility::Hint],
            Role::Narrator | Role::PlayerAgent => &[Visibility::Public],
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Judge => "judge",
            Role::Narrator => "narrator",
            Role::HintMaster => "hint_master",
            Role::PlayerAgent => "player_agent",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DocKind {
    Surface,
    Bottom,
    Fact,
    Hint,
    Lore,
}

impl DocKind {
    pub fn as_str(self) -> &'static str {
        match self {
            DocKind::Surface => "surface",
            DocKind::Bottom => "bottom",
            DocKind::Fact => "fact",
            DocKind::Hint => "hint",
            DocKind::Lore => "lore",
        }
    }

    pub fn parse(s: &str) -> Option<DocKind> {
        [DocKind::Surface, DocKind::Bottom, DocKind::Fact, DocKind::Hint, DocKind::Lore]
            .into_iter()
            .find(|k| k.as_str() == s)
    }
}

/// One retrievable piece of a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Doc {
    /// Stable id: `<puzzle id>#<kind>[-<n>]`, the upsert key.
    pub id: String,
    pub puzzle_id: String,
    pub kind: DocKind,
    pub visibility: Visibility,
    pub language: String,
    pub text: String,
}

/// A retrieved document and its similarity to the query (higher is closer).
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub doc: Doc,
    pub score: f32,
}

#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum KnowledgeError {
    #[error("embedding failed: {0}")]
    Embed(String),
    #[error("knowledge store failed: {0}")]
    Store(String),
}

/// What a sync did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SyncReport {
    pub documents: usize,
    /// Documents whose text changed (or were new) and were embedded again.
    pub embedded: usize,
    pub removed: usize,
}

#[async_trait]
pub trait Knowledge: Send + Sync {
    /// Makes the index hold exactly these documents (puzzles', from
    /// `soup::puzzle::puzzle_docs`, and worlds' lore); unchanged documents are not
    /// embedded again.
    async fn sync(&self, docs: &[Doc]) -> Result<SyncReport, KnowledgeError>;

    /// The `k` documents of one corpus (a puzzle, or a world:
    /// `world:<id>`) closest to `query` among those `role` may see.
    async fn retrieve(&self, role: Role, puzzle_id: &str, query: &str, k: usize) -> Result<Vec<Hit>, KnowledgeError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_judge_sees_judge_documents() {
        for role in [Role::Narrator, Role::PlayerAgent, Role::HintMaster] {
            assert!(!role.may_see().contains(&Visibility::Judge), "{role:?}");
        }
        assert!(Role::Judge.may_see().contains(&Visibility::Judge));
        assert!(!Role::PlayerAgent.may_see().contains(&Visibility::Hint));
    }
}
