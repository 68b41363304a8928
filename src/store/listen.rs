//! PostgreSQL's `LISTEN/NOTIFY` for hand-overs. `Leases::hand_off` queues
//! an input and, in the same statement, notifies channel `echoes_handoff`
//! with the session's lease holder as payload (empty when nobody holds
//! it); the notification goes out when that row is committed. Each process
//! listens on one connection of its own and wakes its poller
//! (`Engine::poll_handoffs`) for its own sessions only.

use std::time::Duration;

use sqlx::postgres::PgListener;
use tokio::sync::mpsc;

use super::sql::db;
use crate::core::store::StoreError;

/// The channel hand-overs are announced on.
pub const CHANNEL: &str = "echoes_handoff";

/// Listens for `owner`'s hand-overs until the receiver is dropped.
pub(super) async fn handoff_signals(url: &str, owner: &str) -> Result<mpsc::Receiver<()>, StoreError> {
    let mut listener = PgListener::connect(url).await.map_err(db)?;
    listener.listen(CHANNEL).await.map_err(db)?;
    // One slot: a wake-up already waiting covers every later one.
    let (tx, rx) = mpsc::channel(1);
    let owner = owner.to_string();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                () = tx.closed() => return,
                got = listener.recv() => match got {
                    Ok(note) if note.payload().is_empty() || note.payload() == owner => {
                        let _ = tx.try_send(());
                    }
                    Ok(_) => {}
                    Err(e) => {
                        // The listener reconnects on its next call; what was
                        // announced meanwhile is lost, so the poller looks now.
                        tracing::warn!(error = %e, "the hand-over listener lost its connection; reconnecting");
                        let _ = tx.try_send(());
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
        }
    });
    Ok(rx)
}
