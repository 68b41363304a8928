//! The engine's error for opening, resuming and playing a session.

use crate::core::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("the session has stopped")]
    Stopped,
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("puzzle {0:?} is not available")]
    UnknownPuzzle(String),
    #[error("cannot resume the session: {0}")]
    Resume(String),
}
