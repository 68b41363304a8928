//! `echoes bench load`: Turtle Soup sessions played at once through the
//! whole engine (actor, pipeline, gate, the turn's transaction) with an
//! instant model, on SQLite (a file) and on PostgreSQL (a scratch database
//! on `$ECHOES_TEST_POSTGRES`, by default the local server). Per backend:
//! turns per second, the time a turn takes (p50 / p99) next to the bare
//! commit under it (one row INSERTed and COMMITted on the same pool, the
//! same durability: SQLite WAL with synchronous FULL, PostgreSQL's default
//! synchronous commit), measured in the same run; and memory per idle
//! session. Then two processes on one PostgreSQL database (two engines
//! with their own connection pools and lease-holder names), every input
//! sent to one of them at random: the one not holding the session hands it
//! over through the database and the holder, told of it by LISTEN/NOTIFY, plays it, the turn
//! lasting until the holder's courier shows the reply.
//!
//! A benchmark, not a test: it prints numbers and asserts nothing.

use crate::core::soup::verbs::SoupVerb;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use tokio::sync::mpsc;

use crate::bot::instant::InstantModel;
use crate::core::actor::{Courier, Delivery, Engine, Inbound, SessionHandle};
use crate::core::game::TurnInput;
use crate::core::llm::RoleModels;
use crate::core::services::{Pipeline, PipelineSettings};
use crate::core::store::{Store, SystemClock};
use crate::core::vocab::Player;
use crate::puzzles::PuzzleLibrary;
use crate::store::scratch::ScratchDb;
use crate::store::{Backend, SqlStore};

#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// Sessions played at once.
    pub sessions: usize,
    /// Turns per session, one after another.
    pub turns: usize,
    /// Idle sessions opened to measure memory per session.
    pub idle: usize,
    pub backends: Vec<Backend>,
    /// Also play PostgreSQL on two processes.
    pub two_processes: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            sessions: 50,
            turns: 20,
            idle: 1000,
            backends: vec![Backend::Sqlite, Backend::Postgres],
            two_processes: true,
        }
    }
}

pub async fn run(opts: &LoadOptions) -> anyhow::Result<String> {
    let mut out = format!(
        "bench load: {} sessions x {} turns at once, instant model\n\
         {:<10} {:>9} {:>10} {:>10} {:>12} {:>12} {:>14}\n",
        opts.sessions,
        opts.turns,
        "backend",
        "turns/s",
        "turn p50",
        "turn p99",
        "commit p50",
        "commit p99",
        "KiB/idle sess"
    );
    for backend in &opts.backends {
        let row = match backend {
            Backend::Sqlite => {
                let dir = std::env::temp_dir().join(format!("echoes-load-{}", uuid::Uuid::new_v4().simple()));
                let store = SqlStore::open(&dir.join("load.db")).await?;
                let row = measure(store.clone(), "sqlite", opts).await;
                store.close().await;
                let _ = std::fs::remove_dir_all(&dir);
                row?
            }
            Backend::Postgres => {
                let scratch = ScratchDb::create().await?;
                let store = SqlStore::connect(&scratch.database()).await?;
                let row = measure(store.clone(), "postgres", opts).await?;
                store.close().await;
                row
            }
        };
        out.push_str(&row);
    }
    if opts.two_processes && opts.backends.contains(&Backend::Postgres) {
        let scratch = ScratchDb::create().await?;
        out.push_str(&measure_two(&scratch, opts).await?);
    }
    out.push_str(
        "turn: the engine's whole turn as a front end waits for it (model instant);\n\
         commit: the bare INSERT + COMMIT of one row on the same pool, the floor under a turn;\n\
         postgres x2: two processes, each input to one at random (half of them handed over,\n\
         the holder told at once by LISTEN/NOTIFY).",
    );
    Ok(out)
}

async fn measure(store: SqlStore, name: &str, opts: &LoadOptions) -> anyhow::Result<String> {
    let engine = engine(store.clone(), None, instant())?;
    let (library, _) = PuzzleLibrary::load(None);
    let puzzle = library.get("en-arrivals-sign").context("the bundled puzzle en-arrivals-sign")?;
    let mut handles = Vec::with_capacity(opts.sessions);
    for n in 0..opts.sessions {
        let player = Player { id: format!("load:{n}"), name: format!("Player {n}") };
        let (handle, _) = engine.start_session(puzzle.clone(), "bench", 3, player.clone()).await?;
        handles.push((handle, player));
    }
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for (s, (handle, player)) in handles.into_iter().enumerate() {
        let turns = opts.turns;
        tasks.spawn(async move {
            let mut took = Vec::with_capacity(turns);
            for t in 0..turns {
                let inbound = Inbound::new(
                    player.clone(),
                    TurnInput::from(SoupVerb::Ask(format!("Question {t}: was it raining?"))),
                )
                .with_event(format!("load:{s}:{t}"));
                let turn = Instant::now();
                handle.send(inbound).await?;
                took.push(turn.elapsed());
            }
            anyhow::Ok(took)
        });
    }
    let mut turns: Vec<Duration> = Vec::new();
    while let Some(done) = tasks.join_next().await {
        turns.extend(done??);
    }
    let wall = started.elapsed();
    let mut commits = store.time_bare_commits(200, 600).await?;
    let idle = idle_session_kib(&engine, &puzzle, opts.idle).await?;
    Ok(format!(
        "{name:<10} {:>9.0} {:>10} {:>10} {:>12} {:>12} {:>14}\n",
        turns.len() as f64 / wall.as_secs_f64(),
        ms(percentile(&mut turns, 0.50)),
        ms(percentile(&mut turns, 0.99)),
        ms(percentile(&mut commits, 0.50)),
        ms(percentile(&mut commits, 0.99)),
        idle.map_or_else(|| "n/a".to_string(), |k| format!("{k:.1}")),
    ))
}

fn instant() -> RoleModels {
    let model: Arc<InstantModel> = Arc::new(InstantModel::default());
    RoleModels { judge: model.clone(), narrator: model }
}

/// An engine on `store` with `models` (a process, named `owner`).
pub(super) fn engine(store: SqlStore, owner: Option<&str>, models: RoleModels) -> anyhow::Result<Arc<Engine>> {
    let engine = bare_engine(store, models)?;
    Ok(Arc::new(match owner {
        Some(owner) => engine.owned_by(owner),
        None => engine,
    }))
}

/// A process of `bench crash`: the instant model, leases of `lease_ms`.
#[cfg(feature = "fakes")]
pub(super) fn engine_with_lease(store: SqlStore, owner: &str, lease_ms: i64) -> anyhow::Result<Arc<Engine>> {
    Ok(Arc::new(bare_engine(store, instant())?.owned_by(owner).with_lease_ms(lease_ms)))
}

fn bare_engine(store: SqlStore, models: RoleModels) -> anyhow::Result<Engine> {
    let pipeline = Pipeline::new(models, Arc::new(crate::assets::load_prompts(None)?), PipelineSettings::default());
    let store: Arc<dyn Store> = Arc::new(store);
    Ok(Engine::new(pipeline, store, Arc::new(SystemClock), 0))
}

/// The holder's courier: hands each reply it shows to the session's
/// waiting task (its handed-over input was played and shown).
#[derive(Default)]
pub(super) struct Shown(pub(super) std::sync::Mutex<HashMap<String, mpsc::UnboundedSender<Delivery>>>);

impl Courier for Shown {
    fn deliver(&self, session_id: &str, delivery: Delivery) {
        if let Some(tx) = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(session_id) {
            let _ = tx.send(delivery);
        }
    }
}

/// PostgreSQL on two processes: sessions start on `a`, which holds them;
/// each input goes to `a` or `b` at random (a fixed seed).
async fn measure_two(scratch: &ScratchDb, opts: &LoadOptions) -> anyhow::Result<String> {
    let (a_store, b_store) =
        (SqlStore::connect(&scratch.database()).await?, SqlStore::connect(&scratch.database()).await?);
    let a = engine(a_store.clone(), Some("bench-a"), instant())?;
    let b = engine(b_store.clone(), Some("bench-b"), instant())?;
    let shown = Arc::new(Shown::default());
    a.set_courier(shown.clone());
    // The interval `echoes serve` uses: hand-overs are announced (LISTEN/NOTIFY).
    let poll = Duration::from_millis(500);
    let pollers = [a.poll_handoffs(poll), b.poll_handoffs(poll)];
    let (library, _) = PuzzleLibrary::load(None);
    let puzzle = library.get("en-arrivals-sign").context("the bundled puzzle en-arrivals-sign")?;
    let mut sessions = Vec::with_capacity(opts.sessions);
    for n in 0..opts.sessions {
        let player = Player { id: format!("load:{n}"), name: format!("Player {n}") };
        let (on_a, _) = a.start_session(puzzle.clone(), "bench", 3, player.clone()).await?;
        let found = puzzle.clone();
        let (on_b, _) = b.resume_session(&on_a.id, move |_| Some(found)).await?;
        let (tx, rx) = mpsc::unbounded_channel();
        shown.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(on_a.id.clone(), tx);
        sessions.push((on_a, on_b, rx, player));
    }
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for (s, (on_a, on_b, rx, player)) in sessions.into_iter().enumerate() {
        tasks.spawn(play_on_two(s, [on_a, on_b], rx, player, opts.turns));
    }
    let (mut turns, mut handed): (Vec<Duration>, usize) = (Vec::new(), 0);
    while let Some(done) = tasks.join_next().await {
        let (took, n) = done??;
        turns.extend(took);
        handed += n;
    }
    let wall = started.elapsed();
    for poller in pollers {
        poller.abort();
    }
    let counts = crate::store::count_rows(&a_store).await?;
    let played = counts.iter().find(|(table, _)| table == "turns").map_or(0, |(_, n)| *n as usize);
    anyhow::ensure!(
        played == opts.sessions * (opts.turns + 1),
        "{played} turns committed for {} inputs (and a start per session)",
        opts.sessions * opts.turns
    );
    let mut commits = a_store.time_bare_commits(200, 600).await?;
    a_store.close().await;
    b_store.close().await;
    Ok(format!(
        "{:<10} {:>9.0} {:>10} {:>10} {:>12} {:>12} {:>14}\n",
        "postgres x2",
        turns.len() as f64 / wall.as_secs_f64(),
        ms(percentile(&mut turns, 0.50)),
        ms(percentile(&mut turns, 0.99)),
        ms(percentile(&mut commits, 0.50)),
        ms(percentile(&mut commits, 0.99)),
        format!("{}% handed", 100 * handed / turns.len().max(1)),
    ))
}

/// Session `s`'s turns on two processes, each input sent to one of
/// `on` by a fixed xorshift sequence; a handed-over input's turn lasts
/// until `rx` hears the holder showed its reply. Each turn's time, and
/// how many inputs were handed over.
async fn play_on_two(
    s: usize,
    on: [SessionHandle; 2],
    mut rx: mpsc::UnboundedReceiver<Delivery>,
    player: Player,
    turns: usize,
) -> anyhow::Result<(Vec<Duration>, usize)> {
    let mut took = Vec::with_capacity(turns);
    let mut handed = 0usize;
    let mut seed = 0x9E37_79B9_7F4A_7C15u64 ^ (s as u64 + 1);
    for t in 0..turns {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let inbound =
            Inbound::new(player.clone(), TurnInput::from(SoupVerb::Ask(format!("Question {t}: was it raining?"))))
                .with_event(format!("load2:{s}:{t}"));
        let turn = Instant::now();
        let to = if seed.is_multiple_of(2) { &on[0] } else { &on[1] };
        if to.send(inbound).await?.handed_off {
            handed += 1;
            tokio::time::timeout(Duration::from_secs(30), rx.recv())
                .await
                .context("a handed-over input was not played within 30 s")?;
        }
        took.push(turn.elapsed());
    }
    Ok((took, handed))
}

/// Resident memory added per session by opening `n` sessions that wait
/// for input (their actors, queues and game state); `None` off Linux.
async fn idle_session_kib(
    engine: &Arc<Engine>,
    puzzle: &Arc<crate::core::soup::puzzle::Puzzle>,
    n: usize,
) -> anyhow::Result<Option<f64>> {
    let Some(before) = resident_kib() else { return Ok(None) };
    let mut keep = Vec::with_capacity(n);
    for i in 0..n {
        let player = Player { id: format!("idle:{i}"), name: format!("Idle {i}") };
        keep.push(engine.start_session(puzzle.clone(), "bench-idle", 3, player).await?.0);
    }
    let after = resident_kib().unwrap_or(before);
    drop(keep);
    Ok(Some((after.saturating_sub(before)) as f64 / n.max(1) as f64))
}

fn resident_kib() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4)
}

fn percentile(values: &mut [Duration], p: f64) -> Duration {
    if values.is_empty() {
        return Duration::ZERO;
    }
    values.sort_unstable();
    values[((values.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}
