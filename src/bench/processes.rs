//! `echoes bench processes`: the proof that two processes sharing one
//! PostgreSQL database (a scratch database on `$ECHOES_TEST_POSTGRES`, by
//! default the local server) play every input once, in order, whatever the
//! platform and the model do. Two engines with their own connection pools,
//! lease-holder names and hand-over listeners stand for the two processes;
//! sessions start on the first, and every input goes to either at random
//! (the other hands it over through the database, the holder's courier
//! shows the reply). A front end shows a reply it got back (unless it was
//! handed over or answered from the record); the courier shows the rest.
//!
//! - **Redelivery**: every input delivered 1–4 times at once, each copy to
//!   a random process: turns committed per input, replies shown per input.
//! - **Order**: 50 players × 20 messages into one session across the two
//!   processes, each player's next message sent once the last was taken:
//!   the order each player's messages were applied in, and the most model
//!   calls ever in flight for the session.
//! - **Model faults**: timeouts, HTTP 5xx, an unreachable provider, garbage
//!   and truncated output at random: every input answered with one line,
//!   and no turn half written (a turn without its reply, or the reverse).
//! - **Database restart**: the processes on a PostgreSQL server of the
//!   bench's own, stopped mid-games for `--outage-seconds` and started
//!   again. An input refused as "the database is away" is sent again, as
//!   a player would: inputs refused, inputs without a turn or with two,
//!   half-written turns, and the time from the restart to the first turn.
//!
//! A benchmark, not a test: it prints numbers and asserts nothing.

use crate::core::soup::verbs::SoupVerb;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::Context;
use async_trait::async_trait;
use tokio::sync::mpsc;

use super::load::Shown;
use crate::bot::instant::InstantModel;
use crate::core::actor::{Delivery, Engine, Inbound, SessionHandle};
use crate::core::game::TurnInput;
use crate::core::llm::{ChatRequest, ChatResponse, LlmClient, LlmError, RoleModels};
use crate::core::vocab::Player;
use crate::puzzles::PuzzleLibrary;
use crate::store::SqlStore;
use crate::store::scratch::{OwnServer, ScratchDb};

#[derive(Debug, Clone)]
pub struct ProcessOptions {
    /// Sessions in the redelivery and model-fault runs.
    pub sessions: usize,
    /// Inputs per session there.
    pub turns: usize,
    /// Players and messages each in the one session of the order run.
    pub players: usize,
    pub messages: usize,
    pub seed: u64,
    /// How long the database stays stopped in the restart run (0: no run).
    pub outage: Duration,
}

impl Default for ProcessOptions {
    fn default() -> Self {
        ProcessOptions { sessions: 20, turns: 20, players: 50, messages: 20, seed: 7, outage: Duration::from_secs(60) }
    }
}

pub async fn run(opts: &ProcessOptions) -> anyhow::Result<String> {
    let mut out = String::from("bench processes: two processes on one PostgreSQL database\n");
    out.push_str(&redelivery(opts).await?);
    out.push_str(&order(opts).await?);
    out.push_str(&faults(opts).await?);
    if !opts.outage.is_zero() {
        out.push_str(&restart(opts).await?);
    }
    Ok(out)
}

/// A small deterministic random source (xorshift).
#[derive(Clone)]
pub(super) struct Dice(u64);

impl Dice {
    pub(super) fn new(seed: u64) -> Self {
        Dice(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub(super) fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

/// Two processes on one scratch database.
struct Pair {
    a: Arc<Engine>,
    b: Arc<Engine>,
    stores: [SqlStore; 2],
    shown: Arc<Shown>,
    pollers: Vec<tokio::task::JoinHandle<()>>,
    _scratch: ScratchDb,
}

impl Pair {
    async fn new(models: RoleModels) -> anyhow::Result<Pair> {
        Pair::on(&ScratchDb::server(), models).await
    }

    /// Two processes on a scratch database of `server`.
    async fn on(server: &str, models: RoleModels) -> anyhow::Result<Pair> {
        let scratch = ScratchDb::create_on(server).await?;
        let stores = [SqlStore::connect(&scratch.database()).await?, SqlStore::connect(&scratch.database()).await?];
        let a = super::load::engine(stores[0].clone(), Some("proof-a"), models.clone())?;
        let b = super::load::engine(stores[1].clone(), Some("proof-b"), models)?;
        let shown = Arc::new(Shown::default());
        a.set_courier(shown.clone());
        b.set_courier(shown.clone());
        // The interval `echoes serve` uses: hand-overs are announced.
        let every = Duration::from_millis(500);
        let pollers = vec![a.poll_handoffs(every), b.poll_handoffs(every)];
        Ok(Pair { a, b, stores, shown, pollers, _scratch: scratch })
    }

    /// A session started on `a` and opened on `b`, and its courier's replies.
    async fn session(
        &self,
        n: usize,
    ) -> anyhow::Result<(SessionHandle, SessionHandle, mpsc::UnboundedReceiver<Delivery>, Player)> {
        let (library, _) = PuzzleLibrary::load(None);
        let puzzle = library.get("en-arrivals-sign").context("the bundled puzzle en-arrivals-sign")?;
        let player = Player { id: format!("proof:{n}"), name: format!("Player {n}") };
        let (on_a, _) = self.a.start_session(puzzle.clone(), "bench", 3, player.clone()).await?;
        let (on_b, _) = self.b.resume_session(&on_a.id, move |_| Some(puzzle.clone())).await?;
        let (tx, rx) = mpsc::unbounded_channel();
        self.shown.0.lock().unwrap_or_else(PoisonError::into_inner).insert(on_a.id.clone(), tx);
        Ok((on_a, on_b, rx, player))
    }

    /// Turns committed per event id, over every session.
    async fn turns_per_event(&self, prefix: &str) -> anyhow::Result<HashMap<String, usize>> {
        let mut per = HashMap::new();
        for (_, events) in self.stores[0].event_ids().await? {
            for event in events.into_iter().filter(|e| e.starts_with(prefix)) {
                *per.entry(event).or_insert(0) += 1;
            }
        }
        Ok(per)
    }

    async fn close(self) {
        for poller in &self.pollers {
            poller.abort();
        }
        self.a.stop();
        self.b.stop();
        for store in &self.stores {
            store.close().await;
        }
    }
}

fn ask(player: &Player, text: String, event: &str) -> Inbound {
    Inbound::new(player.clone(), TurnInput::from(SoupVerb::Ask(text))).with_event(event.to_string())
}

/// Shown by the front end that sent it: played here, not a repeat.
fn shown_directly(d: &Delivery) -> bool {
    !d.duplicate && !d.handed_off && !d.is_silent()
}

async fn redelivery(opts: &ProcessOptions) -> anyhow::Result<String> {
    let model: Arc<InstantModel> = Arc::new(InstantModel::default());
    let pair = Pair::new(RoleModels { judge: model.clone(), narrator: model }).await?;
    let mut tasks = tokio::task::JoinSet::new();
    let started = Instant::now();
    for s in 0..opts.sessions {
        let (on_a, on_b, mut rx, player) = pair.session(s).await?;
        let (turns, mut dice) = (opts.turns, Dice::new(opts.seed ^ s as u64));
        tasks.spawn(async move {
            let (mut copies, mut shown, mut lost) = (0usize, 0usize, 0usize);
            for t in 0..turns {
                let event = format!("redeliver:{s}:{t:04}");
                let mut sends = tokio::task::JoinSet::new();
                for _ in 0..=dice.below(4) {
                    let to = if dice.below(2) == 0 { on_a.clone() } else { on_b.clone() };
                    let inbound = ask(&player, format!("Question {t}: was it raining?"), &event);
                    sends.spawn(async move { to.send(inbound).await });
                    copies += 1;
                }
                let mut direct = 0;
                while let Some(sent) = sends.join_next().await {
                    if sent?.is_ok_and(|d| shown_directly(&d)) {
                        direct += 1;
                    }
                }
                shown += direct;
                if direct == 0 {
                    // Played by the holder: its courier shows it.
                    match tokio::time::timeout(Duration::from_secs(30), rx.recv()).await {
                        Ok(Some(_)) => shown += 1,
                        _ => lost += 1,
                    }
                }
            }
            // Anything the couriers show later is a reply shown twice.
            tokio::time::sleep(Duration::from_millis(600)).await;
            while rx.try_recv().is_ok() {
                shown += 1;
            }
            anyhow::Ok((copies, shown, lost))
        });
    }
    let (mut copies, mut shown, mut lost) = (0, 0, 0);
    while let Some(done) = tasks.join_next().await {
        let (c, s, l) = done??;
        (copies, shown, lost) = (copies + c, shown + s, lost + l);
    }
    let wall = started.elapsed();
    let inputs = opts.sessions * opts.turns;
    let turns = pair.turns_per_event("redeliver:").await?;
    let committed: usize = turns.values().sum();
    let twice = turns.values().filter(|n| **n > 1).count();
    pair.close().await;
    Ok(format!(
        "redelivery: {inputs} inputs delivered {copies} times (1-4 each, to a random process) in {:.1} s\n\
         \x20 turns committed {committed} ({} inputs without a turn, {twice} with more than one)\n\
         \x20 replies shown {shown} ({} shown twice, {lost} inputs with no reply)\n",
        wall.as_secs_f64(),
        inputs.saturating_sub(turns.len()),
        shown.saturating_sub(inputs - lost),
    ))
}

/// Counts the model calls in flight (one session: at most one should be).
struct Counting {
    inner: Arc<dyn LlmClient>,
    now: AtomicUsize,
    most: AtomicUsize,
    calls: AtomicUsize,
}

#[async_trait]
impl LlmClient for Counting {
    fn describe(&self) -> String {
        self.inner.describe()
    }

    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError> {
        let now = self.now.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(now, Ordering::SeqCst);
        self.calls.fetch_add(1, Ordering::SeqCst);
        // A model that takes a little time, so overlapping calls would show.
        tokio::time::sleep(Duration::from_millis(1)).await;
        let reply = self.inner.chat(request).await;
        self.now.fetch_sub(1, Ordering::SeqCst);
        reply
    }

    async fn health(&self) -> Result<(), LlmError> {
        Ok(())
    }
}

async fn order(opts: &ProcessOptions) -> anyhow::Result<String> {
    let model = Arc::new(Counting {
        inner: Arc::new(InstantModel::default()),
        now: AtomicUsize::new(0),
        most: AtomicUsize::new(0),
        calls: AtomicUsize::new(0),
    });
    let pair = Pair::new(RoleModels { judge: model.clone(), narrator: model.clone() }).await?;
    let (on_a, on_b, _rx, _) = pair.session(0).await?;
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for p in 0..opts.players {
        let (on_a, on_b, messages) = (on_a.clone(), on_b.clone(), opts.messages);
        let mut dice = Dice::new(opts.seed ^ (1000 + p as u64));
        let player = Player { id: format!("order:{p}"), name: format!("Player {p}") };
        tasks.spawn(async move {
            let mut handed = 0usize;
            for m in 0..messages {
                let to = if dice.below(2) == 0 { &on_a } else { &on_b };
                let inbound =
                    ask(&player, format!("Message {m} from {p}: was it raining?"), &format!("order:{p:03}:{m:04}"));
                if to.send(inbound).await?.handed_off {
                    handed += 1;
                }
            }
            anyhow::Ok(handed)
        });
    }
    let mut handed = 0;
    while let Some(done) = tasks.join_next().await {
        handed += done??;
    }
    // The last handed inputs are played by the holder's poller.
    let inputs = opts.players * opts.messages;
    let deadline = Instant::now() + Duration::from_secs(30);
    let events = loop {
        let events = pair.stores[0].event_ids().await?.into_iter().flat_map(|(_, e)| e).collect::<Vec<_>>();
        if events.iter().filter(|e| e.starts_with("order:")).count() >= inputs || Instant::now() > deadline {
            break events;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let wall = started.elapsed();
    // Each player's messages, in the order the session applied them.
    let mut last: HashMap<&str, u32> = HashMap::new();
    let (mut applied, mut out_of_order) = (0usize, 0usize);
    for event in events.iter().filter_map(|e| e.strip_prefix("order:")) {
        let Some((p, m)) = event.split_once(':') else { continue };
        let m: u32 = m.parse().unwrap_or_default();
        applied += 1;
        if last.insert(p, m).is_some_and(|before| before > m) {
            out_of_order += 1;
        }
    }
    let most = model.most.load(Ordering::SeqCst);
    let calls = model.calls.load(Ordering::SeqCst);
    pair.close().await;
    Ok(format!(
        "order: {} players x {} messages into one session, each to a random process, in {:.1} s\n\
         \x20 applied {applied} of {inputs} ({handed} handed over); applied out of a player's order: {out_of_order}\n\
         \x20 model calls {calls}, most in flight at once for the session: {most}\n",
        opts.players,
        opts.messages,
        wall.as_secs_f64(),
    ))
}

/// What the faulty model does to a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Fault {
    None,
    Timeout,
    ServerError,
    Unreachable,
    Garbage,
    Truncated,
}

/// The instant model with faults at random (a fixed seed).
struct Faulty {
    inner: InstantModel,
    dice: Mutex<Dice>,
    seen: Mutex<HashMap<Fault, usize>>,
}

impl Faulty {
    fn pick(&self) -> Fault {
        let roll = self.dice.lock().unwrap_or_else(PoisonError::into_inner).below(100);
        let fault = match roll {
            0..=59 => Fault::None,
            60..=67 => Fault::Timeout,
            68..=75 => Fault::ServerError,
            76..=83 => Fault::Unreachable,
            84..=91 => Fault::Garbage,
            _ => Fault::Truncated,
        };
        *self.seen.lock().unwrap_or_else(PoisonError::into_inner).entry(fault).or_insert(0) += 1;
        fault
    }
}

#[async_trait]
impl LlmClient for Faulty {
    fn describe(&self) -> String {
        "faulty".into()
    }

    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError> {
        let good = self.inner.chat(request).await?;
        match self.pick() {
            Fault::None => Ok(good),
            Fault::Timeout => {
                // The adapter's deadline passing (shortened here).
                tokio::time::sleep(Duration::from_millis(20)).await;
                Err(LlmError::Timeout)
            }
            Fault::ServerError => Err(LlmError::Status { status: 503, body: "overloaded".into() }),
            Fault::Unreachable => Err(LlmError::Unavailable("connection refused".into())),
            Fault::Garbage => Ok(ChatResponse { text: "}{ \u{fffd}\u{fffd} ::: null null [[".into(), ..good }),
            Fault::Truncated => {
                let cut = good.text.char_indices().nth(good.text.chars().count() / 2).map_or(0, |(i, _)| i);
                Ok(ChatResponse { text: good.text[..cut].to_string(), ..good })
            }
        }
    }

    async fn health(&self) -> Result<(), LlmError> {
        Ok(())
    }
}

async fn faults(opts: &ProcessOptions) -> anyhow::Result<String> {
    let model = Arc::new(Faulty {
        inner: InstantModel::default(),
        dice: Mutex::new(Dice::new(opts.seed ^ 0xFA17)),
        seen: Mutex::default(),
    });
    let pair = Pair::new(RoleModels { judge: model.clone(), narrator: model.clone() }).await?;
    let mut tasks = tokio::task::JoinSet::new();
    for s in 0..opts.sessions {
        let (on_a, on_b, mut rx, player) = pair.session(s).await?;
        let (turns, mut dice) = (opts.turns, Dice::new(opts.seed ^ (2000 + s as u64)));
        tasks.spawn(async move {
            let mut kinds: HashMap<String, usize> = HashMap::new();
            let (mut failed, mut errors) = (0usize, 0usize);
            for t in 0..turns {
                let to = if dice.below(2) == 0 { &on_a } else { &on_b };
                let inbound = ask(&player, format!("Question {t}: was it raining?"), &format!("fault:{s}:{t:04}"));
                let reply = match to.send(inbound).await {
                    Ok(d) if d.handed_off => {
                        tokio::time::timeout(Duration::from_secs(30), rx.recv()).await.ok().flatten()
                    }
                    Ok(d) => Some(d),
                    Err(_) => {
                        // The front end says the turn failed, in one line.
                        errors += 1;
                        continue;
                    }
                };
                match reply {
                    Some(d) if !d.reply.text.trim().is_empty() => {
                        *kinds.entry(format!("{:?}", d.reply.kind)).or_insert(0) += 1;
                    }
                    _ => failed += 1,
                }
            }
            anyhow::Ok((kinds, failed, errors))
        });
    }
    let (mut kinds, mut failed, mut errors): (HashMap<String, usize>, usize, usize) = (HashMap::new(), 0, 0);
    while let Some(done) = tasks.join_next().await {
        let (k, f, e) = done??;
        errors += e;
        for (kind, n) in k {
            *kinds.entry(kind).or_insert(0) += n;
        }
        failed += f;
    }
    let inputs = opts.sessions * opts.turns;
    let committed: usize = pair.turns_per_event("fault:").await?.values().sum();
    let (turns_alone, replies_alone) = pair.stores[0].unpaired_turns().await?;
    let mut seen: Vec<(Fault, usize)> =
        model.seen.lock().unwrap_or_else(PoisonError::into_inner).clone().into_iter().collect();
    seen.sort_by_key(|(f, _)| format!("{f:?}"));
    let mut kinds: Vec<(String, usize)> = kinds.into_iter().collect();
    kinds.sort();
    pair.close().await;
    let list = |items: Vec<String>| items.join(", ");
    Ok(format!(
        "model faults: {inputs} inputs, model calls {}\n\
         \x20 answered with a reply {} ({}); turns that failed (the front end's error line) {errors}; no reply at all {failed}\n\
         \x20 turns committed {committed}; half-written turns: {turns_alone} without their reply, {replies_alone} replies without their turn\n",
        list(seen.iter().map(|(f, n)| format!("{f:?} {n}")).collect()),
        inputs - failed - errors,
        list(kinds.iter().map(|(k, n)| format!("{k} {n}")).collect()),
    ))
}

/// One session's inputs in the restart run: each sent again while it is
/// refused as "the database is away"; a pause between inputs keeps the
/// games going while the database stops.
#[derive(Default)]
struct Resent {
    refused: usize,
    errors: usize,
    unanswered: usize,
}

async fn play_through_outage(
    (on_a, on_b, mut rx, player): (SessionHandle, SessionHandle, mpsc::UnboundedReceiver<Delivery>, Player),
    s: usize,
    opts: &ProcessOptions,
    first_after: Arc<Mutex<Option<Instant>>>,
) -> Resent {
    let (mut dice, mut got) = (Dice::new(opts.seed ^ (3000 + s as u64)), Resent::default());
    for t in 0..opts.turns {
        let event = format!("restart:{s}:{t:04}");
        loop {
            let to = if dice.below(2) == 0 { &on_a } else { &on_b };
            match to.send(ask(&player, format!("Question {t}: was it raining?"), &event)).await {
                Err(e) if e.is_unavailable() => {
                    got.refused += 1;
                    tokio::time::sleep(Duration::from_millis(250)).await;
                    continue;
                }
                Err(_) => got.errors += 1,
                Ok(d) if d.handed_off => {
                    if tokio::time::timeout(Duration::from_secs(30), rx.recv()).await.ok().flatten().is_none() {
                        got.unanswered += 1;
                    }
                }
                Ok(_) => {}
            }
            first_after.lock().unwrap_or_else(PoisonError::into_inner).get_or_insert_with(Instant::now);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    got
}

async fn restart(opts: &ProcessOptions) -> anyhow::Result<String> {
    let server = OwnServer::start()?;
    let model: Arc<InstantModel> = Arc::new(InstantModel::default());
    let pair = Pair::on(&server.url(), RoleModels { judge: model.clone(), narrator: model }).await?;
    let first_after: Arc<Mutex<Option<Instant>>> = Arc::default();
    let mut tasks = tokio::task::JoinSet::new();
    for s in 0..opts.sessions {
        let session = pair.session(s).await?;
        let (opts, first_after) = (opts.clone(), first_after.clone());
        tasks.spawn(async move { play_through_outage(session, s, &opts, first_after).await });
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    server.stop()?;
    tokio::time::sleep(opts.outage).await;
    *first_after.lock().unwrap_or_else(PoisonError::into_inner) = None;
    let restarted = Instant::now();
    server.resume()?;
    let mut total = Resent::default();
    while let Some(done) = tasks.join_next().await {
        let got = done?;
        (total.refused, total.errors, total.unanswered) =
            (total.refused + got.refused, total.errors + got.errors, total.unanswered + got.unanswered);
    }
    let first = first_after.lock().unwrap_or_else(PoisonError::into_inner).map(|at| at.duration_since(restarted));
    let inputs = opts.sessions * opts.turns;
    let turns = pair.turns_per_event("restart:").await?;
    let twice = turns.values().filter(|n| **n > 1).count();
    let (turns_alone, replies_alone) = pair.stores[0].unpaired_turns().await?;
    pair.close().await;
    Ok(format!(
        "database restart: {inputs} inputs, PostgreSQL stopped {:.0} s mid-games, then started again\n\
         \x20 refused as \"the database is away\" and sent again {}; other errors {}; handed over and never shown {}\n\
         \x20 inputs without a turn {}, with more than one {twice}; half-written turns: {turns_alone} without their reply, {replies_alone} replies without their turn\n\
         \x20 first turn played {} after the restart\n",
        opts.outage.as_secs_f64(),
        total.refused,
        total.errors,
        total.unanswered,
        inputs.saturating_sub(turns.len()),
        first.map_or("never".to_string(), |d| format!("{:.2} s", d.as_secs_f64())),
    ))
}
