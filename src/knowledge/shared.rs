//! `SharedMemory`: player memory shared by every bot process. SQL's change
//! feed (`MemoryRecord`) is the record; this process's LanceDB table is an
//! index that follows it. A write goes to the record first, then the index
//! catches up; every read catches up first, so a process recalls what any
//! other process learned, and a namespace erased anywhere is erased here.
//! A follower task keeps the index warm between reads: woken by
//! PostgreSQL's `LISTEN/NOTIFY`, polling on SQLite.
//!
//! How far the index has followed is kept beside it (`memory_feed.seq` in
//! the vector directory), written after the index, so a crash between the
//! two only applies some changes again (writes replace by id, erasing is
//! idempotent). `rebuild` empties the index and follows the record from
//! its start: `echoes knowledge rebuild` and a changed embedder use it.

use std::path::PathBuf;
use std::sync::{Arc, Weak};
use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::Mutex;

use super::LanceMemory;
use crate::core::memory::{Memory, MemoryError, MemoryItem};
use crate::core::store::{MemoryOp, Store, StoreError};

/// Changes read from the record at a time.
const PAGE: u32 = 256;
/// How often a follower looks without a signal: SQLite's poll, and
/// PostgreSQL's fallback for a notification lost across a reconnect.
pub const POLL_SQLITE: Duration = Duration::from_millis(250);
pub const POLL_WITH_SIGNALS: Duration = Duration::from_secs(5);

pub struct SharedMemory {
    store: Arc<dyn Store>,
    index: Arc<LanceMemory>,
    /// The last change applied to the index; held while catching up, so
    /// one task applies at a time.
    applied: Mutex<i64>,
    mark: Option<PathBuf>,
}

fn record_err(e: StoreError) -> MemoryError {
    MemoryError::Store(e.to_string())
}

impl SharedMemory {
    /// Follows `store`'s record into `index` from where `mark` (a file)
    /// says it got to; without one, from the start.
    pub fn new(store: Arc<dyn Store>, index: Arc<LanceMemory>, mark: Option<PathBuf>) -> SharedMemory {
        let applied = mark
            .as_ref()
            .and_then(|m| std::fs::read_to_string(m).ok())
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0);
        SharedMemory { store, index, applied: Mutex::new(applied), mark }
    }

    /// This process's index (what it has applied so far, without catching up).
    pub fn index(&self) -> &LanceMemory {
        &self.index
    }

    /// Applies every change committed since the last one applied; how many.
    pub async fn catch_up(&self) -> Result<usize, MemoryError> {
        let mut applied = self.applied.lock().await;
        let mut count = 0;
        loop {
            let changes = self.store.memory_changes(*applied, PAGE).await.map_err(record_err)?;
            let Some(last) = changes.last().map(|c| c.seq) else { break };
            let mut puts: Vec<MemoryItem> = Vec::new();
            for change in changes {
                match change.op {
                    MemoryOp::Put(item) => puts.push(item),
                    MemoryOp::Forget { namespace } => {
                        // Writes before the erase land first, then are erased.
                        if !puts.is_empty() {
                            self.index.put(&std::mem::take(&mut puts)).await?;
                        }
                        self.index.forget(&namespace).await?;
                    }
                }
                count += 1;
            }
            if !puts.is_empty() {
                self.index.put(&puts).await?;
            }
            *applied = last;
            self.save_mark(last);
        }
        Ok(count)
    }

    /// Empties the index and follows the record from its start; how many
    /// memories the index then holds.
    pub async fn rebuild(&self) -> Result<usize, MemoryError> {
        {
            let mut applied = self.applied.lock().await;
            self.index.clear().await?;
            *applied = 0;
            self.save_mark(0);
        }
        let mut held = 0;
        let mut after = 0;
        loop {
            let changes = self.store.memory_changes(after, PAGE).await.map_err(record_err)?;
            let Some(last) = changes.last().map(|c| c.seq) else { break };
            held += changes.iter().filter(|c| matches!(c.op, MemoryOp::Put(_))).count();
            after = last;
        }
        self.catch_up().await?;
        Ok(held)
    }

    /// Whether the record holds no change at all (a new database, or one
    /// from before the record: memory is then written from the games).
    pub async fn record_is_empty(&self) -> Result<bool, MemoryError> {
        Ok(self.store.memory_changes(0, 1).await.map_err(record_err)?.is_empty())
    }

    /// Keeps the index following the record until `self` is dropped: woken
    /// by the database where it can tell (PostgreSQL), else polling.
    pub async fn follow(self: &Arc<Self>) {
        let signals = match self.store.memory_signals().await {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!(error = %e, "memory's record cannot notify; polling it");
                None
            }
        };
        let every = if signals.is_some() { POLL_WITH_SIGNALS } else { POLL_SQLITE };
        let me: Weak<SharedMemory> = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut signals = signals;
            loop {
                match signals.as_mut() {
                    Some(rx) => {
                        tokio::select! {
                            got = rx.recv() => if got.is_none() { signals = None },
                            () = tokio::time::sleep(every) => {}
                        }
                    }
                    None => tokio::time::sleep(every).await,
                }
                let Some(me) = me.upgrade() else { return };
                if let Err(e) = me.catch_up().await {
                    tracing::warn!(error = %e, "memory index could not catch up; trying again");
                }
            }
        });
    }

    fn save_mark(&self, seq: i64) {
        if let Some(mark) = &self.mark
            && let Err(e) = std::fs::write(mark, seq.to_string())
        {
            tracing::warn!(error = %e, path = %mark.display(), "could not keep how far memory followed");
        }
    }
}

#[async_trait]
impl Memory for SharedMemory {
    async fn put(&self, items: &[MemoryItem]) -> Result<(), MemoryError> {
        self.store.record_memories(items).await.map_err(record_err)?;
        self.catch_up().await.map(drop)
    }

    async fn recall(&self, namespaces: &[String], query: &str, k: usize) -> Result<Vec<MemoryItem>, MemoryError> {
        self.catch_up().await?;
        self.index.recall(namespaces, query, k).await
    }

    async fn list(&self, namespace: &str) -> Result<Vec<MemoryItem>, MemoryError> {
        self.catch_up().await?;
        self.index.list(namespace).await
    }

    async fn forget(&self, namespace: &str) -> Result<usize, MemoryError> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        let erased = self.store.record_forget(namespace, now).await.map_err(record_err)?;
        self.catch_up().await?;
        Ok(erased)
    }
}
