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
//! Replies are shown on a platform of a chosen shape, a local fake run by
//! the parent over loopback, each through the bots' own sending code:
//! `discord` posts each piece with its nonce, which the Discord fake
//! enforces as Discord does (`enforce_nonce`); `slack` marks each piece
//! with its row in Slack's message metadata, and a process showing a
//! reopened session's unsent rows first reads the thread's replies from
//! the Slack fake (`slack/outbox.rs`). "Sent twice" counts rows a worker
//! sent again; "shown twice" counts rows the platform shows more than once.
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
use crate::core::game::{Reply, TurnInput};
use crate::core::vocab::{Language, Player};
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
    /// The platform the replies are shown on.
    pub platform: Shape,
}

/// The shape of the platform replies are shown on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// The Discord fake: a nonce per piece, enforced.
    #[default]
    Discord,
    /// The Slack fake: the row in each message's metadata, the thread read
    /// before showing a reopened session's unsent rows.
    Slack,
}

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Shape::Discord => "discord",
            Shape::Slack => "slack",
        })
    }
}

impl Default for CrashOptions {
    fn default() -> Self {
        CrashOptions {
            runs: 100,
            sessions: 2,
            inputs: 10,
            binary: std::env::current_exe().unwrap_or_else(|_| PathBuf::from("echoes")),
            seed: 11,
            platform: Shape::default(),
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
    /// Rows a worker sent again (a kill between sending and marking sent).
    pub sent_twice: usize,
    /// Rows the platform shows more than once.
    pub shown_twice: usize,
    pub platform: Shape,
    pub seconds: f64,
}

impl std::fmt::Display for CrashFigures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "bench crash ({} platform): {} runs, a process killed (SIGKILL) at a random point in each, {:.1} s\n\
             \x20 inputs {} ({} delivered again to the survivor); turns the killed process committed {}\n\
             \x20 inputs without a turn {}, with more than one {}\n\
             \x20 replies {}: never shown {}, sent twice {} (a kill between sending and marking sent), \
             shown twice {}",
            self.platform,
            self.runs,
            self.seconds,
            self.inputs,
            self.redelivered,
            self.committed_before_kill,
            self.without_turn,
            self.more_than_one_turn,
            self.replies,
            self.never_shown,
            self.sent_twice,
            self.shown_twice,
        )
    }
}

/// A line the parent writes to a worker.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Order {
    /// Open a session (the worker holds it).
    Start { tag: String },
    Input {
        session: String,
        /// The session's thread on Slack.
        thread: Option<String>,
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
        thread: Option<String>,
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
    let platform = Platform::start(opts.platform).await?;
    let started = Instant::now();
    let mut figures = CrashFigures { runs: opts.runs, platform: opts.platform, ..CrashFigures::default() };
    let spawn = |owner: String| Worker::spawn(&opts.binary, &url, owner, opts.platform, platform.url());
    let mut survivor = spawn("survivor".into()).await?;
    let mut dice = Dice::new(opts.seed);
    for run in 0..opts.runs {
        let mut doomed = spawn(format!("doomed-{run}")).await?;
        let mut sessions = Vec::new();
        for s in 0..opts.sessions {
            sessions.push(doomed.start(&format!("{run}:{s}")).await?);
        }
        let events = inputs(run, &sessions, opts.inputs);
        let sessions: Vec<String> = sessions.into_iter().map(|(session, _)| session).collect();
        // The inputs, each to one of the two at random; A dies meanwhile.
        deliver_and_kill(&events, &mut doomed, &mut survivor, &mut dice).await?;
        let mut run_sessions: Vec<&str> = sessions.iter().map(String::as_str).collect();
        run_sessions.sort_unstable();
        figures.committed_before_kill += committed(&store, &run_sessions).await?.values().sum::<usize>();
        figures.redelivered += redeliver(&events, &doomed, &mut survivor).await?;
        settle(&store, &run_sessions, &events, &mut figures).await?;
        count_shown(&store, &run_sessions, [&doomed, &survivor], &platform, &mut figures).await?;
        survivor.forget();
    }
    survivor.kill().await;
    store.close().await;
    figures.seconds = started.elapsed().as_secs_f64();
    Ok(figures)
}

/// A run's inputs, with their event ids: `per_session` questions to each
/// session, the sessions taking turns.
fn inputs(run: usize, sessions: &[(String, Option<String>)], per_session: usize) -> Vec<(String, Order)> {
    let mut events = Vec::new();
    for i in 0..per_session {
        for (s, (session, thread)) in sessions.iter().enumerate() {
            let event = format!("crash:{run}:{s}:{i:03}");
            let order = Order::Input {
                session: session.clone(),
                thread: thread.clone(),
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

/// Waits until every input has a turn and every reply is shown (60 s at
/// most), then counts inputs without a turn or with several, and replies
/// never shown.
async fn settle(
    store: &SqlStore,
    sessions: &[&str],
    events: &[(String, Order)],
    figures: &mut CrashFigures,
) -> anyhow::Result<()> {
    let deadline = Instant::now() + Duration::from_secs(60);
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

/// Counts the run's replies, those a worker sent more than once, and
/// those the platform shows more than once (per outbox row).
async fn count_shown(
    store: &SqlStore,
    sessions: &[&str],
    workers: [&Worker; 2],
    platform: &Platform,
    figures: &mut CrashFigures,
) -> anyhow::Result<()> {
    let mut sent: HashMap<i64, usize> = HashMap::new();
    for outbox in workers.iter().flat_map(|w| w.shown()) {
        *sent.entry(outbox).or_insert(0) += 1;
    }
    let shown = platform.shown();
    let rows = store.outbox_ids(sessions).await?;
    figures.replies += rows.len();
    figures.sent_twice += rows.iter().filter(|id| sent.get(id).is_some_and(|n| *n > 1)).count();
    figures.shown_twice += rows.iter().filter(|id| shown.get(id).is_some_and(|n| *n > 1)).count();
    Ok(())
}

/// The platform the workers show replies on: a fake in this process.
enum Platform {
    Discord(crate::discord::fake::FakeDiscord),
    Slack(crate::slack::fake::FakeSlack),
}

impl Platform {
    async fn start(shape: Shape) -> anyhow::Result<Platform> {
        Ok(match shape {
            Shape::Discord => Platform::Discord(crate::discord::fake::FakeDiscord::start().await?),
            Shape::Slack => Platform::Slack(crate::slack::fake::FakeSlack::start().await?),
        })
    }

    /// The address a worker's client is pointed at.
    fn url(&self) -> String {
        match self {
            Platform::Discord(fake) => fake.base_url().to_owned(),
            Platform::Slack(fake) => fake.endpoint().api_url.unwrap_or_default(),
        }
    }

    /// Messages the platform shows per outbox row: for each row, the most
    /// messages any one of its pieces has.
    fn shown(&self) -> HashMap<i64, usize> {
        let mut pieces: HashMap<(i64, usize), usize> = HashMap::new();
        match self {
            Platform::Discord(fake) => {
                for call in fake.calls().iter().filter(|c| c.is("POST", "/channels/") && c.created.is_some()) {
                    let nonce = call.body["nonce"].as_str().unwrap_or_default();
                    let parsed = nonce.strip_prefix('o').and_then(|n| n.split_once('.'));
                    if let Some((Ok(row), Ok(piece))) = parsed.map(|(r, p)| (r.parse(), p.parse())) {
                        *pieces.entry((row, piece)).or_insert(0) += 1;
                    }
                }
            }
            Platform::Slack(fake) => {
                for call in fake.calls_to("chat.postMessage") {
                    let Ok(content) = serde_json::from_value::<slack_morphism::prelude::SlackMessageContent>(call.body)
                    else {
                        continue;
                    };
                    if let Some(mark) = crate::slack::outbox::marked(&content) {
                        *pieces.entry(mark).or_insert(0) += 1;
                    }
                }
            }
        }
        let mut rows: HashMap<i64, usize> = HashMap::new();
        for ((row, _), n) in pieces {
            let most = rows.entry(row).or_insert(0);
            *most = (*most).max(n);
        }
        rows
    }
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
    async fn spawn(
        binary: &std::path::Path,
        url: &str,
        owner: String,
        platform: Shape,
        platform_url: String,
    ) -> anyhow::Result<Worker> {
        let mut child = Command::new(binary)
            .args(["bench", "worker", "--database", url, "--owner", &owner])
            .arg("--lease-ms")
            .arg(WORKER_LEASE_MS.to_string())
            .args(["--platform", &platform.to_string(), "--platform-url", &platform_url])
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

    /// Opens a session: its id, and its thread on Slack.
    async fn start(&mut self, tag: &str) -> anyhow::Result<(String, Option<String>)> {
        self.send(&Order::Start { tag: tag.to_string() }).await?;
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let found = self.reports.lock().unwrap_or_else(PoisonError::into_inner).iter().find_map(|r| match r {
                Report::Started { tag: t, session, thread } if t == tag => Some((session.clone(), thread.clone())),
                _ => None,
            });
            if let Some(session) = found {
                return Ok(session);
            }
            anyhow::ensure!(Instant::now() < deadline, "a worker did not start a session within 60 s");
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

/// `echoes bench worker`: one bot process for `bench crash`, showing
/// replies on the platform at `platform_url`.
pub async fn worker(
    database: &str,
    owner: &str,
    lease_ms: i64,
    platform: Shape,
    platform_url: &str,
) -> anyhow::Result<()> {
    let store = SqlStore::connect(&Database::parse(database)).await?;
    let engine = super::load::engine_with_lease(store, owner, lease_ms)?;
    let screen = Arc::new(Screen::connect(platform, platform_url)?);
    let ctx = Ctx { handles: Arc::default(), out: Out::default(), screen, threads: Arc::default() };
    engine.set_courier(Arc::new(WorkerCourier { engine: Arc::downgrade(&engine), ctx: ctx.clone() }));
    engine.poll_handoffs(Duration::from_millis(500));
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    while let Some(line) = lines.next_line().await? {
        let Ok(order) = serde_json::from_str::<Order>(&line) else { continue };
        let (engine, ctx) = (engine.clone(), ctx.clone());
        tokio::spawn(async move {
            if let Err(e) = obey(&engine, &ctx, order).await {
                tracing::warn!(error = %e, "a worker's order failed");
            }
        });
    }
    Ok(())
}

/// The sessions open here, and the lock a resume holds.
type Handles = Arc<(Mutex<HashMap<String, SessionHandle>>, tokio::sync::Mutex<()>)>;

/// What a worker's tasks share: open sessions, stdout, the platform and
/// each session's thread there (Slack).
#[derive(Clone)]
struct Ctx {
    handles: Handles,
    out: Out,
    screen: Arc<Screen>,
    threads: Arc<Mutex<HashMap<String, String>>>,
}

impl Ctx {
    fn thread(&self, session: &str) -> Option<String> {
        self.threads.lock().unwrap_or_else(PoisonError::into_inner).get(session).cloned()
    }
}

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

/// A worker's client for the platform, as the bots post.
enum Screen {
    Discord(poise::serenity_prelude::Http),
    Slack(Arc<slack_morphism::prelude::SlackHyperClient>, slack_morphism::prelude::SlackApiToken),
}

/// The bot token both fakes take.
const FAKE_TOKEN: &str = "fake-token";
/// Pieces one reply is shown in at most.
const MAX_PIECES: usize = 3;

impl Screen {
    fn connect(platform: Shape, url: &str) -> anyhow::Result<Screen> {
        Ok(match platform {
            Shape::Discord => Screen::Discord(
                poise::serenity_prelude::HttpBuilder::new(FAKE_TOKEN).proxy(url).ratelimiter_disabled(true).build(),
            ),
            Shape::Slack => {
                let endpoint = crate::slack::Endpoint { bot_token: FAKE_TOKEN.into(), api_url: Some(url.into()) };
                let token = slack_morphism::prelude::SlackApiToken::new(FAKE_TOKEN.to_owned().into());
                Screen::Slack(crate::slack::client(&endpoint)?, token)
            }
        })
    }

    /// A new session's thread: on Slack, a message in the channel that
    /// its replies go under.
    async fn open_thread(&self, tag: &str) -> anyhow::Result<Option<String>> {
        let Screen::Slack(client, token) = self else { return Ok(None) };
        let content = slack_morphism::prelude::SlackMessageContent::new().with_text(format!("crash run {tag}"));
        let request = slack_morphism::prelude::SlackApiChatPostMessageRequest::new(SLACK_CHANNEL.into(), content);
        let posted = client.open_session(token).chat_post_message(&request).await?;
        Ok(Some(posted.ts.to_string()))
    }

    /// Shows outbox rows (`again`: a reopened session's unsent rows, which
    /// the platform may show in part already).
    async fn show(&self, thread: Option<&str>, rows: &[(i64, Reply)], again: bool) -> anyhow::Result<()> {
        match self {
            Screen::Discord(http) => {
                let channel = poise::serenity_prelude::ChannelId::new(crate::discord::fake::CHANNEL);
                for (row, reply) in rows {
                    crate::discord::send::post(http, channel, reply, Language::En, MAX_PIECES, None, Some(*row))
                        .await?;
                }
            }
            Screen::Slack(client, token) => {
                let thread = thread.context("a Slack session without its thread")?;
                let session = client.open_session(token);
                let shown = if again {
                    crate::slack::outbox::shown_in_thread(&session, SLACK_CHANNEL, thread).await?
                } else {
                    crate::slack::outbox::Shown::default()
                };
                for (row, reply) in rows {
                    for (i, piece) in crate::slack::render::plan(reply, Language::En, MAX_PIECES).iter().enumerate() {
                        if shown.has(*row, i) {
                            continue;
                        }
                        let content = crate::slack::outbox::outbox_text(piece, Some((*row, i)));
                        let request =
                            slack_morphism::prelude::SlackApiChatPostMessageRequest::new(SLACK_CHANNEL.into(), content)
                                .with_thread_ts(thread.into());
                        session.chat_post_message(&request).await?;
                    }
                }
            }
        }
        Ok(())
    }
}

const SLACK_CHANNEL: &str = crate::slack::fake::CHANNEL;

async fn obey(engine: &Arc<Engine>, ctx: &Ctx, order: Order) -> anyhow::Result<()> {
    match order {
        Order::Start { tag } => {
            let (library, _) = PuzzleLibrary::load(None);
            let puzzle = library.get("en-arrivals-sign").context("the bundled puzzle en-arrivals-sign")?;
            let host = Player { id: format!("crash-host:{tag}"), name: "Host".into() };
            let (handle, intro) = engine.start_session(puzzle, "crash", 3, host).await?;
            let thread = ctx.screen.open_thread(&tag).await?;
            if let Some(thread) = &thread {
                ctx.threads.lock().unwrap_or_else(PoisonError::into_inner).insert(handle.id.clone(), thread.clone());
            }
            show(ctx, engine, &handle.id, &intro).await?;
            ctx.handles.0.lock().unwrap_or_else(PoisonError::into_inner).insert(handle.id.clone(), handle.clone());
            ctx.out.say(&Report::Started { tag, session: handle.id, thread });
        }
        Order::Input { session, thread, event, player, text } => {
            if let Some(thread) = thread {
                ctx.threads.lock().unwrap_or_else(PoisonError::into_inner).insert(session.clone(), thread);
            }
            let player = Player { id: player.clone(), name: player };
            let mut tries = 0;
            let delivery = loop {
                let handle = open(engine, ctx, &session).await?;
                let inbound = Inbound::new(player.clone(), TurnInput::from(SoupVerb::Ask(text.clone())))
                    .with_event(event.clone());
                match handle.send(inbound).await {
                    // Its actor stopped (another process played the session): open it anew.
                    Err(EngineError::Stopped) if tries < 3 => tries += 1,
                    done => break done?,
                }
            };
            if !delivery.handed_off && !delivery.duplicate {
                show(ctx, engine, &session, &delivery).await?;
            }
            ctx.out.say(&Report::Took { event });
        }
    }
    Ok(())
}

/// Shows a fresh reply on the platform, then marks its rows sent.
async fn show(ctx: &Ctx, engine: &Engine, session: &str, delivery: &Delivery) -> anyhow::Result<()> {
    let rows: Vec<(i64, Reply)> = delivery
        .outbox_id
        .map(|id| (id, delivery.reply.clone()))
        .into_iter()
        .chain(delivery.messages.iter().filter_map(|m| Some((m.outbox_id?, m.reply.clone()))))
        .collect();
    shown(ctx, engine, session, &rows, false).await
}

/// Rows shown on the platform, reported, then marked sent: a kill in
/// between leaves a row the platform shows but the record calls unsent.
async fn shown(ctx: &Ctx, engine: &Engine, session: &str, rows: &[(i64, Reply)], again: bool) -> anyhow::Result<()> {
    ctx.screen.show(ctx.thread(session).as_deref(), rows, again).await?;
    for (id, _) in rows {
        ctx.out.say(&Report::Shown { outbox: *id });
        engine.store.mark_sent(*id).await?;
    }
    Ok(())
}

/// The session's live handle, or the session resumed from the record with
/// its unsent replies shown (as the bots do on resume).
async fn open(engine: &Arc<Engine>, ctx: &Ctx, session: &str) -> anyhow::Result<SessionHandle> {
    let handles = &ctx.handles;
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
    let unsent: Vec<(i64, Reply)> = engine
        .unsent_if_held(session)
        .await?
        .into_iter()
        .map(|item| (item.id, Reply::new(item.kind, item.body)))
        .collect();
    if !unsent.is_empty() {
        shown(ctx, engine, session, &unsent, true).await?;
    }
    Ok(handle)
}

struct WorkerCourier {
    engine: Weak<Engine>,
    ctx: Ctx,
}

impl Courier for WorkerCourier {
    fn deliver(&self, session_id: &str, delivery: Delivery) {
        let Some(engine) = self.engine.upgrade() else { return };
        let (ctx, session) = (self.ctx.clone(), session_id.to_string());
        tokio::spawn(async move {
            if let Err(e) = show(&ctx, &engine, &session, &delivery).await {
                tracing::warn!(error = %e, "could not show a reply");
            }
        });
    }

    fn reopen(&self, session_id: &str) {
        let Some(engine) = self.engine.upgrade() else { return };
        let (ctx, session) = (self.ctx.clone(), session_id.to_string());
        ctx.handles.0.lock().unwrap_or_else(PoisonError::into_inner).remove(&session);
        tokio::spawn(async move {
            if let Err(e) = open(&engine, &ctx, &session).await {
                tracing::warn!(error = %e, "could not reopen a session");
            }
        });
    }
}
