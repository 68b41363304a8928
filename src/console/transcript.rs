//! A finished Turtle Soup game written to a Markdown file: after every
//! terminal game, and for any finished game with `echoes transcript`.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::app::App;
use crate::bot::boards;
use crate::config::Settings;
use crate::core::soup::{SoupGame, transcript};

/// Where transcripts go unless told: `transcripts/` beside a SQLite
/// database, else in the working directory.
pub fn default_dir(settings: &Settings) -> PathBuf {
    match settings.storage.database_folder() {
        Some(folder) => folder.join("transcripts"),
        None => PathBuf::from("transcripts"),
    }
}

/// Writes the transcript of `session` (default: the last terminal game that
/// ended) to `out` (default: a file named for the game in `default_dir`).
/// Refuses a game still on: the file holds the story.
pub async fn write(app: &App, session: Option<&str>, out: Option<&Path>) -> anyhow::Result<PathBuf> {
    let id = match session {
        Some(id) => id.to_string(),
        None => boards::last_finished(app.store.as_ref(), "console", "soup")
            .await?
            .context("No terminal game has ended yet; play one with `echoes play`.")?,
    };
    let kind = app.store.session_kind(&id).await?.with_context(|| format!("There is no session {id:?}."))?;
    anyhow::ensure!(kind == "soup", "Session {id} is a game of {kind}; transcripts are written for Turtle Soup.");
    let loaded = app.store.load_session(&id).await?.with_context(|| format!("There is no session {id:?}."))?;
    let game: SoupGame = loaded.game()?;
    anyhow::ensure!(game.phase.is_over(), "Session {id} is still on; finish it first (`echoes play --resume {id}`).");
    let puzzle = app
        .library
        .get(&loaded.puzzle_id)
        .with_context(|| format!("The session's puzzle {} is not in the library.", loaded.puzzle_id))?;
    let path = match out {
        Some(path) => path.to_path_buf(),
        None => default_dir(&app.settings).join(transcript::file_name(&puzzle, &loaded)),
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        tokio::fs::create_dir_all(dir).await.with_context(|| format!("creating {}", dir.display()))?;
    }
    tokio::fs::write(&path, transcript::markdown(&puzzle, &loaded, &game))
        .await
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}
