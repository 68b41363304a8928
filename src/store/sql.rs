//! `Store` on SQL through sqlx's `Any` driver: one implementation for
//! SQLite and PostgreSQL. The SQL is portable (numbered `$N` parameters,
//! which both take; `ON CONFLICT`, `RETURNING`); where a backend needs its
//! own, `open.rs` says so. Which database and how it is opened: `open.rs`.
//! The port's three concerns, one file each: the session record here
//! (sessions, turns, inbox, outbox), `leases.rs` (leases and hand-over
//! between processes), `stats.rs` (boards and players' records).

use async_trait::async_trait;
use sqlx::AnyPool;
use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::database::Backend;
pub(super) use super::errors::db;
use crate::core::game::record::{Intent, Verdict};
use crate::core::game::{Audience, Reply, ReplyKind, Snapshot};
use crate::core::prompts::PublicTurn;
use crate::core::store::{
    Committed, CustomPuzzle, LoadedSession, NewSession, OutboxItem, SessionRecord, SessionSummary, StoreError,
    StoredTurn, TurnCommit,
};
use crate::core::vocab::Player;

mod leases;
mod memory;
mod stats;

/// The games' database: sessions, turns, inbox, outbox, scores, and (in
/// `guild.rs`) servers' settings and bindings.
#[derive(Clone)]
pub struct SqlStore {
    /// Every write goes through it. On SQLite a pool of exactly one
    /// connection, so its single writer never meets a second one
    /// mid-transaction (no SQLITE_BUSY upgrade deadlocks).
    pub(super) writer: AnyPool,
    /// Reads; on SQLite their own small pool, which WAL lets run beside the
    /// writer; on PostgreSQL the same pool as the writer.
    pub(super) reader: AnyPool,
    pub(super) backend: Backend,
    /// The migrations opening this store applied (`echoes db migrate`).
    pub(super) migrated: Vec<i64>,
    /// PostgreSQL's URL, for the connection that listens for hand-overs.
    pub(super) listen_url: Option<String>,
}

impl SqlStore {
    /// Which database this store writes to.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The writer and reader pools, for sibling adapters (`guild.rs`).
    pub(super) fn pools(&self) -> (&AnyPool, &AnyPool) {
        (&self.writer, &self.reader)
    }

    /// The versions of the migrations that opening this store applied.
    pub fn migrated_on_open(&self) -> &[i64] {
        &self.migrated
    }

    /// Every session's event ids in the order its turns were applied
    /// (`bench processes`).
    pub async fn event_ids(&self) -> Result<Vec<(String, Vec<String>)>, StoreError> {
        let rows =
            sqlx::query("SELECT session_id, event_id FROM turns WHERE event_id IS NOT NULL ORDER BY session_id, seq")
                .fetch_all(&self.reader)
                .await
                .map_err(db)?;
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        for row in &rows {
            let (session, event): (String, String) =
                (row.try_get("session_id").map_err(db)?, row.try_get("event_id").map_err(db)?);
            match out.last_mut() {
                Some((last, events)) if *last == session => events.push(event),
                _ => out.push((session, vec![event])),
            }
        }
        Ok(out)
    }

    /// The outbox rows of these sessions (`bench crash`).
    pub async fn outbox_ids(&self, sessions: &[&str]) -> Result<Vec<i64>, StoreError> {
        let mut ids = Vec::new();
        for session in sessions {
            let rows: Vec<i64> = sqlx::query_scalar("SELECT id FROM outbox WHERE session_id = $1 ORDER BY id")
                .bind(*session)
                .fetch_all(&self.reader)
                .await
                .map_err(db)?;
            ids.extend(rows);
        }
        Ok(ids)
    }

    /// Turns committed without any outbox row, and outbox rows without
    /// their turn: a turn half written (`bench processes`).
    pub async fn unpaired_turns(&self) -> Result<(i64, i64), StoreError> {
        let turns: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM turns t WHERE NOT EXISTS
             (SELECT 1 FROM outbox o WHERE o.session_id = t.session_id AND o.seq = t.seq)",
        )
        .fetch_one(&self.reader)
        .await
        .map_err(db)?;
        let replies: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM outbox o WHERE NOT EXISTS
             (SELECT 1 FROM turns t WHERE t.session_id = o.session_id AND t.seq = o.seq)",
        )
        .fetch_one(&self.reader)
        .await
        .map_err(db)?;
        Ok((turns, replies))
    }

    /// `bench load`'s floor under a turn: `rows` transactions of one
    /// INSERT (a `body_len`-character row) and a COMMIT each, on the writer
    /// pool with the store's durability, timed one by one. Uses a table of
    /// its own, dropped afterwards.
    pub async fn time_bare_commits(
        &self,
        rows: usize,
        body_len: usize,
    ) -> Result<Vec<std::time::Duration>, StoreError> {
        sqlx::query("CREATE TABLE IF NOT EXISTS bench_bare_commit (n BIGINT NOT NULL, body TEXT NOT NULL)")
            .execute(&self.writer)
            .await
            .map_err(db)?;
        let body = "x".repeat(body_len);
        let mut took = Vec::with_capacity(rows);
        for n in 0..rows {
            let started = std::time::Instant::now();
            let mut tx = self.writer.begin().await.map_err(db)?;
            sqlx::query("INSERT INTO bench_bare_commit (n, body) VALUES ($1, $2)")
                .bind(n as i64)
                .bind(&body)
                .execute(&mut *tx)
                .await
                .map_err(db)?;
            tx.commit().await.map_err(db)?;
            took.push(started.elapsed());
        }
        sqlx::query("DROP TABLE bench_bare_commit").execute(&self.writer).await.map_err(db)?;
        Ok(took)
    }

    /// Closes the pools (a process ending; `echoes db copy` when done).
    pub async fn close(&self) {
        self.writer.close().await;
        self.reader.close().await;
    }
}

pub(super) fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

/// A `custom_puzzles` row (columns scope, id, source, enabled).
pub(super) fn custom_puzzle(r: &AnyRow) -> Result<CustomPuzzle, StoreError> {
    Ok(CustomPuzzle {
        scope: r.try_get("scope").map_err(db)?,
        id: r.try_get("id").map_err(db)?,
        source: r.try_get("source").map_err(db)?,
        enabled: r.try_get::<i64, _>("enabled").map_err(db)? != 0,
    })
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::Corrupt(e.to_string()))
}

fn from_json<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

/// Enum values are stored as their serde names (`"in_progress"`, `"YES"`).
fn enum_text<T: serde::Serialize>(value: &T) -> Result<String, StoreError> {
    Ok(to_json(value)?.trim_matches('"').to_string())
}

fn enum_from<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> Result<T, StoreError> {
    from_json(&format!("\"{text}\""), what)
}

async fn upsert_player(tx: &mut Transaction<'_, Any>, id: &str, name: &str, now: i64) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO players (id, name, first_seen_ms, last_seen_ms) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, last_seen_ms = excluded.last_seen_ms",
    )
    .bind(id)
    .bind(name)
    .bind(now)
    .bind(now)
    .execute(&mut **tx)
    .await
    .map_err(db)?;
    Ok(())
}

async fn next_seq(tx: &mut Transaction<'_, Any>, session_id: &str) -> Result<i64, StoreError> {
    let row = sqlx::query("SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM turns WHERE session_id = $1")
        .bind(session_id)
        .fetch_one(&mut **tx)
        .await
        .map_err(db)?;
    row.try_get("next").map_err(db)
}

async fn insert_turn(tx: &mut Transaction<'_, Any>, t: &TurnCommit<'_>, seq: i64) -> Result<(), StoreError> {
    let r = t.record;
    let intent = r.intent.map(|i| enum_text(&i)).transpose()?;
    let verdict = t.reply.verdict.map(|v| enum_text(&v)).transpose()?;
    sqlx::query(
        "INSERT INTO turns (session_id, seq, event_id, player_id, kind, input, intent, verdict, facts,
            reply_kind, reply, public_outcome, public_text, model_calls, prompt_tokens, completion_tokens,
            judge_parse, created_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)",
    )
    .bind(t.session_id)
    .bind(seq)
    .bind(t.event_id)
    .bind(&t.player.id)
    .bind(t.kind)
    .bind(t.input)
    .bind(intent)
    .bind(verdict)
    .bind(to_json(&r.facts)?)
    .bind(enum_text(&t.reply.kind)?)
    .bind(&t.reply.text)
    .bind(r.public.as_ref().map(|p| p.outcome.clone()))
    .bind(r.public.as_ref().map(|p| p.text.clone()))
    .bind(r.usage.model_calls as i64)
    .bind(r.usage.prompt_tokens as i64)
    .bind(r.usage.completion_tokens as i64)
    .bind(r.usage.judge_parse)
    .bind(t.created_ms)
    .execute(&mut **tx)
    .await
    .map_err(db)?;
    Ok(())
}

async fn update_session(tx: &mut Transaction<'_, Any>, t: &TurnCommit<'_>) -> Result<(), StoreError> {
    match t.next {
        Some(next) => sqlx::query(
            "UPDATE sessions SET phase = $1, questions = $2, snapshot = $3, snapshot_version = $4, deadline_ms = $5,
                    last_activity_ms = $6 WHERE id = $7",
        )
        .bind(&next.phase)
        .bind(next.progress as i64)
        .bind(&next.body)
        .bind(next.version as i64)
        .bind(next.deadline_ms)
        .bind(t.created_ms)
        .bind(t.session_id)
        .execute(&mut **tx)
        .await,
        None => {
            sqlx::query("UPDATE sessions SET last_activity_ms = $1 WHERE id = $2")
                .bind(t.created_ms)
                .bind(t.session_id)
                .execute(&mut **tx)
                .await
        }
    }
    .map_err(db)?;
    Ok(())
}

async fn insert_points(tx: &mut Transaction<'_, Any>, t: &TurnCommit<'_>) -> Result<(), StoreError> {
    for p in t.points {
        upsert_player(tx, &p.player.id, &p.player.name, t.created_ms).await?;
        sqlx::query(
            "INSERT INTO scores (session_id, player_id, points, solved, role, created_ms) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(t.session_id)
        .bind(&p.player.id)
        .bind(p.points as i64)
        .bind(i64::from(p.solved))
        .bind(p.role.as_deref())
        .bind(t.created_ms)
        .execute(&mut **tx)
        .await
        .map_err(db)?;
    }
    Ok(())
}

fn turn_from_row(row: &AnyRow) -> Result<StoredTurn, StoreError> {
    let get_str = |name: &str| row.try_get::<String, _>(name).map_err(db);
    let opt_str = |name: &str| row.try_get::<Option<String>, _>(name).map_err(db);
    let intent: Option<Intent> = opt_str("intent")?.map(|s| enum_from(&s, "intent")).transpose()?;
    let verdict: Option<Verdict> = opt_str("verdict")?.map(|s| enum_from(&s, "verdict")).transpose()?;
    let player = Player { id: get_str("player_id")?, name: get_str("player_name")? };
    let public = opt_str("public_outcome")?.map(|outcome| PublicTurn {
        player: player.name.clone(),
        text: opt_str("public_text").ok().flatten().unwrap_or_default(),
        outcome,
    });
    Ok(StoredTurn {
        seq: row.try_get("seq").map_err(db)?,
        event_id: opt_str("event_id")?,
        kind: get_str("kind")?,
        input: get_str("input")?,
        intent,
        verdict,
        reply: Reply { kind: enum_from(&get_str("reply_kind")?, "reply kind")?, text: get_str("reply")?, verdict },
        public,
        model_calls: row.try_get::<i64, _>("model_calls").map_err(db)? as u32,
        prompt_tokens: row.try_get::<i64, _>("prompt_tokens").map_err(db)? as u32,
        judge_parse: get_str("judge_parse")?,
        created_ms: row.try_get("created_ms").map_err(db)?,
        player,
    })
}

impl SqlStore {
    /// The outbox rows `sql` selects for one session (its one parameter).
    async fn outbox_rows(&self, sql: &'static str, session_id: &str) -> Result<Vec<OutboxItem>, StoreError> {
        let rows = sqlx::query(sql).bind(session_id).fetch_all(&self.writer).await.map_err(db)?;
        rows.iter()
            .map(|row| {
                Ok(OutboxItem {
                    id: row.try_get("id").map_err(db)?,
                    session_id: row.try_get("session_id").map_err(db)?,
                    seq: row.try_get("seq").map_err(db)?,
                    kind: enum_from::<ReplyKind>(&row.try_get::<String, _>("kind").map_err(db)?, "outbox kind")?,
                    body: row.try_get("body").map_err(db)?,
                    audience: audience_from_row(row)?,
                })
            })
            .collect()
    }
}

#[async_trait]
impl SessionRecord for SqlStore {
    async fn create_session(&self, s: &NewSession) -> Result<(), StoreError> {
        let g = &s.snapshot;
        sqlx::query(
            "INSERT INTO sessions (id, puzzle_id, language, channel, canary, phase, questions, snapshot,
                game_kind, snapshot_version, deadline_ms, created_ms, last_activity_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        )
        .bind(&s.id)
        .bind(&s.puzzle_id)
        .bind(s.language.code())
        .bind(&s.channel)
        .bind(&s.canary)
        .bind(&g.phase)
        .bind(g.progress as i64)
        .bind(&g.body)
        .bind(&g.kind)
        .bind(g.version as i64)
        .bind(g.deadline_ms)
        .bind(s.created_ms)
        .bind(s.created_ms)
        .execute(&self.writer)
        .await
        .map_err(db)?;
        Ok(())
    }

    async fn load_session(&self, id: &str) -> Result<Option<LoadedSession>, StoreError> {
        let Some(row) = sqlx::query(
            "SELECT id, puzzle_id, channel, canary, phase, questions, snapshot, game_kind, snapshot_version,
                    deadline_ms, last_activity_ms FROM sessions WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.reader)
        .await
        .map_err(db)?
        else {
            return Ok(None);
        };
        let snapshot = snapshot_from_row(&row)?;
        let turns = sqlx::query(
            "SELECT t.*, p.name AS player_name FROM turns t JOIN players p ON p.id = t.player_id
             WHERE t.session_id = $1 ORDER BY t.seq",
        )
        .bind(id)
        .fetch_all(&self.reader)
        .await
        .map_err(db)?
        .iter()
        .map(turn_from_row)
        .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(LoadedSession {
            id: row.try_get("id").map_err(db)?,
            puzzle_id: row.try_get("puzzle_id").map_err(db)?,
            channel: row.try_get("channel").map_err(db)?,
            canary: row.try_get("canary").map_err(db)?,
            last_activity_ms: row.try_get("last_activity_ms").map_err(db)?,
            snapshot,
            turns,
        }))
    }

    async fn find_event(&self, session_id: &str, event_id: &str) -> Result<Option<Reply>, StoreError> {
        // Read through the writer so a turn committed a moment ago is seen.
        let row = sqlx::query(
            "SELECT t.reply_kind, t.reply, t.verdict FROM inbox i
             JOIN turns t ON t.session_id = i.session_id AND t.seq = i.seq
             WHERE i.session_id = $1 AND i.event_id = $2",
        )
        .bind(session_id)
        .bind(event_id)
        .fetch_optional(&self.writer)
        .await
        .map_err(db)?;
        row.map(|row| {
            let verdict: Option<String> = row.try_get("verdict").map_err(db)?;
            Ok(Reply {
                kind: enum_from(&row.try_get::<String, _>("reply_kind").map_err(db)?, "reply kind")?,
                text: row.try_get("reply").map_err(db)?,
                verdict: verdict.map(|v| enum_from(&v, "verdict")).transpose()?,
            })
        })
        .transpose()
    }

    async fn commit_turn(&self, t: &TurnCommit<'_>) -> Result<Committed, StoreError> {
        let mut tx = self.writer.begin().await.map_err(db)?;
        if let Some(event_id) = t.event_id {
            let seen = sqlx::query("SELECT 1 FROM inbox WHERE session_id = $1 AND event_id = $2")
                .bind(t.session_id)
                .bind(event_id)
                .fetch_optional(&mut *tx)
                .await
                .map_err(db)?;
            if seen.is_some() {
                return Err(StoreError::Duplicate(event_id.to_string()));
            }
        }
        if let Some(lease) = t.lease {
            // Fencing: a process that stalled past its lease's expiry, while
            // another took the session over, must not write a stale turn.
            // A released lease (no row) is taken back.
            let kept = sqlx::query(
                "INSERT INTO session_leases (session_id, owner, expires_ms) VALUES ($1, $2, $3)
                 ON CONFLICT (session_id) DO UPDATE SET expires_ms = excluded.expires_ms
                 WHERE session_leases.owner = excluded.owner",
            )
            .bind(t.session_id)
            .bind(lease.owner)
            .bind(lease.until_ms)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
            if kept.rows_affected() == 0 {
                return Err(StoreError::LeaseLost(t.session_id.to_string()));
            }
        }
        upsert_player(&mut tx, &t.player.id, &t.player.name, t.created_ms).await?;
        let seq = next_seq(&mut tx, t.session_id).await?;
        if let Some(event_id) = t.event_id {
            // The event's row first: a second process committing the same
            // event now (PostgreSQL, several bots) waits here for the
            // first, and then finds it recorded.
            sqlx::query("INSERT INTO inbox (session_id, event_id, seq) VALUES ($1, $2, $3)")
                .bind(t.session_id)
                .bind(event_id)
                .bind(seq)
                .execute(&mut *tx)
                .await
                .map_err(
                    |e| if is_unique_violation(&e) { StoreError::Duplicate(event_id.to_string()) } else { db(e) },
                )?;
        }
        insert_turn(&mut tx, t, seq).await?;
        let outbox_id = insert_outbox(&mut tx, t, seq, &Audience::Everyone, t.reply).await?;
        let mut message_ids = Vec::with_capacity(t.messages.len());
        for m in t.messages {
            message_ids.push(insert_outbox(&mut tx, t, seq, &m.audience, &m.reply).await?);
        }
        update_session(&mut tx, t).await?;
        insert_points(&mut tx, t).await?;
        tx.commit().await.map_err(db)?;
        Ok(Committed { seq, outbox_id, message_ids })
    }

    async fn mark_sent(&self, outbox_id: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE outbox SET sent_ms = $1 WHERE id = $2 AND sent_ms IS NULL")
            .bind(crate::core::store::Clock::now_ms(&crate::core::store::SystemClock))
            .bind(outbox_id)
            .execute(&self.writer)
            .await
            .map_err(db)?;
        Ok(())
    }

    async fn unsent(&self, session_id: &str) -> Result<Vec<OutboxItem>, StoreError> {
        self.outbox_rows(
            "SELECT id, session_id, seq, kind, body, audience, recipient FROM outbox
             WHERE session_id = $1 AND sent_ms IS NULL ORDER BY id",
            session_id,
        )
        .await
    }

    async fn outbox(&self, session_id: &str) -> Result<Vec<OutboxItem>, StoreError> {
        self.outbox_rows(
            "SELECT id, session_id, seq, kind, body, audience, recipient FROM outbox
             WHERE session_id = $1 ORDER BY id",
            session_id,
        )
        .await
    }

    async fn recent_sessions(&self, limit: u32) -> Result<Vec<SessionSummary>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, game_kind, puzzle_id, channel, phase, questions, last_activity_ms FROM sessions
             ORDER BY last_activity_ms DESC LIMIT $1",
        )
        .bind(limit as i64)
        .fetch_all(&self.reader)
        .await
        .map_err(db)?;
        rows.iter()
            .map(|row| {
                Ok(SessionSummary {
                    id: row.try_get("id").map_err(db)?,
                    kind: row.try_get("game_kind").map_err(db)?,
                    puzzle_id: row.try_get("puzzle_id").map_err(db)?,
                    channel: row.try_get("channel").map_err(db)?,
                    phase: row.try_get("phase").map_err(db)?,
                    questions: row.try_get::<i64, _>("questions").map_err(db)? as u32,
                    last_activity_ms: row.try_get("last_activity_ms").map_err(db)?,
                })
            })
            .collect()
    }

    async fn set_summary(&self, session_id: &str, summary: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE sessions SET summary = $1 WHERE id = $2")
            .bind(summary)
            .bind(session_id)
            .execute(&self.writer)
            .await
            .map_err(db)?;
        Ok(())
    }

    async fn custom_puzzles(&self) -> Result<Vec<CustomPuzzle>, StoreError> {
        let rows = sqlx::query("SELECT scope, id, source, enabled FROM custom_puzzles ORDER BY scope, id")
            .fetch_all(&self.reader)
            .await
            .map_err(db)?;
        rows.iter().map(custom_puzzle).collect()
    }

    async fn pending_deadlines(&self) -> Result<Vec<(String, i64)>, StoreError> {
        let rows =
            sqlx::query("SELECT id, deadline_ms FROM sessions WHERE deadline_ms IS NOT NULL ORDER BY deadline_ms, id")
                .fetch_all(&self.reader)
                .await
                .map_err(db)?;
        rows.iter().map(|r| Ok((r.try_get("id").map_err(db)?, r.try_get("deadline_ms").map_err(db)?))).collect()
    }

    async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.writer).await.map_err(db)?;
        Ok(())
    }

    async fn session_kind(&self, id: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT game_kind FROM sessions WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.reader)
            .await
            .map_err(db)?;
        row.map(|r| r.try_get("game_kind").map_err(db)).transpose()
    }

    async fn last_finished(&self, place: &str, kind: &str) -> Result<Option<String>, StoreError> {
        let under = format!("{place}:");
        let row = sqlx::query(
            "SELECT id FROM sessions
             WHERE (channel = $1 OR substr(channel, 1, CAST($2 AS INTEGER)) = $3) AND game_kind = $4
               AND phase IN ('solved', 'gave_up', 'revealed', 'expired', 'over')
             ORDER BY last_activity_ms DESC, created_ms DESC LIMIT 1",
        )
        .bind(place)
        .bind(under.chars().count() as i64)
        .bind(&under)
        .bind(kind)
        .fetch_optional(&self.reader)
        .await
        .map_err(db)?;
        row.map(|r| r.try_get("id").map_err(db)).transpose()
    }
}

async fn insert_outbox(
    tx: &mut Transaction<'_, Any>,
    t: &TurnCommit<'_>,
    seq: i64,
    audience: &Audience,
    reply: &Reply,
) -> Result<i64, StoreError> {
    sqlx::query(
        "INSERT INTO outbox (session_id, seq, kind, body, audience, recipient, created_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
    )
    .bind(t.session_id)
    .bind(seq)
    .bind(enum_text(&reply.kind)?)
    .bind(&reply.text)
    .bind(audience.as_str())
    .bind(audience.recipient())
    .bind(t.created_ms)
    .fetch_one(&mut **tx)
    .await
    .map_err(db)?
    .try_get("id")
    .map_err(db)
}

fn audience_from_row(row: &AnyRow) -> Result<Audience, StoreError> {
    let audience: String = row.try_get("audience").map_err(db)?;
    let recipient: Option<String> = row.try_get("recipient").map_err(db)?;
    Audience::from_parts(&audience, recipient)
        .ok_or_else(|| StoreError::Corrupt(format!("outbox audience {audience:?} without a known reader")))
}

fn snapshot_from_row(row: &AnyRow) -> Result<Snapshot, StoreError> {
    let phase: String = row.try_get("phase").map_err(db)?;
    let deadline_ms: Option<i64> = row.try_get("deadline_ms").map_err(db)?;
    let body: String = row.try_get("snapshot").map_err(db)?;
    // The game reads its own body; a body that is not even JSON is corrupt
    // here, before any game sees it.
    from_json::<serde_json::Value>(&body, "session snapshot")?;
    Ok(Snapshot {
        kind: row.try_get("game_kind").map_err(db)?,
        version: row.try_get::<i64, _>("snapshot_version").map_err(db)? as u32,
        progress: row.try_get::<i64, _>("questions").map_err(db)? as u32,
        deadline_ms,
        body,
        phase,
    })
}

#[cfg(test)]
pub(super) mod tests;
