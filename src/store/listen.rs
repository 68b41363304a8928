//! PostgreSQL's `LISTEN/NOTIFY`, for hand-overs and memory's record.
//! `Leases::hand_off` queues an input and, in the same statement, notifies
//! channel `echoes_handoff` with the session's lease holder as payload
//! (empty when nobody holds it); the notification goes out when that row
//! is committed. Each process listens on one connection of its own and
//! wakes its poller (`Engine::poll_handoffs`) for its own sessions only.
//! `MemoryRecord`'s writes notify `echoes_memory` (no payload), waking
//! every process's memory follower (`SharedMemory::follow`).

use std::time::Duration;

use sqlx::postgres::PgListener;
use tokio::sync::mpsc;

use super::errors::db;
use crate::core::store::StoreError;

/// The channel hand-overs are announced on.
pub const CHANNEL: &str = "echoes_handoff";
/// The channel memory's record announces its changes on.
pub const MEMORY_CHANNEL: &str = "echoes_memory";

/// Listens for `owner`'s hand-overs until the receiver is dropped.
pub(super) async fn handoff_signals(url: &str, owner: &str) -> Result<mpsc::Receiver<()>, StoreError> {
    signals(url, CHANNEL, Some(owner)).await
}

/// Listens for changes to memory's record until the receiver is dropped.
pub(super) async fn memory_signals(url: &str) -> Result<mpsc::Receiver<()>, StoreError> {
    signals(url, MEMORY_CHANNEL, None).await
}

/// Notifications on `channel` (for `owner` only, or with an empty payload,
/// when given) as wake-ups.
async fn signals(url: &str, channel: &str, owner: Option<&str>) -> Result<mpsc::Receiver<()>, StoreError> {
    let mut listener = PgListener::connect(url).await.map_err(db)?;
    listener.listen(channel).await.map_err(db)?;
    // One slot: a wake-up already waiting covers every later one.
    let (tx, rx) = mpsc::channel(1);
    let listener_channel = channel.to_string();
    let owner = owner.map(str::to_string);
    tokio::spawn(async move {
        loop {
            tokio::select! {
                () = tx.closed() => return,
                got = listener.recv() => match got {
                    Ok(note) if owner.as_deref().is_none_or(|o| note.payload().is_empty() || note.payload() == o) => {
                        let _ = tx.try_send(());
                    }
                    Ok(_) => {}
                    Err(e) => {
                        // The listener reconnects on its next call; what was
                        // announced meanwhile is lost, so the poller looks now.
                        tracing::warn!(error = %e, channel = %listener_channel, "a listener lost its connection; reconnecting");
                        let _ = tx.try_send(());
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
        }
    });
    Ok(rx)
}
