//! `GuildStore` on SQL (SQLite or PostgreSQL): server settings, thread bindings, custom and
//! disabled puzzles, the next-puzzle queue (`migrations/0003_guilds.sql`).
//! Writes go through the store's one writer connection, like every write.

use async_trait::async_trait;
use sqlx::Row;
use sqlx::any::AnyRow;

use super::sql::{SqlStore, custom_puzzle, db, is_unique_violation};
use crate::core::guild::{CustomContent, GuildConfig, GuildStore, NewCustomPuzzle, ThreadBinding};
use crate::core::store::{CustomPuzzle, StoreError};
use crate::core::vocab::Language;

fn binding_from_row(row: &AnyRow) -> Result<ThreadBinding, StoreError> {
    Ok(ThreadBinding {
        thread: row.try_get("thread").map_err(db)?,
        scope: row.try_get("scope").map_err(db)?,
        session_id: row.try_get("session_id").map_err(db)?,
        started_by: row.try_get("started_by").map_err(db)?,
        created_ms: row.try_get("created_ms").map_err(db)?,
        ended_ms: row.try_get("ended_ms").map_err(db)?,
    })
}

fn config_from_row(row: &AnyRow) -> Result<GuildConfig, StoreError> {
    let language: Option<String> = row.try_get("language").map_err(db)?;
    let language = match language {
        Some(code) => Some(Language::parse(&code).ok_or_else(|| StoreError::Corrupt(format!("language {code:?}")))?),
        None => None,
    };
    let hint_limit: Option<i64> = row.try_get("hint_limit").map_err(db)?;
    Ok(GuildConfig {
        language,
        hint_limit: hint_limit.map(|n| n.clamp(0, u32::MAX as i64) as u32),
        channel: row.try_get("channel").map_err(db)?,
        model: row.try_get("model").map_err(db)?,
        mod_role: row.try_get("mod_role").map_err(db)?,
    })
}

fn content_from_row(row: &AnyRow) -> Result<CustomContent, StoreError> {
    let code: String = row.try_get("language").map_err(db)?;
    Ok(CustomContent {
        scope: row.try_get("scope").map_err(db)?,
        game: row.try_get("game").map_err(db)?,
        id: row.try_get("id").map_err(db)?,
        language: Language::parse(&code).ok_or_else(|| StoreError::Corrupt(format!("language {code:?}")))?,
        source: row.try_get("source").map_err(db)?,
        added_by: row.try_get("added_by").map_err(db)?,
        created_ms: row.try_get("created_ms").map_err(db)?,
    })
}

#[async_trait]
impl GuildStore for SqlStore {
    async fn guild_config(&self, scope: &str) -> Result<GuildConfig, StoreError> {
        let (_, reader) = self.pools();
        let row = sqlx::query("SELECT * FROM guild_config WHERE scope = $1")
            .bind(scope)
            .fetch_optional(reader)
            .await
            .map_err(db)?;
        row.as_ref().map(config_from_row).transpose().map(Option::unwrap_or_default)
    }

    async fn set_guild_config(&self, scope: &str, c: &GuildConfig, now_ms: i64) -> Result<(), StoreError> {
        let (writer, _) = self.pools();
        sqlx::query(
            "INSERT INTO guild_config (scope, language, hint_limit, channel, model, mod_role, updated_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (scope) DO UPDATE SET language = excluded.language, hint_limit = excluded.hint_limit,
                channel = excluded.channel, model = excluded.model, mod_role = excluded.mod_role,
                updated_ms = excluded.updated_ms",
        )
        .bind(scope)
        .bind(c.language.map(Language::code))
        .bind(c.hint_limit.map(i64::from))
        .bind(&c.channel)
        .bind(&c.model)
        .bind(&c.mod_role)
        .bind(now_ms)
        .execute(writer)
        .await
        .map_err(db)?;
        Ok(())
    }

    async fn bind_thread(&self, b: &ThreadBinding) -> Result<(), StoreError> {
        let (writer, _) = self.pools();
        // Replaces an ended binding only; an active one makes the upsert a no-op.
        let done = sqlx::query(
            "INSERT INTO thread_bindings (thread, scope, session_id, started_by, created_ms, ended_ms)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (thread) DO UPDATE SET scope = excluded.scope, session_id = excluded.session_id,
                started_by = excluded.started_by, created_ms = excluded.created_ms, ended_ms = excluded.ended_ms
             WHERE thread_bindings.ended_ms IS NOT NULL",
        )
        .bind(&b.thread)
        .bind(&b.scope)
        .bind(&b.session_id)
        .bind(&b.started_by)
        .bind(b.created_ms)
        .bind(b.ended_ms)
        .execute(writer)
        .await
        .map_err(db)?;
        if done.rows_affected() == 0 {
            return Err(StoreError::Duplicate(b.thread.clone()));
        }
        Ok(())
    }

    async fn thread_binding(&self, thread: &str) -> Result<Option<ThreadBinding>, StoreError> {
        let (writer, _) = self.pools();
        // Read through the writer so a binding made a moment ago is seen.
        let row = sqlx::query("SELECT * FROM thread_bindings WHERE thread = $1")
            .bind(thread)
            .fetch_optional(writer)
            .await
            .map_err(db)?;
        row.as_ref().map(binding_from_row).transpose()
    }

    async fn end_binding(&self, thread: &str, now_ms: i64) -> Result<bool, StoreError> {
        let (writer, _) = self.pools();
        let done = sqlx::query("UPDATE thread_bindings SET ended_ms = $1 WHERE thread = $2 AND ended_ms IS NULL")
            .bind(now_ms)
            .bind(thread)
            .execute(writer)
            .await
            .map_err(db)?;
        Ok(done.rows_affected() > 0)
    }

    async fn active_bindings(&self) -> Result<Vec<ThreadBinding>, StoreError> {
        let (_, reader) = self.pools();
        let rows = sqlx::query("SELECT * FROM thread_bindings WHERE ended_ms IS NULL ORDER BY created_ms, thread")
            .fetch_all(reader)
            .await
            .map_err(db)?;
        rows.iter().map(binding_from_row).collect()
    }

    async fn add_custom_puzzle(&self, p: &NewCustomPuzzle<'_>) -> Result<(), StoreError> {
        let (writer, _) = self.pools();
        let result = sqlx::query(
            "INSERT INTO custom_puzzles (scope, id, source, enabled, added_by, created_ms) VALUES ($1, $2, $3, 1, $4, $5)",
        )
        .bind(p.scope)
        .bind(p.id)
        .bind(p.source)
        .bind(p.added_by)
        .bind(p.created_ms)
        .execute(writer)
        .await;
        match result {
            Ok(_) => Ok(()),
            Err(e) if is_unique_violation(&e) => Err(StoreError::Duplicate(p.id.to_string())),
            Err(e) => Err(db(e)),
        }
    }

    async fn remove_custom_puzzle(&self, scope: &str, id: &str) -> Result<bool, StoreError> {
        let (writer, _) = self.pools();
        let done = sqlx::query("DELETE FROM custom_puzzles WHERE scope = $1 AND id = $2")
            .bind(scope)
            .bind(id)
            .execute(writer)
            .await
            .map_err(db)?;
        Ok(done.rows_affected() > 0)
    }

    async fn scoped_puzzles(&self, scope: &str) -> Result<Vec<CustomPuzzle>, StoreError> {
        let (writer, _) = self.pools();
        let rows = sqlx::query("SELECT scope, id, source, enabled FROM custom_puzzles WHERE scope = $1 ORDER BY id")
            .bind(scope)
            .fetch_all(writer)
            .await
            .map_err(db)?;
        rows.iter().map(custom_puzzle).collect()
    }

    async fn set_puzzle_enabled(&self, scope: &str, id: &str, enabled: bool) -> Result<(), StoreError> {
        let (writer, _) = self.pools();
        let custom = sqlx::query("UPDATE custom_puzzles SET enabled = $1 WHERE scope = $2 AND id = $3")
            .bind(i64::from(enabled))
            .bind(scope)
            .bind(id)
            .execute(writer)
            .await
            .map_err(db)?;
        if custom.rows_affected() > 0 {
            return Ok(());
        }
        let sql = if enabled {
            "DELETE FROM guild_disabled_puzzles WHERE scope = $1 AND puzzle_id = $2"
        } else {
            "INSERT INTO guild_disabled_puzzles (scope, puzzle_id) VALUES ($1, $2) ON CONFLICT DO NOTHING"
        };
        sqlx::query(sql).bind(scope).bind(id).execute(writer).await.map_err(db)?;
        Ok(())
    }

    async fn disabled_puzzles(&self, scope: &str) -> Result<Vec<String>, StoreError> {
        let (writer, _) = self.pools();
        let rows = sqlx::query("SELECT puzzle_id FROM guild_disabled_puzzles WHERE scope = $1 ORDER BY puzzle_id")
            .bind(scope)
            .fetch_all(writer)
            .await
            .map_err(db)?;
        rows.iter().map(|r| r.try_get("puzzle_id").map_err(db)).collect()
    }

    async fn set_next_puzzle(&self, scope: &str, channel: &str, puzzle_id: &str) -> Result<(), StoreError> {
        let (writer, _) = self.pools();
        sqlx::query(
            "INSERT INTO guild_next_puzzle (scope, channel, puzzle_id) VALUES ($1, $2, $3)
             ON CONFLICT (scope, channel) DO UPDATE SET puzzle_id = excluded.puzzle_id",
        )
        .bind(scope)
        .bind(channel)
        .bind(puzzle_id)
        .execute(writer)
        .await
        .map_err(db)?;
        Ok(())
    }

    async fn take_next_puzzle(&self, scope: &str, channel: &str) -> Result<Option<String>, StoreError> {
        let (writer, _) = self.pools();
        let row = sqlx::query("DELETE FROM guild_next_puzzle WHERE scope = $1 AND channel = $2 RETURNING puzzle_id")
            .bind(scope)
            .bind(channel)
            .fetch_optional(writer)
            .await
            .map_err(db)?;
        row.map(|r| r.try_get("puzzle_id").map_err(db)).transpose()
    }

    async fn add_custom_content(&self, c: &CustomContent) -> Result<(), StoreError> {
        let (writer, _) = self.pools();
        let result = sqlx::query(
            "INSERT INTO custom_content (scope, game, id, language, source, added_by, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&c.scope)
        .bind(&c.game)
        .bind(&c.id)
        .bind(c.language.code())
        .bind(&c.source)
        .bind(&c.added_by)
        .bind(c.created_ms)
        .execute(writer)
        .await;
        match result {
            Ok(_) => Ok(()),
            Err(e) if is_unique_violation(&e) => Err(StoreError::Duplicate(c.id.clone())),
            Err(e) => Err(db(e)),
        }
    }

    async fn remove_custom_content(&self, scope: &str, game: &str, id: &str) -> Result<bool, StoreError> {
        let (writer, _) = self.pools();
        let done = sqlx::query("DELETE FROM custom_content WHERE scope = $1 AND game = $2 AND id = $3")
            .bind(scope)
            .bind(game)
            .bind(id)
            .execute(writer)
            .await
            .map_err(db)?;
        Ok(done.rows_affected() > 0)
    }

    async fn custom_content(&self, scope: &str, game: &str) -> Result<Vec<CustomContent>, StoreError> {
        let (writer, _) = self.pools();
        let rows = sqlx::query(
            "SELECT scope, game, id, language, source, added_by, created_ms FROM custom_content \
             WHERE scope = $1 AND game = $2 ORDER BY created_ms, id",
        )
        .bind(scope)
        .bind(game)
        .fetch_all(writer)
        .await
        .map_err(db)?;
        rows.iter().map(content_from_row).collect()
    }
}

#[cfg(test)]
mod tests;
