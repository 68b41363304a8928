//! A finished game written to a Markdown file: after every terminal
//! Turtle Soup game, and for any finished game of any game with `echoes
//! transcript` (a hosted game's own `HostedGame::transcript`).

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::app::App;
use crate::bot::boards;
use crate::config::Settings;
use crate::core::game::{Game as _, transcript as game_transcript};
use crate::core::soup::{SoupGame, transcript};
use crate::core::store::LoadedSession;

/// Where transcripts go unless told: `transcripts/` beside a SQLite
/// database, else in the working directory.
pub fn default_dir(settings: &Settings) -> PathBuf {
    match settings.storage.database_folder() {
        Some(folder) => folder.join("transcripts"),
        None => PathBuf::from("transcripts"),
    }
}

/// Writes the transcript of `session` (default: the last terminal game of
/// any kind that ended) to `out` (default: a file named for the game in
/// `default_dir`). Refuses a game still on: the file holds its secrets.
pub async fn write(app: &App, session: Option<&str>, out: Option<&Path>) -> anyhow::Result<PathBuf> {
    let id = match session {
        Some(id) => id.to_string(),
        None => last_ended(app).await?.context("No terminal game has ended yet; play one with `echoes play`.")?,
    };
    let kind = app.store.session_kind(&id).await?.with_context(|| format!("There is no session {id:?}."))?;
    let loaded = app.store.load_session(&id).await?.with_context(|| format!("There is no session {id:?}."))?;
    let (name, markdown) = match crate::assets::hosted_games().into_iter().find(|g| g.kind() == kind) {
        Some(game) => {
            let over = game.resume(&loaded).map_err(|e| anyhow::anyhow!("Session {id}: {e}"))?.is_over();
            anyhow::ensure!(over, "Session {id} is still on; finish it first (`echoes play --resume {id}`).");
            let outbox = app.store.outbox(&id).await?;
            (game_transcript::file_name(game.group(), &id), game.transcript(&loaded, &outbox))
        }
        None => soup_file(app, &id, &kind, &loaded)?,
    };
    let path = match out {
        Some(path) => path.to_path_buf(),
        None => default_dir(&app.settings).join(name),
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        tokio::fs::create_dir_all(dir).await.with_context(|| format!("creating {}", dir.display()))?;
    }
    tokio::fs::write(&path, markdown).await.with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

/// A Turtle Soup game's file: its name and its Markdown with the puzzle.
fn soup_file(app: &App, id: &str, kind: &str, loaded: &LoadedSession) -> anyhow::Result<(String, String)> {
    anyhow::ensure!(kind == SoupGame::KIND, "Session {id} is a game of {kind}, which this build does not host.");
    let game: SoupGame = loaded.game()?;
    anyhow::ensure!(game.phase.is_over(), "Session {id} is still on; finish it first (`echoes play --resume {id}`).");
    let puzzle = app
        .library
        .get(&loaded.puzzle_id)
        .with_context(|| format!("The session's puzzle {} is not in the library.", loaded.puzzle_id))?;
    Ok((transcript::file_name(&puzzle, loaded), transcript::markdown(&puzzle, loaded, &game)))
}

/// The newest finished terminal game, of any game this build plays.
async fn last_ended(app: &App) -> anyhow::Result<Option<String>> {
    let hosted = crate::assets::hosted_games();
    let kinds = std::iter::once(SoupGame::KIND.to_string()).chain(hosted.iter().map(|g| g.kind().to_string()));
    let mut newest: Option<(i64, String)> = None;
    for kind in kinds {
        let Some(id) = boards::last_finished(app.store.as_ref(), "console", &kind).await? else { continue };
        let Some(loaded) = app.store.load_session(&id).await? else { continue };
        if newest.as_ref().is_none_or(|(at, _)| loaded.last_activity_ms > *at) {
            newest = Some((loaded.last_activity_ms, id));
        }
    }
    Ok(newest.map(|(_, id)| id))
}
