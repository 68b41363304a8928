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

impl EngineError {
    /// The database is away: the input was not played and may be sent
    /// again in a moment.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, EngineError::Store(e) if e.is_unavailable())
    }
}

/// Whether a failure anywhere in `error`'s chain is the database being
/// away (`StoreError::Unavailable`, also inside an `EngineError`): the
/// front ends answer it with "try again in a moment".
pub fn database_away(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut at = Some(error);
    while let Some(e) = at {
        if e.downcast_ref::<StoreError>().is_some_and(StoreError::is_unavailable)
            || e.downcast_ref::<EngineError>().is_some_and(EngineError::is_unavailable)
        {
            return true;
        }
        at = e.source();
    }
    false
}
