//! `Stats` on SQL: boards and players' records, counted from the session
//! record (`scores`, `turns`, `sessions`) and never stored apart, so they
//! cannot drift from it. Games before a player's memory was erased
//! (`players.memory_erased_ms`) do not count.

use async_trait::async_trait;
use sqlx::Row;

use super::{SqlStore, db};
use crate::core::store::{FinishedSession, LeaderRow, PlayerStats, PuzzleStats, RoleRow, SoupStats, Stats, StoreError};
use crate::core::vocab::Player;

#[async_trait]
impl Stats for SqlStore {
    async fn leaderboard(&self, scope: Option<&str>, limit: u32) -> Result<Vec<LeaderRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT s.player_id, p.name, SUM(s.points) AS points, SUM(s.solved) AS solves
             FROM scores s JOIN players p ON p.id = s.player_id JOIN sessions x ON x.id = s.session_id
             WHERE x.game_kind = 'soup' AND x.last_activity_ms > p.memory_erased_ms
               AND ($1 IS NULL OR s.session_id IN (SELECT session_id FROM thread_bindings WHERE scope = $2))
             GROUP BY s.player_id, p.name ORDER BY points DESC, solves DESC, p.name LIMIT $3",
        )
        .bind(scope)
        .bind(scope)
        .bind(limit as i64)
        .fetch_all(&self.reader)
        .await
        .map_err(db)?;
        rows.iter()
            .map(|row| {
                Ok(LeaderRow {
                    player_id: row.try_get("player_id").map_err(db)?,
                    name: row.try_get("name").map_err(db)?,
                    points: row.try_get("points").map_err(db)?,
                    solves: row.try_get("solves").map_err(db)?,
                })
            })
            .collect()
    }

    async fn soup_stats(&self, player_id: &str, scope: Option<&str>) -> Result<SoupStats, StoreError> {
        // The player's finished Soup games in the scope, after any erase.
        const GAMES: &str = "SELECT DISTINCT x.id, x.puzzle_id, x.questions FROM turns t
             JOIN sessions x ON x.id = t.session_id
             WHERE t.player_id = $1 AND x.game_kind = 'soup'
               AND x.phase IN ('solved', 'gave_up', 'revealed', 'expired')
               AND x.last_activity_ms > COALESCE((SELECT memory_erased_ms FROM players WHERE id = $2), 0)
               AND ($3 IS NULL OR x.id IN (SELECT session_id FROM thread_bindings WHERE scope = $4))";
        let games = sqlx::query(GAMES)
            .bind(player_id)
            .bind(player_id)
            .bind(scope)
            .bind(scope)
            .fetch_all(&self.reader)
            .await
            .map_err(db)?;
        let mut stats = SoupStats { games: games.len() as u32, ..SoupStats::default() };
        let mut puzzles: std::collections::BTreeMap<String, u32> = std::collections::BTreeMap::new();
        for game in &games {
            let session: String = game.try_get("id").map_err(db)?;
            *puzzles.entry(game.try_get("puzzle_id").map_err(db)?).or_default() += 1;
            let solved = sqlx::query("SELECT 1 FROM scores WHERE session_id = $1 AND player_id = $2 AND solved = 1")
                .bind(&session)
                .bind(player_id)
                .fetch_optional(&self.reader)
                .await
                .map_err(db)?;
            if solved.is_some() {
                stats.solves += 1;
                stats.questions_in_solves += game.try_get::<i64, _>("questions").map_err(db)? as u32;
            }
            let turns = sqlx::query("SELECT facts, reply_kind FROM turns WHERE session_id = $1 AND player_id = $2")
                .bind(&session)
                .bind(player_id)
                .fetch_all(&self.reader)
                .await
                .map_err(db)?;
            let mut found = std::collections::BTreeSet::new();
            for turn in &turns {
                let facts: String = turn.try_get("facts").map_err(db)?;
                found.extend(serde_json::from_str::<Vec<String>>(&facts).unwrap_or_default());
                if turn.try_get::<String, _>("reply_kind").map_err(db)? == "hint" {
                    stats.hints += 1;
                }
            }
            stats.facts_found += found.len() as u32;
        }
        stats.puzzles = puzzles.into_iter().collect();
        Ok(stats)
    }

    async fn role_stats(&self, kind: &str, scope: Option<&str>, limit: u32) -> Result<Vec<RoleRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT s.player_id, p.name, COALESCE(s.role, '') AS role, COUNT(*) AS games, SUM(s.solved) AS wins
             FROM scores s JOIN players p ON p.id = s.player_id JOIN sessions x ON x.id = s.session_id
             WHERE x.game_kind = $1
               AND ($2 IS NULL OR s.session_id IN (SELECT session_id FROM thread_bindings WHERE scope = $3))
             GROUP BY s.player_id, p.name, COALESCE(s.role, '')
             ORDER BY wins DESC, games DESC, p.name LIMIT $4",
        )
        .bind(kind)
        .bind(scope)
        .bind(scope)
        .bind(limit as i64)
        .fetch_all(&self.reader)
        .await
        .map_err(db)?;
        rows.iter()
            .map(|row| {
                Ok(RoleRow {
                    player_id: row.try_get("player_id").map_err(db)?,
                    name: row.try_get("name").map_err(db)?,
                    role: row.try_get("role").map_err(db)?,
                    games: row.try_get("games").map_err(db)?,
                    wins: row.try_get("wins").map_err(db)?,
                })
            })
            .collect()
    }

    async fn finished_sessions(&self) -> Result<Vec<FinishedSession>, StoreError> {
        let rows = sqlx::query(
            "SELECT s.id, s.puzzle_id, s.phase, s.summary, s.last_activity_ms, p.id AS player_id, p.name
             FROM sessions s
             JOIN (SELECT DISTINCT session_id, player_id FROM turns) t ON t.session_id = s.id
             JOIN players p ON p.id = t.player_id
             WHERE s.game_kind = 'soup' AND s.phase IN ('solved', 'gave_up', 'revealed', 'expired')
               AND s.last_activity_ms > p.memory_erased_ms
             ORDER BY s.last_activity_ms, s.id, p.id",
        )
        .fetch_all(&self.reader)
        .await
        .map_err(db)?;
        let mut out: Vec<FinishedSession> = Vec::new();
        for row in &rows {
            let id: String = row.try_get("id").map_err(db)?;
            let player = Player { id: row.try_get("player_id").map_err(db)?, name: row.try_get("name").map_err(db)? };
            match out.last_mut() {
                Some(last) if last.id == id => last.players.push(player),
                _ => out.push(FinishedSession {
                    id,
                    puzzle_id: row.try_get("puzzle_id").map_err(db)?,
                    phase: row.try_get("phase").map_err(db)?,
                    summary: row.try_get("summary").map_err(db)?,
                    ended_ms: row.try_get("last_activity_ms").map_err(db)?,
                    players: vec![player],
                }),
            }
        }
        Ok(out)
    }

    async fn player_stats(&self, player_id: &str) -> Result<PlayerStats, StoreError> {
        let row = sqlx::query(
            "SELECT
               (SELECT COUNT(DISTINCT t.session_id) FROM turns t JOIN sessions s ON s.id = t.session_id
                 WHERE t.player_id = p.id AND s.phase IN ('solved', 'gave_up', 'revealed', 'expired')
                   AND s.last_activity_ms > p.memory_erased_ms) AS games,
               (SELECT COUNT(*) FROM scores sc JOIN sessions s ON s.id = sc.session_id
                 WHERE sc.player_id = p.id AND sc.solved = 1 AND s.last_activity_ms > p.memory_erased_ms) AS solves,
               (SELECT COALESCE(SUM(s.questions), 0) FROM scores sc JOIN sessions s ON s.id = sc.session_id
                 WHERE sc.player_id = p.id AND sc.solved = 1 AND s.last_activity_ms > p.memory_erased_ms) AS q_solved,
               (SELECT COUNT(*) FROM turns t WHERE t.player_id = p.id AND t.intent = 'question'
                   AND t.reply_kind = 'verdict' AND t.created_ms > p.memory_erased_ms) AS questions,
               (SELECT COUNT(*) FROM turns t WHERE t.player_id = p.id AND t.intent = 'guess'
                   AND t.created_ms > p.memory_erased_ms) AS guesses,
               (SELECT COUNT(*) FROM turns t WHERE t.player_id = p.id AND t.reply_kind = 'hint'
                   AND t.created_ms > p.memory_erased_ms) AS hints
             FROM players p WHERE p.id = $1",
        )
        .bind(player_id)
        .fetch_optional(&self.reader)
        .await
        .map_err(db)?;
        let Some(row) = row else { return Ok(PlayerStats::default()) };
        let n = |name: &str| row.try_get::<i64, _>(name).map(|v| v as u32).map_err(db);
        Ok(PlayerStats {
            games: n("games")?,
            solves: n("solves")?,
            questions_in_solves: n("q_solved")?,
            questions: n("questions")?,
            guesses: n("guesses")?,
            hints: n("hints")?,
        })
    }

    async fn puzzle_stats(&self, puzzle_id: &str) -> Result<PuzzleStats, StoreError> {
        let rows = sqlx::query(
            "SELECT phase, questions FROM sessions
             WHERE game_kind = 'soup' AND puzzle_id = $1 AND phase IN ('solved', 'gave_up', 'revealed', 'expired')",
        )
        .bind(puzzle_id)
        .fetch_all(&self.reader)
        .await
        .map_err(db)?;
        let mut solved_questions: Vec<i64> = Vec::new();
        for row in &rows {
            if row.try_get::<String, _>("phase").map_err(db)? == "solved" {
                solved_questions.push(row.try_get("questions").map_err(db)?);
            }
        }
        Ok(PuzzleStats {
            plays: rows.len() as u32,
            solves: solved_questions.len() as u32,
            median_questions: median(&mut solved_questions),
        })
    }

    async fn find_players(&self, id_or_name: &str) -> Result<Vec<Player>, StoreError> {
        let rows = sqlx::query("SELECT id, name FROM players WHERE id = $1 OR lower(name) = lower($2) ORDER BY id")
            .bind(id_or_name)
            .bind(id_or_name)
            .fetch_all(&self.reader)
            .await
            .map_err(db)?;
        rows.iter()
            .map(|r| Ok(Player { id: r.try_get("id").map_err(db)?, name: r.try_get("name").map_err(db)? }))
            .collect()
    }

    async fn erase_player_memory(&self, player_id: &str, now_ms: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE players SET memory_erased_ms = $1 WHERE id = $2")
            .bind(now_ms)
            .bind(player_id)
            .execute(&self.writer)
            .await
            .map_err(db)?;
        Ok(())
    }
}

fn median(values: &mut [i64]) -> Option<f32> {
    if values.is_empty() {
        return None;
    }
    values.sort_unstable();
    let mid = values.len() / 2;
    Some(if values.len().is_multiple_of(2) { (values[mid - 1] + values[mid]) as f32 / 2.0 } else { values[mid] as f32 })
}
