//! What a front end hands a session: one `Inbound` (who, what, the
//! platform's event id), and the player the engine's own inputs are
//! recorded under.

use std::sync::Arc;

use crate::core::services::Progress;
use crate::core::vocab::Player;

use super::TurnInput;

/// One input for a session, as a front end delivers it.
pub struct Inbound {
    /// The platform's id for this event; repeated ids are answered from the record.
    pub event_id: Option<String>,
    pub player: Player,
    pub input: TurnInput,
    pub progress: Option<Arc<dyn Fn(Progress) + Send + Sync>>,
    /// The sender is a moderator of the scope (may start a lobby early).
    pub moderator: bool,
}

impl Inbound {
    pub fn new(player: Player, input: TurnInput) -> Self {
        Inbound { event_id: None, player, input, progress: None, moderator: false }
    }

    pub fn with_event(mut self, event_id: impl Into<String>) -> Self {
        self.event_id = Some(event_id.into());
        self
    }
}

/// The player the engine's own inputs (timers) are recorded under.
pub fn engine_player() -> Player {
    Player { id: "engine:timer".into(), name: "⏱".into() }
}
