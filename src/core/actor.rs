//! Session actors: one tokio task per session owns its state, so inputs
//! for one session are handled one at a time in arrival order while
//! sessions run concurrently.
//!
//! The actor enforces "commit before send, once per event": a repeated
//! event id is answered from the record, and a reply is handed to the
//! front end only after its turn and outbox rows are committed.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};

use super::pipeline::{
    GameGate, LedgerVector, Pipeline, Progress, Reply, ReplyKind, SessionView, TurnInput, TurnOutcome, ends_game,
};
use super::prompts::PublicTurn;
use super::puzzle::Puzzle;
use super::remember::{EndedGame, remember_game};
use super::soup::{Phase, Player, SoupGame};
use super::store::{Clock, LoadedSession, NewSession, Store, StoreError, TurnCommit};

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
}

/// One input for a session, as a front end delivers it.
pub struct Inbound {
    /// The platform's id for this event; repeated ids are answered from the record.
    pub event_id: Option<String>,
    pub player: Player,
    pub input: TurnInput,
    pub progress: Option<Arc<dyn Fn(Progress) + Send + Sync>>,
}

impl Inbound {
    pub fn new(player: Player, input: TurnInput) -> Self {
        Inbound { event_id: None, player, input, progress: None }
    }
}

/// A reply ready to show. When `outbox_id` is set, the front end marks it
/// sent after delivering it (`SessionHandle::delivered`).
#[derive(Debug, Clone)]
pub struct Delivery {
    pub reply: Reply,
    pub outbox_id: Option<i64>,
    /// True when the event id had been processed before.
    pub duplicate: bool,
    pub phase: Phase,
}

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("the session has stopped")]
    Stopped,
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("puzzle {0:?} is not available")]
    UnknownPuzzle(String),
}

/// The state an actor owns.
struct SessionState {
    id: String,
    puzzle: Arc<Puzzle>,
    game: SoupGame,
    history: Vec<PublicTurn>,
    canary: String,
    /// The secrecy gate, cut from the puzzle once per game.
    gate: GameGate,
    last_activity_ms: i64,
    /// Question embeddings for the semantic ledger.
    ledger: Vec<LedgerVector>,
}

struct Job {
    inbound: Inbound,
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
    /// Queues an input and waits for its committed reply.
    pub async fn send(&self, inbound: Inbound) -> Result<Delivery, EngineError> {
        let (done, rx) = oneshot::channel();
        self.tx.send(Job { inbound, done }).await.map_err(|_| EngineError::Stopped)?;
        rx.await.map_err(|_| EngineError::Stopped)?
    }

    /// Records that a reply reached the player.
    pub async fn delivered(&self, delivery: &Delivery) -> Result<(), EngineError> {
        if let Some(id) = delivery.outbox_id {
            self.store.mark_sent(id).await?;
        }
        Ok(())
    }
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
        }
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

    /// Creates a session, starts its actor and plays the Start turn.
    pub async fn start_session(
        self: &Arc<Self>,
        puzzle: Arc<Puzzle>,
        channel: &str,
        hint_limit: u32,
        host: Player,
    ) -> Result<(SessionHandle, Delivery), EngineError> {
        let now = self.clock.now_ms();
        let game = SoupGame::new(&puzzle, hint_limit);
        let new = NewSession {
            id: uuid::Uuid::new_v4().simple().to_string(),
            puzzle_id: puzzle.id.clone(),
            language: puzzle.language,
            channel: channel.to_string(),
            canary: new_canary(),
            game: game.clone(),
            created_ms: now,
        };
        self.store.create_session(&new).await?;
        let state = SessionState {
            id: new.id,
            gate: GameGate::new(&puzzle, &new.canary),
            puzzle,
            game,
            history: Vec::new(),
            canary: new.canary,
            last_activity_ms: now,
            ledger: Vec::new(),
        };
        let handle = self.spawn(state);
        let intro = handle.send(Inbound::new(host, TurnInput::Start)).await?;
        Ok((handle, intro))
    }

    /// Loads a stored session and starts its actor. `find_puzzle` resolves
    /// the stored puzzle id.
    pub async fn resume_session(
        self: &Arc<Self>,
        id: &str,
        find_puzzle: impl FnOnce(&str) -> Option<Arc<Puzzle>>,
    ) -> Result<(SessionHandle, LoadedSession), EngineError> {
        let loaded = self.store.load_session(id).await?.ok_or_else(|| StoreError::NotFound(id.to_string()))?;
        let puzzle =
            find_puzzle(&loaded.puzzle_id).ok_or_else(|| EngineError::UnknownPuzzle(loaded.puzzle_id.clone()))?;
        let state = SessionState {
            id: loaded.id.clone(),
            gate: GameGate::new(&puzzle, &loaded.canary),
            puzzle,
            game: loaded.game.clone(),
            history: loaded.turns.iter().filter_map(|t| t.public.clone()).collect(),
            canary: loaded.canary.clone(),
            last_activity_ms: loaded.last_activity_ms,
            ledger: self.ledger_vectors(&loaded.game).await,
        };
        Ok((self.spawn(state), loaded))
    }

    /// Re-embeds a resumed game's ledger questions (vectors are not stored).
    async fn ledger_vectors(&self, game: &SoupGame) -> Vec<LedgerVector> {
        let Some(embedder) = &self.pipeline.embedder else { return Vec::new() };
        let keys: Vec<String> = game.ledger.keys().cloned().collect();
        match embedder.embed(&keys).await {
            Ok(vectors) => keys
                .into_iter()
                .zip(vectors)
                .filter_map(|(key, vector)| Some(LedgerVector { verdict: game.ledger_verdict(&key)?, key, vector }))
                .collect(),
            Err(e) => {
                tracing::warn!(error = %e, "could not re-embed the ledger; exact matching only");
                Vec::new()
            }
        }
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

    fn spawn(self: &Arc<Self>, state: SessionState) -> SessionHandle {
        let (tx, rx) = mpsc::channel(QUEUE_DEPTH);
        let handle = SessionHandle { id: state.id.clone(), tx, store: self.store.clone() };
        self.spawn_work(run_actor(self.clone(), state, rx));
        handle
    }
}

async fn run_actor(engine: Arc<Engine>, mut state: SessionState, mut rx: mpsc::Receiver<Job>) {
    while let Some(job) = rx.recv().await {
        let result = engine.handle(&mut state, job.inbound).await;
        if let Err(e) = &result {
            tracing::error!(session = %state.id, error = %e, "turn failed");
        }
        // The caller may have gone away; the turn is committed either way.
        let _ = job.done.send(result);
    }
}

impl Engine {
    async fn handle(self: &Arc<Self>, state: &mut SessionState, inbound: Inbound) -> Result<Delivery, EngineError> {
        if let Some(event_id) = inbound.event_id.as_deref()
            && let Some(reply) = self.store.find_event(&state.id, event_id).await?
        {
            return Ok(Delivery { reply, outbox_id: None, duplicate: true, phase: state.game.phase });
        }
        let now = self.clock.now_ms();
        let input = inbound.input.clone();
        let noop = |_: Progress| {};
        let progress: &(dyn Fn(Progress) + Send + Sync) = match &inbound.progress {
            Some(p) => p.as_ref(),
            None => &noop,
        };
        state.gate.catch_up(&state.puzzle, &state.game, &state.history);
        let view = SessionView {
            puzzle: &state.puzzle,
            game: &state.game,
            history: &state.history,
            canary: &state.canary,
            gate: &state.gate,
            ledger: &state.ledger,
        };
        let outcome = if self.is_idle(state, now) {
            self.pipeline.expire(&view)
        } else {
            self.pipeline.run(&view, &inbound.player, &input, progress).await
        };
        if let Some(blocked) = &outcome.withheld {
            tracing::warn!(
                target: "security",
                session = %state.id,
                player = %inbound.player.id,
                reason = ?blocked.reason,
                canary = blocked.canary,
                "secrecy gate withheld an outbound reply"
            );
        }
        if !outcome.commit {
            return Ok(Delivery { reply: outcome.reply, outbox_id: None, duplicate: false, phase: state.game.phase });
        }
        match self.commit(state, &inbound, &input, &outcome, now).await {
            Ok(outbox_id) => Ok(self.apply(state, outcome, outbox_id, now)),
            Err(StoreError::Duplicate(id)) => {
                let reply = self.store.find_event(&state.id, &id).await?.unwrap_or(outcome.reply);
                Ok(Delivery { reply, outbox_id: None, duplicate: true, phase: state.game.phase })
            }
            Err(e) => Err(e.into()),
        }
    }

    /// A running game idle for longer than `expire_after_ms` ends (and
    /// shows its story) instead of judging the late input.
    fn is_idle(&self, state: &SessionState, now: i64) -> bool {
        let idle = now - state.last_activity_ms;
        state.game.phase == Phase::InProgress && self.expire_after_ms > 0 && idle > self.expire_after_ms
    }

    async fn commit(
        &self,
        state: &SessionState,
        inbound: &Inbound,
        input: &TurnInput,
        outcome: &TurnOutcome,
        now: i64,
    ) -> Result<i64, StoreError> {
        let before = state.game.phase;
        let after = outcome.next.as_ref().map_or(before, |g| g.phase);
        let points = match &outcome.next {
            Some(next) if ends_game(before, after) => next.player_points(),
            _ => Vec::new(),
        };
        let commit = TurnCommit {
            session_id: &state.id,
            event_id: inbound.event_id.as_deref(),
            player: &inbound.player,
            kind: input.kind(),
            input: inbound.input.text(),
            intent: outcome.intent,
            facts: &outcome.facts,
            reply: &outcome.reply,
            public: outcome.public.as_ref(),
            usage: &outcome.usage,
            next: outcome.next.as_ref(),
            points: &points,
            created_ms: now,
        };
        Ok(self.store.commit_turn(&commit).await?.outbox_id)
    }

    fn apply(self: &Arc<Self>, state: &mut SessionState, outcome: TurnOutcome, outbox_id: i64, now: i64) -> Delivery {
        let before = state.game.phase;
        if let Some(next) = outcome.next {
            state.game = next;
        }
        if let Some(public) = outcome.public {
            state.history.push(public);
        }
        state.ledger.extend(outcome.ledger_vector);
        state.last_activity_ms = now;
        if ends_game(before, state.game.phase) {
            self.remember_in_background(state, now);
        }
        Delivery { reply: outcome.reply, outbox_id: Some(outbox_id), duplicate: false, phase: state.game.phase }
    }
}

impl Engine {
    /// Writes the finished game to memory without delaying the final reply.
    fn remember_in_background(self: &Arc<Self>, state: &SessionState, now: i64) {
        if self.pipeline.memory.is_none() {
            return;
        }
        let engine = self.clone();
        let (id, puzzle, game, history) =
            (state.id.clone(), state.puzzle.clone(), state.game.clone(), state.history.clone());
        let task = self.spawn_work(async move {
            let Some(memory) = engine.pipeline.memory.clone() else { return };
            let ended = EndedGame { session_id: &id, puzzle: &puzzle, game: &game, history: &history, now_ms: now };
            if let Err(e) = remember_game(&engine.pipeline, engine.store.as_ref(), memory.as_ref(), &ended).await {
                tracing::warn!(session = %id, error = %e, "could not write the game to memory");
            }
        });
        if let Ok(mut tasks) = self.background.lock() {
            tasks.retain(|t| !t.is_finished());
            tasks.push(task);
        }
    }
}

/// A per-game random marker for the Judge prompt; seeing it in output
/// proves a leak.
fn new_canary() -> String {
    crate::core::secrecy::Canary::from_seed(uuid::Uuid::new_v4().as_u64_pair().0).to_string()
}

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
}

/// Whether a reply ends the game, for front ends that close threads.
pub fn is_final(kind: ReplyKind) -> bool {
    matches!(kind, ReplyKind::Solved | ReplyKind::Ended)
}

#[cfg(test)]
mod tests;
