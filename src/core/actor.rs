//! Session actors: one tokio task per session owns its game (a `Table`),
//! so inputs for one session are handled one at a time in arrival order
//! while sessions run concurrently. The actor knows no game's rules.
//!
//! The actor enforces "commit before send, once per event": a repeated
//! event id is answered from the record, and a reply (with every message
//! the turn addressed to someone) is handed to the front end only after
//! its turn and outbox rows are committed. It also drives what no player
//! sends: a phase's deadline comes back as a `TurnInput::Timer` with an
//! event id of its own (so it fires once, also across restarts), and an AI
//! seat's move is queued like a player's. Their replies go to the
//! engine's `Courier`, or stay in the outbox for the next resume.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};
use tracing::Instrument;

use super::game::table::{Afterwards, EndedWork};
use super::game::{Deadline, Message, Played, Reply, Table, TurnContext, TurnInput};
use super::services::{Pipeline, Progress};
use super::store::{Clock, OutboxItem, Store, StoreError, TurnCommit};

mod lease;

pub use lease::{LEASE_MS, process_owner};

/// How many turns a session keeps queued before senders wait.
const QUEUE_DEPTH: usize = 64;

/// The shared parts every session actor uses.
pub struct Engine {
    pub pipeline: Pipeline,
    pub store: Arc<dyn Store>,
    pub clock: Arc<dyn Clock>,
    /// Idle time after which a running game expires.
    pub expire_after_ms: i64,
    /// Post-game work (memory) still running; `settle` waits for it.
    pub background: std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>,
    /// Where session actors and post-game work run: the caller's runtime
    /// unless a bot front end gave them their own (`run_games_on`), so
    /// game work never delays a platform's acknowledgements.
    games: std::sync::OnceLock<tokio::runtime::Handle>,
    /// Who shows the replies of turns no front end asked for (timers,
    /// agents). Without one they wait in the outbox.
    courier: std::sync::OnceLock<Arc<dyn Courier>>,
    /// This process as a lease holder (`lease.rs`), and a lease's length.
    owner: String,
    lease_ms: i64,
    /// The actors running in this process, by session id (for handed-over
    /// inputs): shared by the engines of one process (`sharing_actors_with`),
    /// so one poller reaches a session whichever model's engine plays it.
    live: Arc<std::sync::Mutex<HashMap<String, mpsc::WeakSender<Job>>>>,
    /// Set when this process polls for handed-over inputs (it shares its
    /// database with others), for every engine sharing `live`.
    handing: Arc<std::sync::atomic::AtomicBool>,
    /// Set by `stop`: the engine plays nothing more.
    stopped: std::sync::atomic::AtomicBool,
}

/// Delivers the replies of turns that no front-end call is waiting for:
/// a deadline that passed, an AI seat's move. Called after the commit.
pub trait Courier: Send + Sync {
    fn deliver(&self, session_id: &str, delivery: Delivery);

    /// Starts the session's actor again from the record (an input was
    /// handed to it and nothing runs it here). Front ends that host one
    /// session per process need not.
    fn reopen(&self, _session_id: &str) {}
}

pub use super::game::inbound::{Inbound, engine_player};

/// A reply ready to show. When `outbox_id` is set, the front end marks it
/// sent after delivering it (`SessionHandle::delivered`), and so for each
/// message.
#[derive(Debug, Clone)]
pub struct Delivery {
    pub reply: Reply,
    pub outbox_id: Option<i64>,
    /// Further messages of the turn, each with its audience.
    pub messages: Vec<Message>,
    /// The options of a ballot the reply opens, for buttons.
    pub choices: Vec<(String, String)>,
    /// True when the event id had been processed before.
    pub duplicate: bool,
    /// Whether the game is over after this turn.
    pub over: bool,
    /// The deadline this turn set (a new phase's), for a live countdown.
    pub deadline_ms: Option<i64>,
    /// Another process plays this session: the input was handed to it, and
    /// its courier shows the reply. Nothing to show here.
    pub handed_off: bool,
}

impl Delivery {
    /// A reply committed earlier and never shown (a restart, a holder that
    /// died), to be shown now and marked sent like any other.
    pub fn unsent(item: OutboxItem) -> Delivery {
        Delivery {
            reply: Reply { kind: item.kind, text: item.body, verdict: None },
            outbox_id: Some(item.id),
            messages: Vec::new(),
            choices: Vec::new(),
            duplicate: false,
            over: false,
            deadline_ms: None,
            handed_off: false,
        }
    }

    /// Nothing to show: no reply text and no messages (a timer for a
    /// phase that already ended). Nobody is told of it.
    pub fn is_silent(&self) -> bool {
        self.reply.text.trim().is_empty() && self.messages.is_empty() && self.choices.is_empty()
    }
}

pub use super::game::EngineError;

/// The state an actor owns.
struct SessionState {
    id: String,
    table: Box<dyn Table>,
    last_activity_ms: i64,
    /// The last committed turn's number.
    seq: i64,
    /// The deadline a timer is armed for.
    armed: Option<Deadline>,
    /// The reminder a timer is armed for.
    armed_reminder: Option<Deadline>,
    /// Agent moves queued and not yet played, by event id.
    agents_pending: HashSet<String>,
    /// Its lease on the session.
    hold: lease::Hold,
}

/// The span a turn's logs carry: its session, game and event.
fn turn_span(state: &SessionState, event: Option<&str>) -> tracing::Span {
    let event = event.unwrap_or("-");
    tracing::info_span!("turn", session = %state.id, game = %state.table.kind(), event = %event)
}

struct Job {
    inbound: Inbound,
    /// It came through the store from another process (`lease.rs`).
    handed: bool,
    done: oneshot::Sender<Result<Delivery, EngineError>>,
}

/// A cheap, cloneable way to send inputs to one session's actor.
#[derive(Clone)]
pub struct SessionHandle {
    pub id: String,
    tx: mpsc::Sender<Job>,
    store: Arc<dyn Store>,
}

impl SessionHandle {
    /// Whether its actor has stopped (it handed the session back to the
    /// record after another process played it): resume the session anew.
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// Queues an input and waits for its committed reply.
    pub async fn send(&self, inbound: Inbound) -> Result<Delivery, EngineError> {
        send_job(&self.tx, inbound, false).await
    }

    /// Records that a reply (and every message with it) reached its readers.
    pub async fn delivered(&self, delivery: &Delivery) -> Result<(), EngineError> {
        if let Some(id) = delivery.outbox_id {
            self.store.mark_sent(id).await?;
        }
        for id in delivery.messages.iter().filter_map(|m| m.outbox_id) {
            self.store.mark_sent(id).await?;
        }
        Ok(())
    }
}

async fn send_job(tx: &mpsc::Sender<Job>, inbound: Inbound, handed: bool) -> Result<Delivery, EngineError> {
    let (done, rx) = oneshot::channel();
    tx.send(Job { inbound, handed, done }).await.map_err(|_| EngineError::Stopped)?;
    rx.await.map_err(|_| EngineError::Stopped)?
}

/// A session being opened: its id, when it was last active and its last
/// committed turn (0 for a new one).
pub struct Opened {
    pub id: String,
    pub last_activity_ms: i64,
    pub seq: i64,
}

impl Engine {
    pub fn new(pipeline: Pipeline, store: Arc<dyn Store>, clock: Arc<dyn Clock>, expire_after_ms: i64) -> Self {
        Engine {
            pipeline,
            store,
            clock,
            expire_after_ms,
            background: std::sync::Mutex::default(),
            games: std::sync::OnceLock::new(),
            courier: std::sync::OnceLock::new(),
            owner: process_owner(),
            lease_ms: LEASE_MS,
            live: Arc::default(),
            handing: Arc::default(),
            stopped: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Plays nothing more, as if its process ended: armed timers and
    /// agents' moves are dropped when they come due, and every session's
    /// actor stops at its next input (which gets `EngineError::Stopped`).
    pub fn stop(&self) {
        self.stopped.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    fn is_stopped(&self) -> bool {
        self.stopped.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// The same engine under another lease holder's name (tests and
    /// benchmarks that play two processes in one).
    pub fn owned_by(mut self, owner: impl Into<String>) -> Self {
        self.owner = owner.into();
        self
    }

    /// Another engine of the same process (a scope's own model): the same
    /// lease holder, and the same registry of running actors.
    pub fn sharing_actors_with(mut self, base: &Engine) -> Self {
        self.owner = base.owner.clone();
        self.live = Arc::clone(&base.live);
        self.handing = Arc::clone(&base.handing);
        self
    }

    /// Leases of another length (tests of a holder that dies).
    pub fn with_lease_ms(mut self, lease_ms: i64) -> Self {
        self.lease_ms = lease_ms.max(1);
        self
    }

    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// Runs session actors (and so every turn's work) on `runtime` from now
    /// on. The first runtime set stays.
    pub fn run_games_on(&self, runtime: tokio::runtime::Handle) {
        let _ = self.games.set(runtime);
    }

    /// The runtime set by `run_games_on`, if any.
    pub fn games_runtime(&self) -> Option<tokio::runtime::Handle> {
        self.games.get().cloned()
    }

    /// Sets who shows replies of timer and agent turns. The first one stays.
    pub fn set_courier(&self, courier: Arc<dyn Courier>) {
        let _ = self.courier.set(courier);
    }

    /// The courier set by `set_courier`, for engines built beside this one.
    pub fn courier(&self) -> Option<Arc<dyn Courier>> {
        self.courier.get().cloned()
    }

    fn spawn_work<F>(&self, work: F) -> tokio::task::JoinHandle<F::Output>
    where
        F: std::future::Future + Send + 'static,
        F::Output: Send + 'static,
    {
        match self.games.get() {
            Some(runtime) => runtime.spawn(work),
            None => tokio::spawn(work),
        }
    }

    /// Starts the actor for a session whose row exists (created or loaded).
    pub fn open_table(self: &Arc<Self>, opened: Opened, table: Box<dyn Table>) -> SessionHandle {
        let state = SessionState {
            id: opened.id,
            table,
            last_activity_ms: opened.last_activity_ms,
            seq: opened.seq,
            armed: None,
            armed_reminder: None,
            agents_pending: HashSet::new(),
            hold: lease::Hold::default(),
        };
        let (tx, rx) = mpsc::channel(QUEUE_DEPTH);
        self.live.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(state.id.clone(), tx.downgrade());
        let handle = SessionHandle { id: state.id.clone(), tx: tx.clone(), store: self.store.clone() };
        self.spawn_work(run_actor(self.clone(), state, rx, tx.downgrade()));
        handle
    }

    /// Stores a new session and starts its actor; the table is the game's
    /// first state (a lobby). The Soup's `start_session` is the same for
    /// Turtle Soup, with its Start turn.
    pub async fn create_session(
        self: &Arc<Self>,
        new: &super::store::NewSession,
        table: Box<dyn Table>,
    ) -> Result<SessionHandle, EngineError> {
        self.store.create_session(new).await?;
        Ok(self.open_table(Opened { id: new.id.clone(), last_activity_ms: new.created_ms, seq: 0 }, table))
    }

    /// Loads a stored session of any game and starts its actor, with the
    /// table `open` builds from the stored record.
    pub async fn resume_table(
        self: &Arc<Self>,
        id: &str,
        open: impl FnOnce(&super::store::LoadedSession) -> Result<Box<dyn Table>, EngineError>,
    ) -> Result<SessionHandle, EngineError> {
        let loaded = self.store.load_session(id).await?.ok_or_else(|| StoreError::NotFound(id.to_string()))?;
        let table = open(&loaded)?;
        let seq = loaded.turns.last().map_or(0, |t| t.seq);
        Ok(self.open_table(Opened { id: loaded.id.clone(), last_activity_ms: loaded.last_activity_ms, seq }, table))
    }

    /// Waits for post-game work (memory writes) to finish.
    pub async fn settle(&self) {
        let pending: Vec<_> = match self.background.lock() {
            Ok(mut tasks) => tasks.drain(..).collect(),
            Err(_) => Vec::new(),
        };
        for task in pending {
            let _ = task.await;
        }
    }
}

async fn run_actor(
    engine: Arc<Engine>,
    mut state: SessionState,
    mut rx: mpsc::Receiver<Job>,
    me: mpsc::WeakSender<Job>,
) {
    let telemetry = super::telemetry::telemetry();
    telemetry.sessions.inc();
    engine.take_lease(&mut state, &me).await;
    let reopen = engine.serve_jobs(&mut state, &mut rx, &me).await;
    // Closed before `unregister`, which tells this actor's entry by its
    // closed channel.
    drop(rx);
    engine.close_actor(&state, reopen).await;
    telemetry.sessions.dec();
}

/// What an actor does with a job once it knows who holds the session.
enum Route {
    /// Play it here.
    Play(Job),
    /// It was answered (handed to the holder, or failed): take the next.
    Answered,
    /// It was handed over and the session must be reopened from the record.
    Reopen,
}

// The actor's phases: taking the lease, serving jobs, closing.
impl Engine {
    /// Claims the session as the actor starts: timers and agents' moves
    /// belong to the process playing the session.
    async fn take_lease(self: &Arc<Self>, state: &mut SessionState, me: &mpsc::WeakSender<Job>) {
        match self.claim(state).await {
            Ok(true) => self.after_turn(state, me).await,
            Ok(false) => {}
            Err(e) => tracing::warn!(session = %state.id, error = %e, "could not take the session's lease"),
        }
    }

    /// Plays the session's jobs in arrival order until its channel closes or
    /// the engine stops; true when the session must be reopened from the
    /// record instead.
    async fn serve_jobs(
        self: &Arc<Self>,
        state: &mut SessionState,
        rx: &mut mpsc::Receiver<Job>,
        me: &mpsc::WeakSender<Job>,
    ) -> bool {
        let renew_every = std::time::Duration::from_millis(u64::try_from(self.lease_ms / 3).unwrap_or(1).max(1));
        let mut renew = tokio::time::interval_at(tokio::time::Instant::now() + renew_every, renew_every);
        loop {
            let Some(job) = self.next_job(state, rx, &mut renew).await else { return false };
            if self.is_stopped() {
                let _ = job.done.send(Err(EngineError::Stopped));
                return false;
            }
            if let Some(id) = job.inbound.event_id.as_deref() {
                state.agents_pending.remove(id);
            }
            match self.route(state, job, me).await {
                Route::Play(job) => self.play_job(state, job, me).await,
                Route::Answered => {}
                Route::Reopen => return true,
            }
        }
    }

    /// The next job, renewing the session's lease while none comes; `None`
    /// when the channel closed or the engine stopped.
    async fn next_job(
        &self,
        state: &mut SessionState,
        rx: &mut mpsc::Receiver<Job>,
        renew: &mut tokio::time::Interval,
    ) -> Option<Job> {
        loop {
            tokio::select! {
                job = rx.recv() => return job,
                _ = renew.tick() => {
                    if self.is_stopped() {
                        return None;
                    }
                    if state.hold.until_ms > 0 && let Err(e) = self.claim(state).await {
                        tracing::warn!(session = %state.id, error = %e, "could not renew the session's lease");
                    }
                }
            }
        }
    }

    /// Settles who plays a job: this actor, or the session's holder, to
    /// which its input is handed (the job is answered then).
    async fn route(self: &Arc<Self>, state: &mut SessionState, job: Job, me: &mpsc::WeakSender<Job>) -> Route {
        match self.step(state).await {
            // Inputs handed to this session by other processes before this
            // one arrived are played first: a session's inputs keep their
            // order across processes.
            Ok(lease::Step::Play) if !job.handed && self.hands_over() => {
                self.play_waiting(state, me).await;
                Route::Play(job)
            }
            Ok(lease::Step::Play) => Route::Play(job),
            Ok(lease::Step::HandOff) => {
                let _ = job.done.send(self.hand_off(&state.id, job.inbound).await);
                Route::Answered
            }
            Ok(lease::Step::Reload) => {
                // The session is this process's again, but another played it
                // meanwhile: the input waits in the store while the session
                // is reopened from the record (keeping the lease).
                let _ = job.done.send(self.hand_off(&state.id, job.inbound).await);
                Route::Reopen
            }
            Err(e) => {
                let _ = job.done.send(Err(e));
                Route::Answered
            }
        }
    }

    /// Plays a job's turn in its `turn` span.
    async fn play_job(self: &Arc<Self>, state: &mut SessionState, job: Job, me: &mpsc::WeakSender<Job>) {
        let span = turn_span(state, job.inbound.event_id.as_deref());
        self.play_turn(state, job, me).instrument(span).await;
    }

    /// Plays a job's turn and answers it, counting the outcome; a committed
    /// turn then arms the timers and queues the agents' moves.
    async fn play_turn(self: &Arc<Self>, state: &mut SessionState, job: Job, me: &mpsc::WeakSender<Job>) {
        let telemetry = super::telemetry::telemetry();
        let started = std::time::Instant::now();
        let result = self.handle(state, job.inbound).await;
        if let Err(e) = &result {
            tracing::error!(session = %state.id, error = %e, "turn failed");
            telemetry.error("turn");
        }
        let committed = matches!(&result, Ok(d) if d.outbox_id.is_some());
        let outcome = match &result {
            Ok(d) if d.duplicate => "duplicate",
            Ok(_) if committed => "committed",
            Ok(_) => "unplayed",
            Err(_) => "failed",
        };
        telemetry.turn(state.table.kind(), outcome, started.elapsed());
        // The caller may have gone away; the turn is committed either way.
        let _ = job.done.send(result);
        if committed {
            self.after_turn(state, me).await;
        }
    }

    /// After the actor's last job (its channel closed): takes it off the
    /// registry, then has the session reopened from the record, or gives
    /// the lease back unless a newer actor plays the session.
    async fn close_actor(&self, state: &SessionState, reopen: bool) {
        let newer = self.unregister(&state.id);
        if state.hold.until_ms > 0 {
            super::telemetry::telemetry().leases.dec();
        }
        if reopen {
            if let Some(courier) = self.courier.get() {
                courier.reopen(&state.id);
            }
        } else if !newer {
            self.release(state).await;
        }
    }

    /// Removes a closed actor's entry from the registry; true when a newer
    /// actor for the session has registered since.
    fn unregister(&self, session_id: &str) -> bool {
        let mut live = self.live.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        // A newer actor for the session may have registered since (a
        // restart, a reopen); this one's channel is closed now.
        let ours = live.get(session_id).is_some_and(|tx| tx.upgrade().is_none_or(|tx| tx.is_closed()));
        if ours {
            live.remove(session_id);
        }
        !ours && live.contains_key(session_id)
    }
}

impl Engine {
    async fn handle(self: &Arc<Self>, state: &mut SessionState, inbound: Inbound) -> Result<Delivery, EngineError> {
        if let Some(event_id) = inbound.event_id.as_deref()
            && let Some(reply) = self.store.find_event(&state.id, event_id).await?
        {
            return Ok(self.duplicate(state, reply));
        }
        let now = self.clock.now_ms();
        let noop = |_: Progress| {};
        let progress: &(dyn Fn(Progress) + Send + Sync) = match &inbound.progress {
            Some(p) => p.as_ref(),
            None => &noop,
        };
        let ctx = TurnContext { pipeline: &self.pipeline, now_ms: now, progress };
        let played =
            if self.is_idle(state, now) { state.table.expire(&ctx) } else { state.table.play(&ctx, &inbound).await };
        if let Some(blocked) = &played.withheld {
            tracing::warn!(
                target: "security",
                session = %state.id,
                player = %inbound.player.id,
                reason = ?blocked.reason,
                canary = blocked.canary,
                "secrecy gate withheld an outbound message"
            );
        }
        if !played.commit {
            let over = state.table.is_over();
            let reply = played.reply;
            return Ok(Delivery {
                reply,
                outbox_id: None,
                messages: Vec::new(),
                choices: Vec::new(),
                duplicate: false,
                over,
                deadline_ms: None,
                handed_off: false,
            });
        }
        match self.commit(state, &inbound, &played, now).await {
            Ok(committed) => {
                state.hold.until_ms = now + self.lease_ms;
                state.seq = committed.seq;
                Ok(self.adopt(state, played, committed, now))
            }
            Err(StoreError::Duplicate(id)) => {
                let reply = self.store.find_event(&state.id, &id).await?.unwrap_or(played.reply);
                Ok(self.duplicate(state, reply))
            }
            Err(StoreError::LeaseLost(_)) => {
                // Another process took the session over while this one was
                // busy: nothing of this turn was written, and this state is
                // behind. The input goes to the holder, which plays it on
                // the record; the next input here finds out who holds it.
                if state.hold.until_ms > 0 {
                    super::telemetry::telemetry().leases.dec();
                }
                state.hold = lease::Hold { until_ms: 0, stale: true };
                tracing::info!(session = %state.id, "the lease ran out mid-turn; the input goes to the session's holder");
                self.hand_off(&state.id, inbound).await
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The answer to an event already processed: its recorded reply. Its
    /// private messages are not repeated here (they were delivered, or
    /// wait in the outbox for their seat).
    fn duplicate(&self, state: &SessionState, reply: Reply) -> Delivery {
        let over = state.table.is_over();
        Delivery {
            reply,
            outbox_id: None,
            messages: Vec::new(),
            choices: Vec::new(),
            duplicate: true,
            over,
            deadline_ms: None,
            handed_off: false,
        }
    }

    /// A running game idle for longer than `expire_after_ms` ends (and
    /// shows its story) instead of playing the late input.
    fn is_idle(&self, state: &SessionState, now: i64) -> bool {
        let idle = now - state.last_activity_ms;
        state.table.is_running() && self.expire_after_ms > 0 && idle > self.expire_after_ms
    }

    async fn commit(
        &self,
        state: &SessionState,
        inbound: &Inbound,
        played: &Played,
        now: i64,
    ) -> Result<super::store::Committed, StoreError> {
        let commit = TurnCommit {
            session_id: &state.id,
            event_id: inbound.event_id.as_deref(),
            player: &inbound.player,
            kind: inbound.input.kind(),
            input: inbound.input.text(),
            record: &played.record,
            reply: &played.reply,
            messages: &played.messages,
            next: played.snapshot.as_ref(),
            points: &played.points,
            created_ms: now,
            lease: Some(self.renewal(now)),
        };
        self.store.commit_turn(&commit).await
    }

    fn adopt(
        self: &Arc<Self>,
        state: &mut SessionState,
        mut played: Played,
        committed: super::store::Committed,
        now: i64,
    ) -> Delivery {
        let was_over = state.table.is_over();
        let reply = played.reply.clone();
        let mut messages = std::mem::take(&mut played.messages);
        let choices = std::mem::take(&mut played.choices);
        for (message, id) in messages.iter_mut().zip(&committed.message_ids) {
            message.outbox_id = Some(*id);
        }
        let before = state.table.deadline();
        state.table.adopt(played);
        state.last_activity_ms = now;
        let over = state.table.is_over();
        let deadline_ms = state.table.deadline().filter(|d| !over && Some(d) != before.as_ref()).map(|d| d.at_ms);
        if over && !was_over {
            self.ended_in_background(state, now);
        }
        Delivery {
            reply,
            outbox_id: Some(committed.outbox_id),
            messages,
            choices,
            duplicate: false,
            over,
            deadline_ms,
            handed_off: false,
        }
    }

    /// After a committed turn (and when an actor starts): arms the timer
    /// for the phase's deadline and queues the moves agents owe.
    async fn after_turn(self: &Arc<Self>, state: &mut SessionState, me: &mpsc::WeakSender<Job>) {
        self.arm_timer(state, me);
        if state.table.is_over() {
            return;
        }
        let noop = |_: Progress| {};
        let ctx = TurnContext { pipeline: &self.pipeline, now_ms: self.clock.now_ms(), progress: &noop };
        for agent in state.table.agent_moves(&ctx, state.seq).await {
            if !state.agents_pending.insert(agent.event_id.clone()) {
                continue;
            }
            let inbound = Inbound::new(agent.seat, agent.input).with_event(agent.event_id);
            self.send_unprompted(state.id.clone(), me.clone(), inbound, agent.not_before_ms);
        }
    }

    /// Arms the timers of the phase's deadline and of its reminder; each
    /// comes back as a `TurnInput::Timer` with its tag.
    fn arm_timer(self: &Arc<Self>, state: &mut SessionState, me: &mpsc::WeakSender<Job>) {
        let on = !state.table.is_over();
        let deadline = state.table.deadline().filter(|_| on);
        if deadline != state.armed {
            state.armed = deadline.clone();
            if let Some(deadline) = deadline {
                self.arm(state, me, deadline);
            }
        }
        let reminder = state.table.reminder().filter(|_| on);
        if reminder != state.armed_reminder {
            state.armed_reminder = reminder.clone();
            if let Some(reminder) = reminder {
                self.arm(state, me, reminder);
            }
        }
    }

    fn arm(self: &Arc<Self>, state: &SessionState, me: &mpsc::WeakSender<Job>, deadline: Deadline) {
        let inbound =
            Inbound::new(engine_player(), TurnInput::Timer(deadline.tag.clone())).with_event(deadline.event_id());
        self.send_unprompted(state.id.clone(), me.clone(), inbound, Some(deadline.at_ms));
    }

    /// Queues an input no front end is waiting for (at `at_ms`, if given)
    /// and hands its committed reply to the courier.
    fn send_unprompted(
        self: &Arc<Self>,
        session_id: String,
        me: mpsc::WeakSender<Job>,
        inbound: Inbound,
        at_ms: Option<i64>,
    ) {
        let engine = self.clone();
        self.spawn_work(async move {
            if let Some(at) = at_ms {
                engine.clock.sleep_until(at).await;
            }
            if engine.is_stopped() {
                return;
            }
            // The session was dropped (its game ended and was forgotten).
            let Some(tx) = me.upgrade() else { return };
            match send_job(&tx, inbound, false).await {
                Ok(delivery) if !delivery.duplicate && !delivery.is_silent() => match engine.courier.get() {
                    Some(courier) => courier.deliver(&session_id, delivery),
                    None => tracing::debug!(session = %session_id, "no courier: the reply waits in the outbox"),
                },
                Ok(_) => {}
                Err(e) => tracing::warn!(session = %session_id, error = %e, "an engine turn failed"),
            }
        });
    }

    /// The game's post-game work (memory), without delaying the final reply.
    /// What a finished game's work may use: the services and the record.
    fn afterwards(&self) -> Afterwards {
        Afterwards { pipeline: self.pipeline.clone(), store: self.store.clone() }
    }

    fn ended_in_background(self: &Arc<Self>, state: &SessionState, now: i64) {
        let Some(work): Option<EndedWork> = state.table.ended(&self.afterwards(), &state.id, now) else { return };
        let task = self.spawn_work(work);
        if let Ok(mut tasks) = self.background.lock() {
            tasks.retain(|t| !t.is_finished());
            tasks.push(task);
        }
    }
}

pub use super::secrecy::new_canary;

/// Live sessions by id, for front ends that host many (bots).
#[derive(Default)]
pub struct Sessions {
    /// A plain mutex: it is held for one map operation, never across an
    /// await, and every incoming event looks a session up here.
    live: std::sync::Mutex<HashMap<String, SessionHandle>>,
}

impl Sessions {
    fn live(&self) -> std::sync::MutexGuard<'_, HashMap<String, SessionHandle>> {
        self.live.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn insert(&self, handle: SessionHandle) {
        self.live().insert(handle.id.clone(), handle);
    }

    pub fn get(&self, id: &str) -> Option<SessionHandle> {
        self.live().get(id).cloned()
    }

    pub fn remove(&self, id: &str) -> Option<SessionHandle> {
        self.live().remove(id)
    }

    pub fn clear(&self) {
        self.live().clear();
    }
}

/// Whether a reply ends the game, for front ends that close threads.
pub fn is_final(kind: super::game::ReplyKind) -> bool {
    matches!(kind, super::game::ReplyKind::Solved | super::game::ReplyKind::Ended)
}

#[cfg(test)]
mod tests;
