//! The runtime game work runs on in the bot front ends. Turns (the
//! pipeline, the secrecy gate, SQL commits, an in-process model generating
//! on its blocking threads) run on their own worker threads at a lower OS
//! priority, so a burst of turns never delays what a platform times: the
//! gateway's heartbeats and the 3-second acknowledgement of a command.

use std::sync::OnceLock;

use tokio::runtime::{Builder, Handle, Runtime};

/// How much lower game threads run (Linux `nice`, 0–19).
const NICENESS: i32 = 10;

static GAMES: OnceLock<Result<Runtime, String>> = OnceLock::new();

/// The process's game runtime, started on first use; it lives as long as
/// the process.
pub fn games() -> Result<Handle, String> {
    let runtime = GAMES.get_or_init(|| {
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
        Builder::new_multi_thread()
            .worker_threads(workers)
            .thread_name("echoes-game")
            .on_thread_start(lower_priority)
            .enable_all()
            .build()
            .map_err(|e| e.to_string())
    });
    runtime.as_ref().map(|r| r.handle().clone()).map_err(Clone::clone)
}

/// Runs `work` on the game runtime and waits for it (on the caller's
/// runtime when there is no game runtime). Threads started there (SQLite's
/// connection workers, say) inherit its lower priority.
pub async fn on_games<F>(work: F) -> anyhow::Result<F::Output>
where
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    match games() {
        Ok(games) => games.spawn(work).await.map_err(|e| anyhow::anyhow!("game work stopped unexpectedly: {e}")),
        Err(_) => Ok(work.await),
    }
}

/// Opens the store on the game runtime, so its connection threads (SQLite's
/// workers) run at the game runtime's lower priority.
pub async fn open_store(database: &crate::store::Database) -> anyhow::Result<crate::store::SqlStore> {
    use anyhow::Context as _;
    let owned = database.clone();
    let opened = on_games(async move { crate::store::SqlStore::connect(&owned).await }).await?;
    opened.with_context(|| format!("opening the database {database}"))
}

/// Lowers the calling thread's scheduling priority. On Linux a thread's
/// nice value is its own, so only game threads are affected.
#[cfg(target_os = "linux")]
fn lower_priority() {
    // SAFETY: setpriority only reads its integer arguments; `who = 0` names
    // the calling thread.
    let done = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, NICENESS) };
    if done != 0 {
        tracing::debug!("could not lower a game thread's priority");
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {
    let _ = NICENESS;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_work_runs_on_its_own_threads() {
        let handle = games().unwrap();
        let name = handle.block_on(async {
            tokio::spawn(async { std::thread::current().name().map(str::to_string) }).await.unwrap()
        });
        assert_eq!(name.as_deref(), Some("echoes-game"));
    }

    #[tokio::test]
    async fn on_games_runs_work_on_the_game_threads() {
        let name = on_games(async { std::thread::current().name().map(str::to_string) }).await.unwrap();
        assert_eq!(name.as_deref(), Some("echoes-game"));
        let stopped = on_games(async { panic!("boom") }).await;
        assert!(stopped.unwrap_err().to_string().contains("stopped unexpectedly"));
    }
}
