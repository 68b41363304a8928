//! `echoes bench crash`: bot processes killed with SIGKILL at random points
//! while they play, on one PostgreSQL database (a scratch database on
//! `$ECHOES_TEST_POSTGRES`). Each process is this binary running `echoes
//! bench worker`: an engine with an instant model behind a line protocol
//! on stdin and stdout, standing for a bot front end (it shows a reply by
//! printing its outbox id, then marks it sent; a session it reopens has its
//! unsent replies shown, as the bots do on resume).
//!
//! Each run starts a process A that opens two sessions, sends their inputs
//! to A or to the survivor B at random, and kills A at a random moment.
//! The platform then delivers again every input A had not acknowledged, to
//! B, which takes A's sessions over once A's leases run out. A run ends
//! when every input has its turn and every reply was shown. Counted over
//! all runs: inputs without a turn, inputs with more than one, replies
//! never shown, and replies shown twice (a kill between showing a reply and
//! marking it sent; Discord's `enforce_nonce` absorbs such a resend).
//!
//! A benchmark, not a test: it prints numbers and asserts nothing
//! (`tests/it/engine/crash.rs` runs a few).

use crate::core::soup::verbs::SoupVerb;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, Instant};

use anyhow::Context;
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};

use crate::core::actor::{Courier, Delivery, Engine, EngineError, Inbound, SessionHandle};
use crate::core::game::TurnInput;
use crate::core::vocab::Player;
use crate::puzzles::PuzzleLibrary;
use crate::store::scratch::ScratchDb;
use crate::store::{Database, SqlStore};

use super::processes::Dice;

/// A worker's lease: short, so a run's take-over is quick.
const WORKER_LEASE_MS: i64 = 500;

#[derive(Debug, Clone)]
pub struct CrashOptions {
    pub runs: usize,
    /// Sessions A opens per run, and inputs per session.
    pub sessions: usize,
    pub inputs: usize,
    /// The `echoes` binary the workers run (this one by default).
    pub binary: PathBuf,
    pub seed: u64,
}

impl Default for CrashOptions {
    fn default() -> Self {
        CrashOptions {
            runs: 100,
            sessions: 2,
            inputs: 10,
            binary: std::env::current_exe().unwrap_or_else(|_| PathBuf::from("echoes")),
            seed: 11,
        }
    }
}

/// What the runs found.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct CrashFigures {
    pub runs: usize,
    pub inputs: usize,
    pub redelivered: usize,
    /// Turns committed by the process that was killed.
    pub committed_before_kill: usize,
    pub without_turn: usize,
    pub more_than_one_turn: usize,
    pub replies: usize,
    pub never_shown: usize,
    pub shown_twice: usize,
    pub seconds: f64,
}

impl std::fmt::Display for CrashFigures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "bench crash: {} runs, a process killed (SIGKILL) at a random point in each, {:.1} s\n\
             \x20 inputs {} ({} delivered again to the survivor); turns the killed process committed {}\n\
             \x20 inputs without a turn {}, with more than one {}\n\
             \x20 replies {}: never shown {}, shown twice {} (a kill between showing and marking sent)",
            self.runs,
            self.seconds,
            self.inputs,
            self.redelivered,
            self.committed_before_kill,
            self.without_turn,
            self.more_than_one_turn,
            self.replies,
            self.never_shown,
            self.shown_twice,
        )
    }
}

/// A line the parent writes to a worker.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Order {
    /// Open a session (the worker holds it).
    Start {
        tag: String,
    },
    Input {
        session: String,
        event: String,
        player: String,
        text: String,
    },
}

/// A line a worker writes.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Report {
    Started {
        tag: String,
        session: String,
    },
    /// The input was taken: played (and its reply shown), answered from
    /// the record, or handed to the session's holder.
    Took {
        event: String,
    },
    /// A reply shown (by the front end, the courier, or on reopening).
    Shown {
        outbox: i64,
    },
}

pub async fn run(opts: &CrashOptions) -> anyhow::Result<CrashFigures> {
    let scratch = ScratchDb::create().await?;
    let url = match scratch.database() {
        Database::Postgres(url) => url,
        Database::Sqlite(_) => anyhow::bail!("bench crash needs PostgreSQL"),
    };
    let store = SqlStore::connect(&scratch.database()).await?;
    let started = Instant::now();
    let mut figures = CrashFigures { runs: opts.runs, ..CrashFigures::default() };
    let mut survivor = Worker::spawn(&opts.binary, &url, "survivor").await?;
    let mut dice = Dice::new(opts.seed);
    for run in 0..opts.runs {
        let mut doomed = Worker::spawn(&opts.binary, &url, &format!("doomed-{run}")).await?;
        let mut sessions = Vec::new();
        for s in 0..opts.sessions {
            sessions.push(doomed.start(&format!("{run}:{s}")).await?);
        }
        let events = inputs(run, &sessions, opts.inputs);
        // The inputs, each to one of the two at random; A dies meanwhile.
        deliver_and_kill(&events, &mut doomed, &mut survivor, &mut dice).await?;
        let mut run_sessions: Vec<&str> = sessions.iter().map(String::as_str).collect();
        run_sessions.sort_unstable();
        figures.committed_before_kill += committed(&store, &run_sessions).await?.values().sum::<usize>();
        figures.redelivered += redeliver(&events, &doomed, &mut survivor).await?;
        settle(&store, &run_sessions, &events, &mut figures).await?;
        count_shown(&store, &run_sessions, &doomed, &survivor, &mut figures).await?;
        survivor.forget();
    }
    survivor.kill().await;
    store.close().await;
    figures.seconds = started.elapsed().as_secs_f64();
    Ok(figures)
}

/// A run's inputs, with their event ids: `per_session` questions to each
/// session, the sessions taking turns.
fn inputs(run: usize, sessions: &[String], per_session: usize) -> Vec<(String, Order)> {
    let mut events = Vec::new();
    for i in 0..per_session {
        for (s, session) in sessions.iter().enumerate() {
            let event = format!("crash:{run}:{s}:{i:03}");
            let order = Order::Input {
                session: session.clone(),
                event: event.clone(),
                player: format!("crash:{s}"),
                text: format!("Question {i}: was it raining?"),
            };
            events.push((event, order));
        }
    }
    events
}

/// Sends each input to one of the two processes at random, killing the
/// doomed one before a random input (and at the end if it still lives).
async fn deliver_and_kill(
    events: &[(String, Order)],
    doomed: &mut Worker,
    survivor: &mut Worker,
    dice: &mut Dice,
) -> anyhow::Result<()> {
    let kill_after = dice.below(events.len() as u64) as usize;
    for (n, (_, order)) in events.iter().enumerate() {
        if n == kill_after {
            tokio::time::sleep(Duration::from_millis(dice.below(30))).await;
            doomed.kill().await;
        }
        let to = if dice.below(2) == 0 { &mut *doomed } else { &mut *survivor };
        if !to.dead {
            to.send(order).await?;
        }
        tokio::time::sleep(Duration::from_millis(dice.below(5))).await;
    }
    if !doomed.dead {
        doomed.kill().await;
    }
    Ok(())
}

/// The platform delivers again to the survivor what neither process took
/// (after the survivor's last acknowledgements had time to arrive); how
/// many inputs that was.
async fn redeliver(events: &[(String, Order)], doomed: &Worker, survivor: &mut Worker) -> anyhow::Result<usize> {
    tokio::time::sleep(Duration::from_millis(200)).await;
    let took: HashSet<String> = survivor.took().union(&doomed.took()).cloned().collect();
    let mut redelivered = 0;
    for (event, order) in events {
        if !took.contains(event) {
            survivor.send(order).await?;
            redelivered += 1;
        }
    }
    Ok(redelivered)
}

/// Waits until every input has a turn and every reply is shown (20 s at
/// most), then counts inputs without a turn or with several, and replies
/// never shown.
async fn settle(
    store: &SqlStore,
    sessions: &[&str],
    events: &[(String, Order)],
    figures: &mut CrashFigures,
) -> anyhow::Result<()> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let turns = committed(store, sessions).await?;
        let mut unsent = 0;
        for session in sessions {
            unsent += crate::core::store::SessionRecord::unsent(store, session).await?.len();
        }
        if (turns.len() >= events.len() && unsent == 0) || Instant::now() > deadline {
            figures.inputs += events.len();
            figures.without_turn += events.iter().filter(|(e, _)| !turns.contains_key(e)).count();
            figures.more_than_one_turn += turns.values().filter(|n| **n > 1).count();
            figures.never_shown += unsent;
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Counts the run's replies and those shown more than once, by either
/// process (per outbox row).
async fn count_shown(
    store: &SqlStore,
    sessions: &[&str],
    doomed: &Worker,
    survivor: &Worker,
    figures: &mut CrashFigures,
) -> anyhow::Result<()> {
    let mut shown: HashMap<i64, usize> = HashMap::new();
    for outbox in doomed.shown().into_iter().chain(survivor.shown()) {
        *shown.entry(outbox).or_insert(0) += 1;
    }
    let rows = store.outbox_ids(sessions).await?;
    figures.replies += rows.len();
    figures.shown_twice += rows.iter().filter(|id| shown.get(id).is_some_and(|n| *n > 1)).count();
    Ok(())
}

/// Turns per event id in `sessions`.
async fn committed(store: &SqlStore, sessions: &[&str]) -> anyhow::Result<HashMap<String, usize>> {
    let mut per = HashMap::new();
    for (session, events) in store.event_ids().await? {
        if sessions.binary_search(&session.as_str()).is_ok() {
            for event in events {
                *per.entry(event).or_insert(0) += 1;
            }
        }
    }
    Ok(per)
}

/// A worker process as the parent sees it.
struct Worker {
    child: Child,
    stdin: ChildStdin,
    reports: Arc<Mutex<Vec<Report>>>,
    dead: bool,
}

impl Worker {
    async fn spawn(binary: &std::path::Path, url: &str, owner: &str) -> anyhow::Result<Worker> {
        let mut child = Command::new(binary)
            .args(["bench", "worker", "--database", url, "--owner", owner])
            .arg("--lease-ms")
            .arg(WORKER_LEASE_MS.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("starting {}", binary.display()))?;
        let stdin = child.stdin.take().context("the worker's stdin")?;
        let stdout = child.stdout.take().context("the worker's stdout")?;
        let reports: Arc<Mutex<Vec<Report>>> = Arc::default();
        let sink = reports.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stdout).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                if let Ok(report) = serde_json::from_str::<Report>(&line) {
                    sink.lock().unwrap_or_else(PoisonError::into_inner).push(report);
                }
            }
        });
        Ok(Worker { child, stdin, reports, dead: false })
    }

    async fn send(&mut self, order: &Order) -> anyhow::Result<()> {
        let mut line = serde_json::to_string(order)?;
        line.push('\n');
        self.stdin.write_all(line.as_bytes()).await.context("writing to a worker")?;
        Ok(self.stdin.flush().await?)
    }

    async fn start(&mut self, tag: &str) -> anyhow::Result<String> {
        self.send(&Order::Start { tag: tag.to_string() }).await?;
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let found = self.reports.lock().unwrap_or_else(PoisonError::into_inner).iter().find_map(|r| match r {
                Report::Started { tag: t, session } if t == tag => Some(session.clone()),
                _ => None,
            });
            if let Some(session) = found {
                return Ok(session);
            }
            anyhow::ensure!(Instant::now() < deadline, "a worker did not start a session within 20 s");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    async fn kill(&mut self) {
        // SIGKILL: nothing of the process runs after this.
        let _ = self.child.kill().await;
        self.dead = true;
    }

    fn took(&self) -> HashSet<String> {
        let reports = self.reports.lock().unwrap_or_else(PoisonError::into_inner);
        reports.iter().filter_map(|r| if let Report::Took { event } = r { Some(event.clone()) } else { None }).collect()
    }

    fn shown(&self) -> Vec<i64> {
        let reports = self.reports.lock().unwrap_or_else(PoisonError::into_inner);
        reports.iter().filter_map(|r| if let Report::Shown { outbox } = r { Some(*outbox) } else { None }).collect()
    }

    /// Drops what it reported so far (the next run counts afresh).
    fn forget(&mut self) {
        self.reports.lock().unwrap_or_else(PoisonError::into_inner).clear();
    }
}

/// `echoes bench worker`: one bot process for `bench crash`.
pub async fn worker(database: &str, owner: &str, lease_ms: i64) -> anyhow::Result<()> {
    let store = SqlStore::connect(&Database::parse(database)).await?;
    let engine = super::load::engine_with_lease(store, owner, lease_ms)?;
    let out = Out::default();
    let handles: Handles = Arc::default();
    engine.set_courier(Arc::new(WorkerCourier {
        engine: Arc::downgrade(&engine),
        handles: handles.clone(),
        out: out.clone(),
    }));
    engine.poll_handoffs(Duration::from_millis(500));
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    while let Some(line) = lines.next_line().await? {
        let Ok(order) = serde_json::from_str::<Order>(&line) else { continue };
        let (engine, handles, out) = (engine.clone(), handles.clone(), out.clone());
        tokio::spawn(async move {
            if let Err(e) = obey(&engine, &handles, &out, order).await {
                tracing::warn!(error = %e, "a worker's order failed");
            }
        });
    }
    Ok(())
}

/// The sessions open here, and the lock a resume holds.
type Handles = Arc<(Mutex<HashMap<String, SessionHandle>>, tokio::sync::Mutex<()>)>;

/// Lines to stdout, one whole line at a time.
#[derive(Clone, Default)]
struct Out(Arc<Mutex<()>>);

impl Out {
    fn say(&self, report: &Report) {
        use std::io::Write;
        let _one = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Ok(line) = serde_json::to_string(report) {
            let mut stdout = std::io::stdout().lock();
            let _ = writeln!(stdout, "{line}");
            let _ = stdout.flush();
        }
    }
}

async fn obey(engine: &Arc<Engine>, handles: &Handles, out: &Out, order: Order) -> anyhow::Result<()> {
    match order {
        Order::Start { tag } => {
            let (library, _) = PuzzleLibrary::load(None);
            let puzzle = library.get("en-arrivals-sign").context("the bundled puzzle en-arrivals-sign")?;
            let host = Player { id: format!("crash-host:{tag}"), name: "Host".into() };
            let (handle, intro) = engine.start_session(puzzle, "crash", 3, host).await?;
            show(out, engine, &intro).await?;
            handles.0.lock().unwrap_or_else(PoisonError::into_inner).insert(handle.id.clone(), handle.clone());
            out.say(&Report::Started { tag, session: handle.id });
        }
        Order::Input { session, event, player, text } => {
            let player = Player { id: player.clone(), name: player };
            let mut tries = 0;
            let delivery = loop {
                let handle = open(engine, handles, out, &session).await?;
                let inbound = Inbound::new(player.clone(), TurnInput::from(SoupVerb::Ask(text.clone())))
                    .with_event(event.clone());
                match handle.send(inbound).await {
                    // Its actor stopped (another process played the session): open it anew.
                    Err(EngineError::Stopped) if tries < 3 => tries += 1,
                    done => break done?,
                }
            };
            if !delivery.handed_off && !delivery.duplicate {
                show(out, engine, &delivery).await?;
            }
            out.say(&Report::Took { event });
        }
    }
    Ok(())
}

/// Shows a reply (prints its outbox rows), then marks it sent.
async fn show(out: &Out, engine: &Engine, delivery: &Delivery) -> anyhow::Result<()> {
    for id in delivery.outbox_id.into_iter().chain(delivery.messages.iter().filter_map(|m| m.outbox_id)) {
        out.say(&Report::Shown { outbox: id });
        engine.store.mark_sent(id).await?;
    }
    Ok(())
}

/// The session's live handle, or the session resumed from the record with
/// its unsent replies shown (as the bots do on resume).
async fn open(engine: &Arc<Engine>, handles: &Handles, out: &Out, session: &str) -> anyhow::Result<SessionHandle> {
    let live = |handles: &Handles| {
        let handle = handles.0.lock().unwrap_or_else(PoisonError::into_inner).get(session).cloned();
        handle.filter(|h| !h.is_closed())
    };
    if let Some(handle) = live(handles) {
        return Ok(handle);
    }
    // One resume at a time, so two inputs never start two actors.
    let _one = handles.1.lock().await;
    if let Some(handle) = live(handles) {
        return Ok(handle);
    }
    let (library, _) = PuzzleLibrary::load(None);
    let (handle, _) = engine.resume_session(session, |id| library.get(id)).await?;
    handles.0.lock().unwrap_or_else(PoisonError::into_inner).insert(session.to_string(), handle.clone());
    for item in engine.unsent_if_held(session).await? {
        out.say(&Report::Shown { outbox: item.id });
        engine.store.mark_sent(item.id).await?;
    }
    Ok(handle)
}

struct WorkerCourier {
    engine: Weak<Engine>,
    handles: Handles,
    out: Out,
}

impl Courier for WorkerCourier {
    fn deliver(&self, _session_id: &str, delivery: Delivery) {
        let Some(engine) = self.engine.upgrade() else { return };
        let out = self.out.clone();
        tokio::spawn(async move {
            if let Err(e) = show(&out, &engine, &delivery).await {
                tracing::warn!(error = %e, "could not mark a reply sent");
            }
        });
    }

    fn reopen(&self, session_id: &str) {
        let Some(engine) = self.engine.upgrade() else { return };
        let (handles, out, session) = (self.handles.clone(), self.out.clone(), session_id.to_string());
        handles.0.lock().unwrap_or_else(PoisonError::into_inner).remove(&session);
        tokio::spawn(async move {
            if let Err(e) = open(&engine, &handles, &out, &session).await {
                tracing::warn!(error = %e, "could not reopen a session");
            }
        });
    }
}
