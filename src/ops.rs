//! Operator commands over the stores: `echoes knowledge rebuild`,
//! `echoes memory show|forget`, and per-puzzle stats. Each returns the text
//! to print, so the CLI stays a thin shell. `db.rs`: `echoes db migrate|copy`.

pub mod db;
pub mod http;

use anyhow::Context;

use crate::app::App;
use crate::core::memory::{Memory, player_namespace};
use crate::core::store::Clock;

fn vectors(app: &App) -> anyhow::Result<&crate::app::Vectors> {
    app.vectors.as_ref().context("the vector store could not be opened (see the log with -v)")
}

/// Re-syncs the knowledge table from `data/` and SQL, and rebuilds this
/// process's memory index from SQL's memory record (the path every
/// process's index follows).
pub async fn knowledge_rebuild(app: &App) -> anyhow::Result<String> {
    let v = vectors(app)?;
    let report = app.sync_knowledge().await.context("knowledge sync failed (see the log with -v)")?;
    let memories = v.memory.rebuild().await?;
    Ok(format!(
        "knowledge: {} documents ({} embedded, {} removed) · memory: {memories} memories rebuilt from the database",
        report.documents, report.embedded, report.removed
    ))
}

/// Everything remembered about a player (by id or name).
pub async fn memory_show(app: &App, who: &str) -> anyhow::Result<String> {
    let v = vectors(app)?;
    let players = app.store.find_players(who).await?;
    anyhow::ensure!(
        !players.is_empty(),
        "no player {who:?} has played here (try the id shown by `echoes memory show`)"
    );
    let mut out = Vec::new();
    for p in players {
        let items = v.memory.list(&player_namespace(&p)).await?;
        out.push(format!("{} ({}) · {} memories", p.name, p.id, items.len()));
        out.extend(items.iter().map(|m| format!("  [{}] {}", m.kind.as_str(), m.text)));
    }
    Ok(out.join("\n"))
}

/// Erases a player's memory now and keeps it erased across rebuilds.
pub async fn memory_forget(app: &App, who: &str) -> anyhow::Result<String> {
    let v = vectors(app)?;
    let players = app.store.find_players(who).await?;
    anyhow::ensure!(!players.is_empty(), "no player {who:?} has played here");
    let now = crate::core::store::SystemClock.now_ms();
    let mut lines = Vec::new();
    for p in players {
        let removed = v.memory.forget(&player_namespace(&p)).await?;
        app.store.erase_player_memory(&p.id, now).await?;
        lines.push(format!("forgot {} ({}): {removed} memories erased", p.name, p.id));
    }
    Ok(lines.join("\n"))
}

/// "12 plays · 58% solved · median 9 questions" for a puzzle.
pub async fn puzzle_stats_line(app: &App, puzzle_id: &str) -> anyhow::Result<String> {
    let s = app.store.puzzle_stats(puzzle_id).await?;
    if s.plays == 0 {
        return Ok("not played yet".into());
    }
    let rate = f64::from(s.solves) * 100.0 / f64::from(s.plays);
    let median = s.median_questions.map_or("-".to_string(), |m| format!("{m}"));
    Ok(format!("{} plays · {rate:.0}% solved · median {median} questions to solve", s.plays))
}
