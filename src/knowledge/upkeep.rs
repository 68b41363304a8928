//! A LanceDB table's upkeep. Every write adds a file and a version, and a
//! table written a few rows at a time (a memory per game, one puzzle's
//! prepared vectors, a sync's batches) is searched slower with each file:
//! a query opens every one. `Upkeep` merges a table's small files after
//! every `COMPACT_AFTER` writes, and when a process opens a table that
//! already has that many, in the background; then it prunes versions older
//! than `KEEP_VERSIONS`. Writes and a merge take turns (one gate per
//! table), so they never race to commit.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use lancedb::Table;
use lancedb::table::optimize::Duration as LanceDuration;
use lancedb::table::{CompactionOptions, OptimizeAction, OptimizeStats};
use tokio::sync::Mutex;
use tokio::task::JoinHandle;

/// Writes (or small files found on opening) before the files are merged.
/// LanceDB suggests optimising after about 20 writes. Measured with
/// `echoes bench upkeep` (384 dimensions, two cores): a filtered top-5
/// query takes 12 ms over 50 one-row files, 32 ms over 200, 307 ms over
/// 2,000, and 2 to 4 ms once merged; merging 50 takes 15 ms.
pub const COMPACT_AFTER: usize = 50;

/// Versions younger than this are kept: a process sharing the directory
/// may still be reading one (a handle reads the version it last saw), and
/// LanceDB keeps files that young anyway unless told they are unused.
pub const KEEP_VERSIONS_DAYS: i64 = 7;

pub struct Upkeep {
    table: Table,
    /// Writes since the last merge began.
    writes: AtomicUsize,
    /// Held by each write and by a merge.
    gate: Arc<Mutex<()>>,
    /// The latest merge started in the background.
    running: std::sync::Mutex<Option<JoinHandle<()>>>,
}

impl Upkeep {
    /// Tends `table`; merges its files now, in the background, when it
    /// already has `COMPACT_AFTER` small ones.
    pub async fn open(table: &Table) -> Upkeep {
        let upkeep = Upkeep {
            table: table.clone(),
            writes: AtomicUsize::new(0),
            gate: Arc::default(),
            running: std::sync::Mutex::new(None),
        };
        match table.stats().await {
            Ok(stats) if stats.fragment_stats.num_small_fragments >= COMPACT_AFTER => upkeep.start(),
            Ok(_) => {}
            Err(e) => tracing::warn!(table = table.name(), error = %e, "table statistics unreadable"),
        }
        upkeep
    }

    /// Runs one write to the table (its turn at the gate), counting it.
    pub async fn write<T>(&self, write: impl Future<Output = lancedb::Result<T>>) -> lancedb::Result<T> {
        let out = {
            let _turn = self.gate.lock().await;
            write.await
        };
        if out.is_ok() && self.writes.fetch_add(1, Ordering::Relaxed) + 1 >= COMPACT_AFTER {
            self.start();
        }
        out
    }

    /// Waits for the merge started in the background, if one is.
    pub async fn settle(&self) {
        let running = self.running.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(task) = running {
            let _ = task.await;
        }
    }

    /// Starts a merge in the background.
    fn start(&self) {
        self.writes.store(0, Ordering::Relaxed);
        let (table, gate) = (self.table.clone(), self.gate.clone());
        let task = tokio::spawn(async move {
            let _turn = gate.lock().await;
            match compact(&table).await {
                Ok(stats) => tracing::debug!(table = table.name(), ?stats, "table compacted"),
                Err(e) => tracing::warn!(table = table.name(), error = %e, "table not compacted; trying again later"),
            }
        });
        // An earlier merge still running holds or waits for the gate; this
        // one runs after it.
        self.running.lock().unwrap_or_else(|e| e.into_inner()).replace(task);
    }
}

async fn compact(table: &Table) -> lancedb::Result<OptimizeStats> {
    let merged =
        table.optimize(OptimizeAction::Compact { options: CompactionOptions::default(), remap_options: None }).await?;
    let pruned = table
        .optimize(OptimizeAction::Prune {
            older_than: LanceDuration::try_days(KEEP_VERSIONS_DAYS),
            delete_unverified: None,
            error_if_tagged_old_versions: None,
        })
        .await?;
    Ok(OptimizeStats { compaction: merged.compaction, prune: pruned.prune })
}

#[cfg(test)]
mod tests;
