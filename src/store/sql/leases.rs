//! `Leases` on SQL: which process runs a session's actor (`session_leases`)
//! and the inputs handed over to it (`handoff`). Both backends take the
//! same statements but for `hand_off`, which on PostgreSQL also notifies
//! the holder (`listen.rs`). The lease check inside a commit stays with
//! `commit_turn` in `sql.rs`: one transaction writes the turn.

use async_trait::async_trait;
use sqlx::Row;

use super::{SqlStore, db};
use crate::core::store::{Handed, Lease, Leases, StoreError};
use crate::store::Backend;

#[async_trait]
impl Leases for SqlStore {
    async fn claim_lease(
        &self,
        session_id: &str,
        owner: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<Lease, StoreError> {
        // One statement: two processes claiming at once are ordered by the
        // row's lock (PostgreSQL) or the single writer (SQLite). A holder
        // that releases between the two statements frees the row: try again.
        for _ in 0..3 {
            let taken = sqlx::query(
                "INSERT INTO session_leases (session_id, owner, expires_ms) VALUES ($1, $2, $3)
                 ON CONFLICT (session_id) DO UPDATE SET owner = excluded.owner, expires_ms = excluded.expires_ms
                 WHERE session_leases.owner = excluded.owner OR session_leases.expires_ms < $4",
            )
            .bind(session_id)
            .bind(owner)
            .bind(until_ms)
            .bind(now_ms)
            .execute(&self.writer)
            .await
            .map_err(db)?;
            if taken.rows_affected() > 0 {
                return Ok(Lease::Held);
            }
            let row = sqlx::query("SELECT owner, expires_ms FROM session_leases WHERE session_id = $1")
                .bind(session_id)
                .fetch_optional(&self.writer)
                .await
                .map_err(db)?;
            if let Some(row) = row {
                let owner = row.try_get("owner").map_err(db)?;
                return Ok(Lease::HeldBy { owner, until_ms: row.try_get("expires_ms").map_err(db)? });
            }
        }
        Err(StoreError::Database(format!("the lease on session {session_id:?} keeps changing hands")))
    }

    async fn release_lease(&self, session_id: &str, owner: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM session_leases WHERE session_id = $1 AND owner = $2")
            .bind(session_id)
            .bind(owner)
            .execute(&self.writer)
            .await
            .map_err(db)?;
        Ok(())
    }

    async fn hand_off(&self, handed: &Handed, now_ms: i64) -> Result<bool, StoreError> {
        if self.backend == Backend::Postgres {
            // The holder is told in the same statement: a notification is
            // sent when the row is committed, and only if it was written.
            let told: i64 = sqlx::query_scalar(
                "WITH ins AS (
                     INSERT INTO handoff (session_id, event_id, inbound, created_ms) VALUES ($1, $2, $3, $4)
                     ON CONFLICT (session_id, event_id) DO NOTHING RETURNING session_id)
                 SELECT count(pg_notify('echoes_handoff', COALESCE(l.owner, ''))::text) FROM ins
                 LEFT JOIN session_leases l ON l.session_id = ins.session_id",
            )
            .bind(&handed.session_id)
            .bind(&handed.event_id)
            .bind(&handed.inbound)
            .bind(now_ms)
            .fetch_one(&self.writer)
            .await
            .map_err(db)?;
            return Ok(told > 0);
        }
        let done = sqlx::query(
            "INSERT INTO handoff (session_id, event_id, inbound, created_ms) VALUES ($1, $2, $3, $4)
             ON CONFLICT (session_id, event_id) DO NOTHING",
        )
        .bind(&handed.session_id)
        .bind(&handed.event_id)
        .bind(&handed.inbound)
        .bind(now_ms)
        .execute(&self.writer)
        .await
        .map_err(db)?;
        Ok(done.rows_affected() > 0)
    }

    async fn handed_to(&self, session_id: &str) -> Result<Vec<Handed>, StoreError> {
        let rows = sqlx::query(
            "SELECT session_id, event_id, inbound FROM handoff WHERE session_id = $1 ORDER BY created_ms, event_id",
        )
        .bind(session_id)
        .fetch_all(&self.writer)
        .await
        .map_err(db)?;
        rows.iter().map(handed_row).collect()
    }

    async fn handed(&self, owner: &str, now_ms: i64, limit: u32) -> Result<Vec<Handed>, StoreError> {
        let rows = sqlx::query(
            "SELECT h.session_id, h.event_id, h.inbound FROM handoff h
             LEFT JOIN session_leases l ON l.session_id = h.session_id
             WHERE l.owner = $1 OR l.expires_ms < $2 OR l.session_id IS NULL
             ORDER BY h.created_ms, h.event_id LIMIT $3",
        )
        .bind(owner)
        .bind(now_ms)
        .bind(i64::from(limit))
        .fetch_all(&self.writer)
        .await
        .map_err(db)?;
        rows.iter().map(handed_row).collect()
    }

    async fn handoff_signals(&self, owner: &str) -> Result<Option<tokio::sync::mpsc::Receiver<()>>, StoreError> {
        let Some(url) = &self.listen_url else { return Ok(None) };
        crate::store::listen::handoff_signals(url, owner).await.map(Some)
    }

    async fn drop_handed(&self, session_id: &str, event_id: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM handoff WHERE session_id = $1 AND event_id = $2")
            .bind(session_id)
            .bind(event_id)
            .execute(&self.writer)
            .await
            .map_err(db)?;
        Ok(())
    }
}

fn handed_row(r: &sqlx::any::AnyRow) -> Result<Handed, StoreError> {
    Ok(Handed {
        session_id: r.try_get("session_id").map_err(db)?,
        event_id: r.try_get("event_id").map_err(db)?,
        inbound: r.try_get("inbound").map_err(db)?,
    })
}
