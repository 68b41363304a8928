//! `MemoryRecord` for `SqlStore`: player memory's change feed
//! (`migrations/0008_memory_feed.sql`). Writers take the feed's lock on
//! PostgreSQL (SQLite has one writer already), so sequence numbers are
//! committed in order and a follower reading "after 41" never skips a row
//! that a slower transaction commits later with 40.

use async_trait::async_trait;
use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::{SqlStore, db};
use crate::core::memory::{MemoryItem, MemoryKind};
use crate::core::store::{MemoryChange, MemoryOp, MemoryRecord, StoreError};
use crate::store::Backend;
use crate::store::listen::MEMORY_CHANNEL;

const PUT: &str = "put";
const FORGET: &str = "forget";

impl SqlStore {
    /// Begins a write to the feed: on PostgreSQL it holds the feed's lock
    /// until commit, so commits follow sequence order.
    async fn feed_writer(&self) -> Result<Transaction<'static, Any>, StoreError> {
        let mut tx = self.writer.begin().await.map_err(db)?;
        if self.backend == Backend::Postgres {
            sqlx::query("LOCK TABLE memory_feed IN EXCLUSIVE MODE").execute(&mut *tx).await.map_err(db)?;
        }
        Ok(tx)
    }

    /// Tells every process's follower, once the transaction commits.
    async fn announce(&self, tx: &mut Transaction<'static, Any>) -> Result<(), StoreError> {
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT pg_notify($1, '')").bind(MEMORY_CHANNEL).execute(&mut **tx).await.map_err(db)?;
        }
        Ok(())
    }
}

#[async_trait]
impl MemoryRecord for SqlStore {
    async fn record_memories(&self, items: &[MemoryItem]) -> Result<(), StoreError> {
        if items.is_empty() {
            return Ok(());
        }
        let mut tx = self.feed_writer().await?;
        for m in items {
            sqlx::query("DELETE FROM memory_feed WHERE op = $1 AND item_id = $2")
                .bind(PUT)
                .bind(&m.id)
                .execute(&mut *tx)
                .await
                .map_err(db)?;
            sqlx::query(
                "INSERT INTO memory_feed (op, item_id, namespace, kind, text, updated_ms)
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(PUT)
            .bind(&m.id)
            .bind(&m.namespace)
            .bind(m.kind.as_str())
            .bind(&m.text)
            .bind(m.updated_ms)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
        }
        self.announce(&mut tx).await?;
        tx.commit().await.map_err(db)
    }

    async fn record_forget(&self, namespace: &str, at_ms: i64) -> Result<usize, StoreError> {
        let mut tx = self.feed_writer().await?;
        let held: i64 = sqlx::query("SELECT COUNT(*) AS n FROM memory_feed WHERE op = $1 AND namespace = $2")
            .bind(PUT)
            .bind(namespace)
            .fetch_one(&mut *tx)
            .await
            .map_err(db)?
            .try_get("n")
            .map_err(db)?;
        sqlx::query("DELETE FROM memory_feed WHERE namespace = $1")
            .bind(namespace)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
        sqlx::query(
            "INSERT INTO memory_feed (op, item_id, namespace, kind, text, updated_ms) VALUES ($1, '', $2, '', '', $3)",
        )
        .bind(FORGET)
        .bind(namespace)
        .bind(at_ms)
        .execute(&mut *tx)
        .await
        .map_err(db)?;
        self.announce(&mut tx).await?;
        tx.commit().await.map_err(db)?;
        Ok(held as usize)
    }

    async fn memory_changes(&self, after: i64, limit: u32) -> Result<Vec<MemoryChange>, StoreError> {
        let rows = sqlx::query(
            "SELECT seq, op, item_id, namespace, kind, text, updated_ms FROM memory_feed
             WHERE seq > $1 ORDER BY seq LIMIT $2",
        )
        .bind(after)
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await
        .map_err(db)?;
        rows.iter().map(change).collect()
    }

    async fn memory_signals(&self) -> Result<Option<tokio::sync::mpsc::Receiver<()>>, StoreError> {
        let Some(url) = &self.listen_url else { return Ok(None) };
        crate::store::listen::memory_signals(url).await.map(Some)
    }
}

fn change(row: &AnyRow) -> Result<MemoryChange, StoreError> {
    let seq: i64 = row.try_get("seq").map_err(db)?;
    let op: String = row.try_get("op").map_err(db)?;
    let namespace: String = row.try_get("namespace").map_err(db)?;
    let op = match op.as_str() {
        PUT => {
            let kind: String = row.try_get("kind").map_err(db)?;
            MemoryOp::Put(MemoryItem {
                id: row.try_get("item_id").map_err(db)?,
                namespace,
                kind: MemoryKind::parse(&kind)
                    .ok_or_else(|| StoreError::Corrupt(format!("memory_feed {seq}: unknown kind {kind:?}")))?,
                text: row.try_get("text").map_err(db)?,
                updated_ms: row.try_get("updated_ms").map_err(db)?,
            })
        }
        FORGET => MemoryOp::Forget { namespace },
        other => return Err(StoreError::Corrupt(format!("memory_feed {seq}: unknown op {other:?}"))),
    };
    Ok(MemoryChange { seq, op })
}
