//! Delivery by audience, the same for every front end (the terminal,
//! Discord, Slack): the outbox rows a stop left unshown and their split by
//! audience, marking a row sent once it is shown, who reads a message at a
//! table its one human hosts, and a courier that queues the replies of
//! turns nobody typed for a front end's own loop.
//!
//! Platform-free like the rest of `bot`, and it shows nothing itself: a
//! front end prints or posts each row, then says so here.

use tokio::sync::mpsc;

use crate::core::actor::{Courier, Delivery, Engine, EngineError};
use crate::core::game::Audience;
use crate::core::store::{OutboxItem, Store, StoreError};
use crate::core::vocab::Player;

/// The rows of a session committed but never shown (a restart, a holder
/// that died), in the order they were committed; none while another live
/// process holds the session (its courier shows them).
pub async fn left_unsent(engine: &Engine, session_id: &str) -> Result<Vec<OutboxItem>, EngineError> {
    engine.unsent_if_held(session_id).await
}

/// Splits rows into those the place of play shows to everyone and those
/// for one seat or the moderators, which are never posted there.
pub fn by_audience(items: Vec<OutboxItem>) -> (Vec<OutboxItem>, Vec<OutboxItem>) {
    items.into_iter().partition(|item| !item.audience.is_private())
}

/// An outbox row (`OutboxItem::id`) has been shown, or passed over where
/// its reader is not: marked sent, so no resume shows it again.
pub async fn shown(store: &dyn Store, outbox_id: i64) -> Result<(), StoreError> {
    store.mark_sent(outbox_id).await
}

/// Whether the one human at a table they run themselves (the terminal)
/// reads a message for `audience`: everyone's, the moderators' (they are
/// the moderator), and their own seat's; never another seat's.
pub fn host_reads(audience: &Audience, me: &Player) -> bool {
    match audience {
        Audience::Everyone | Audience::Moderators => true,
        Audience::Seat(id) => *id == me.id,
    }
}

/// Queues the replies of turns nobody typed (an AI seat's move, a
/// deadline) for a front end that shows them in its own loop, between the
/// lines it reads (the terminal). The loop marks them delivered as it
/// shows them, like any other reply.
pub struct QueueCourier(pub mpsc::UnboundedSender<Delivery>);

impl Courier for QueueCourier {
    fn deliver(&self, _session_id: &str, delivery: Delivery) {
        // A closed queue: the loop ended; the row stays unsent for a resume.
        let _ = self.0.send(delivery);
    }
}

#[cfg(test)]
mod tests;
