//! What the bot remembers after a game: a public summary (one model call),
//! each player's stats and a profile derived from them, written to the
//! players' memory namespaces. The same functions rebuild memory from the
//! SQL record, which is the source of truth.
//!
//! Only public material goes in: the summary prompt never sees the bottom,
//! so memories are safe to show the Narrator.

use crate::core::memory::{Memory, MemoryError, MemoryItem, MemoryKind, player_namespace};
use crate::core::prompts::PublicTurn;
use crate::core::soup::pipeline::Pipeline;
use crate::core::soup::puzzle::Puzzle;
use crate::core::soup::{Phase, SoupGame};
use crate::core::store::{FinishedSession, PlayerStats, Store, StoreError};
use crate::core::vocab::Player;

#[derive(Debug, thiserror::Error)]
pub enum RememberError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Memory(#[from] MemoryError),
}

/// One finished game, as the actor saw it end.
pub struct EndedGame<'a> {
    pub session_id: &'a str,
    pub puzzle: &'a Puzzle,
    pub game: &'a SoupGame,
    pub history: &'a [PublicTurn],
    pub now_ms: i64,
}

/// Writes the summary, stats and profiles for a game that just ended.
pub async fn remember_game(
    pipeline: &Pipeline,
    store: &dyn Store,
    memory: &dyn Memory,
    ended: &EndedGame<'_>,
) -> Result<(), RememberError> {
    let outcome = outcome_text(ended.game);
    let summary = match pipeline.summarise(ended.puzzle, ended.history, &outcome).await {
        Ok(text) if !text.is_empty() => text,
        Ok(_) => plain_summary(&ended.puzzle.title, &outcome),
        Err(e) => {
            tracing::warn!(error = %e, "summary call failed; keeping a plain summary");
            plain_summary(&ended.puzzle.title, &outcome)
        }
    };
    store.set_summary(ended.session_id, &summary).await?;
    let players: Vec<Player> =
        ended.game.players.iter().map(|(id, t)| Player { id: id.clone(), name: t.name.clone() }).collect();
    let mut items = Vec::new();
    for player in &players {
        items.push(summary_item(player, ended.session_id, &summary, ended.now_ms));
        let stats = store.player_stats(&player.id).await?;
        items.extend(stats_items(player, &stats, ended.now_ms));
    }
    memory.put(&items).await?;
    Ok(())
}

/// Rebuilds every memory from SQL: summaries of finished games, then each
/// player's current stats and profile. Call on an emptied memory index.
pub async fn rebuild_memory(store: &dyn Store, memory: &dyn Memory) -> Result<usize, RememberError> {
    let sessions: Vec<FinishedSession> = store.finished_sessions().await?;
    let mut items = Vec::new();
    let mut seen: Vec<Player> = Vec::new();
    for s in &sessions {
        let summary = s.summary.clone().unwrap_or_else(|| plain_summary(&s.puzzle_id, s.phase.as_str()));
        for player in &s.players {
            items.push(summary_item(player, &s.id, &summary, s.ended_ms));
            if !seen.iter().any(|p| p.id == player.id) {
                seen.push(player.clone());
            }
        }
    }
    let now = sessions.last().map_or(0, |s| s.ended_ms);
    for player in &seen {
        let stats = store.player_stats(&player.id).await?;
        items.extend(stats_items(player, &stats, now));
    }
    for chunk in items.chunks(64) {
        memory.put(chunk).await?;
    }
    Ok(items.len())
}

fn summary_item(player: &Player, session_id: &str, summary: &str, at: i64) -> MemoryItem {
    let namespace = player_namespace(player);
    MemoryItem {
        id: format!("{namespace}#summary-{session_id}"),
        namespace,
        kind: MemoryKind::Summary,
        text: format!("{}: {summary}", player.name),
        updated_ms: at,
    }
}

fn stats_items(player: &Player, stats: &PlayerStats, at: i64) -> [MemoryItem; 2] {
    let namespace = player_namespace(player);
    let item = |kind: MemoryKind, text: String| MemoryItem {
        id: format!("{namespace}#{}", kind.as_str()),
        namespace: namespace.clone(),
        kind,
        text,
        updated_ms: at,
    };
    [
        item(MemoryKind::Stats, stats_text(&player.name, stats)),
        item(MemoryKind::Profile, profile_text(&player.name, stats)),
    ]
}

pub fn stats_text(name: &str, s: &PlayerStats) -> String {
    let per_solve = match s.solves {
        0 => "no solves yet".to_string(),
        n => format!("{:.1} questions per solve", f64::from(s.questions_in_solves) / f64::from(n)),
    };
    format!("{name} has played {} games and solved {}; {per_solve}; {} hints used.", s.games, s.solves, s.hints)
}

/// A play-style sketch from the numbers, so it is cheap, stable and never
/// invents anything.
pub fn profile_text(name: &str, s: &PlayerStats) -> String {
    let mut traits = Vec::new();
    let games = s.games.max(1);
    if s.questions >= 12 * games {
        traits.push("asks many questions before committing");
    } else if s.questions <= 4 * games {
        traits.push("asks few, pointed questions");
    }
    if s.guesses >= 3 * games {
        traits.push("guesses often");
    }
    match s.hints {
        0 => traits.push("never takes hints"),
        h if h >= 2 * games => traits.push("leans on hints"),
        _ => {}
    }
    if s.solves * 2 > s.games && s.games >= 2 {
        traits.push("solves most puzzles");
    }
    if traits.is_empty() {
        traits.push("a balanced player");
    }
    format!("{name}: {}.", traits.join(", "))
}

fn outcome_text(game: &SoupGame) -> String {
    let q = game.questions;
    let h = game.hints_used;
    let solver = game.solver.as_ref().and_then(|id| game.players.get(id)).map(|t| t.name.as_str());
    match (game.phase, solver) {
        (Phase::Solved, Some(name)) => format!("solved by {name} after {q} questions and {h} hints"),
        (Phase::GaveUp, _) => format!("the players gave up after {q} questions and {h} hints"),
        (Phase::Revealed, _) => format!("a moderator revealed the story after {q} questions"),
        (Phase::Expired, _) => format!("the game expired after {q} questions"),
        _ => format!("ended after {q} questions"),
    }
}

fn plain_summary(title: &str, outcome: &str) -> String {
    format!("Played \"{title}\": {outcome}.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_follow_the_numbers() {
        let heavy = PlayerStats { games: 2, solves: 2, questions_in_solves: 40, questions: 40, guesses: 2, hints: 5 };
        let text = profile_text("Kim", &heavy);
        assert!(text.contains("many questions") && text.contains("leans on hints") && text.contains("solves most"));
        let quiet = PlayerStats { games: 1, questions: 3, ..PlayerStats::default() };
        assert_eq!(profile_text("Ann", &quiet), "Ann: asks few, pointed questions, never takes hints.");
        assert!(stats_text("Ann", &heavy).contains("20.0 questions per solve"));
    }
}
