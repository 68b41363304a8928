//! One process plays a session at a time, when several share a database.
//! An actor holds its session's lease (`Leases::claim_lease`): taken when it
//! starts, renewed on a timer and by every commit, given up when it stops.
//! A commit carries the lease, so a process that stalled past its expiry
//! while another took over writes nothing; the input it was playing goes to
//! the new holder. The engines of one process (one per scope's model) share
//! one registry of running actors, so one poller serves them all. An input that reaches an actor
//! whose session another process holds is handed to that process through
//! the store (`Leases::hand_off`); each process is told of the inputs handed
//! to its sessions (PostgreSQL's `LISTEN/NOTIFY`, `Leases::handoff_signals`),
//! or polls for them (`Engine::poll_handoffs`), and plays them like its own,
//! its courier showing the replies. An actor that lost its session and
//! gets it back (its holder died) knows its state is behind: it hands the
//! input to its own process and stops, and the courier reopens the session
//! from the record, where the poller finds it.

use std::sync::OnceLock;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;
use tracing::Instrument;

use super::{Delivery, Engine, EngineError, Inbound, Job, SessionState, send_job};
use crate::core::game::{Reply, ReplyKind, TurnInput};
use crate::core::store::{Handed, Lease, LeaseRenewal, OutboxItem};
use crate::core::telemetry::telemetry;
use crate::core::vocab::Player;

/// How long a lease lasts without renewal: a process that dies holds its
/// sessions this long at most.
pub const LEASE_MS: i64 = 30_000;

/// How often a process that is told of hand-overs looks for them anyway.
const IDLE_POLL: Duration = Duration::from_secs(1);

/// This process's name as a lease holder: random, one per process.
pub fn process_owner() -> String {
    static OWNER: OnceLock<String> = OnceLock::new();
    OWNER.get_or_init(|| format!("echoes-{}", &uuid::Uuid::new_v4().simple().to_string()[..12])).clone()
}

/// What an actor knows of its lease.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Hold {
    /// Until when it holds the lease (0: it does not).
    pub until_ms: i64,
    /// Another process played this session since this actor loaded it.
    pub stale: bool,
}

/// What to do with the next input.
pub(super) enum Step {
    Play,
    /// Another process holds the session: hand the input over.
    HandOff,
    /// This actor holds the session again but its state is behind.
    Reload,
}

/// An input on its way to another process.
#[derive(Debug, Serialize, Deserialize)]
struct Handoff {
    player: Player,
    input: TurnInput,
    moderator: bool,
}

impl Engine {
    /// The renewal the next commit carries.
    pub(super) fn renewal(&self, now_ms: i64) -> LeaseRenewal<'_> {
        LeaseRenewal { owner: &self.owner, until_ms: now_ms + self.lease_ms }
    }

    /// Takes or renews the lease; `Ok(true)` when this actor holds it.
    pub(super) async fn claim(&self, state: &mut SessionState) -> Result<bool, EngineError> {
        let now = self.clock.now_ms();
        match self.store.claim_lease(&state.id, &self.owner, now, now + self.lease_ms).await? {
            Lease::Held => {
                if state.hold.until_ms == 0 {
                    telemetry().leases.inc();
                }
                state.hold.until_ms = now + self.lease_ms;
                Ok(true)
            }
            Lease::HeldBy { owner, .. } => {
                if state.hold.until_ms > 0 {
                    telemetry().leases.dec();
                }
                if state.hold.until_ms > 0 || !state.hold.stale {
                    tracing::info!(session = %state.id, holder = %owner, "another process plays this session");
                }
                state.hold = Hold { until_ms: 0, stale: true };
                Ok(false)
            }
        }
    }

    /// Whether to play the next input here: a lease with more than half
    /// its time left is used without asking the store.
    pub(super) async fn step(&self, state: &mut SessionState) -> Result<Step, EngineError> {
        let now = self.clock.now_ms();
        if state.hold.until_ms - now > self.lease_ms / 2 {
            return Ok(Step::Play);
        }
        let stale = state.hold.stale;
        Ok(match self.claim(state).await? {
            true if stale => Step::Reload,
            true => Step::Play,
            false => Step::HandOff,
        })
    }

    /// Queues `inbound` for whichever process holds the session (this one,
    /// for `Step::Reload`); the caller gets a silent, handed-off delivery.
    pub(super) async fn hand_off(&self, session_id: &str, inbound: Inbound) -> Result<Delivery, EngineError> {
        let event_id = inbound.event_id.clone().unwrap_or_else(|| format!("handoff:{}", uuid::Uuid::new_v4().simple()));
        let body = Handoff { player: inbound.player, input: inbound.input, moderator: inbound.moderator };
        let inbound = serde_json::to_string(&body).map_err(|e| EngineError::Resume(e.to_string()))?;
        let handed = Handed { session_id: session_id.to_string(), event_id, inbound };
        self.store.hand_off(&handed, self.clock.now_ms()).await?;
        telemetry().handoffs.inc();
        Ok(Delivery {
            reply: Reply { kind: ReplyKind::Notice, text: String::new(), verdict: None },
            outbox_id: None,
            messages: Vec::new(),
            choices: Vec::new(),
            duplicate: false,
            over: false,
            deadline_ms: None,
            handed_off: true,
        })
    }

    /// The session's replies not yet shown, when this process holds (or
    /// now takes) its lease; none while another process plays it, whose
    /// front end shows its own. A front end reopening a session shows these.
    pub async fn unsent_if_held(&self, session_id: &str) -> Result<Vec<OutboxItem>, EngineError> {
        let now = self.clock.now_ms();
        match self.store.claim_lease(session_id, &self.owner, now, now + self.lease_ms).await? {
            Lease::Held => Ok(self.store.unsent(session_id).await?),
            Lease::HeldBy { .. } => Ok(Vec::new()),
        }
    }

    /// Gives the lease up as the actor stops.
    pub(super) async fn release(&self, state: &SessionState) {
        if state.hold.until_ms > 0
            && let Err(e) = self.store.release_lease(&state.id, &self.owner).await
        {
            tracing::debug!(session = %state.id, error = %e, "could not release a lease; it expires by itself");
        }
    }

    /// Plays the inputs other processes handed to this one's sessions
    /// until the engine is dropped: at once when the store tells of one
    /// (PostgreSQL), and every `every` while some wait for their session to
    /// reopen here; otherwise every `every` where the store cannot tell, and
    /// every `IDLE_POLL` where it can (a notice lost over a reconnect, a
    /// holder that died). A session with no actor here is reopened through
    /// the courier first; an input is removed from the queue once its
    /// session played it (or found it played).
    pub fn poll_handoffs(self: &std::sync::Arc<Self>, every: Duration) -> tokio::task::JoinHandle<()> {
        self.handing.store(true, std::sync::atomic::Ordering::SeqCst);
        let engine = std::sync::Arc::downgrade(self);
        let (store, owner) = (self.store.clone(), self.owner.clone());
        self.spawn_work(async move {
            let mut signals = match store.handoff_signals(&owner).await {
                Ok(signals) => signals,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot listen for handed-over inputs; polling for them");
                    None
                }
            };
            let mut wait = every;
            loop {
                match signals.as_mut() {
                    Some(rx) => tokio::select! {
                        () = tokio::time::sleep(wait) => {}
                        got = rx.recv() => if got.is_none() { signals = None },
                    },
                    None => tokio::time::sleep(wait).await,
                }
                let Some(engine) = engine.upgrade().filter(|e| !e.is_stopped()) else { return };
                wait = match engine.play_handed().await {
                    Ok(false) if signals.is_some() => every.max(IDLE_POLL),
                    Ok(_) => every,
                    Err(e) => {
                        tracing::warn!(error = %e, "could not play handed-over inputs");
                        every
                    }
                };
            }
        })
    }

    /// Plays what waits for this process; `true` when some is left (its
    /// session is reopening here, or the batch was full). Sessions are
    /// played at once, each one's inputs in the order they were handed.
    async fn play_handed(self: &std::sync::Arc<Self>) -> Result<bool, EngineError> {
        const BATCH: u32 = 64;
        let handed = self.store.handed(&self.owner, self.clock.now_ms(), BATCH).await?;
        let full = handed.len() == BATCH as usize;
        let mut sessions: Vec<(String, Vec<Handed>)> = Vec::new();
        for item in handed {
            match sessions.iter_mut().find(|(id, _)| *id == item.session_id) {
                Some((_, items)) => items.push(item),
                None => sessions.push((item.session_id.clone(), vec![item])),
            }
        }
        let played = futures::future::join_all(sessions.into_iter().map(|(id, items)| self.play_handed_to(id, items)));
        let mut left = full;
        for result in played.await {
            left |= result?;
        }
        Ok(left)
    }

    /// One session's handed inputs, in order; `true` when some is left.
    async fn play_handed_to(
        self: &std::sync::Arc<Self>,
        session_id: String,
        items: Vec<Handed>,
    ) -> Result<bool, EngineError> {
        let Some(tx) = self.live_actor(&session_id) else {
            if let Some(courier) = self.courier.get() {
                courier.reopen(&session_id);
            }
            return Ok(true);
        };
        for item in items {
            let Some(inbound) = self.unpack(&item).await? else { continue };
            let delivery = send_job(&tx, inbound, true).await?;
            if delivery.handed_off {
                // Its actor no longer holds the session: the next poll (here
                // or in the holder) finds the input where it was.
                return Ok(true);
            }
            if !delivery.duplicate
                && !delivery.is_silent()
                && let Some(courier) = self.courier.get()
            {
                courier.deliver(&session_id, delivery);
            }
            self.store.drop_handed(&session_id, &item.event_id).await?;
        }
        Ok(false)
    }

    /// Whether inputs may reach this process's sessions through the store.
    pub(super) fn hands_over(&self) -> bool {
        self.handing.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Plays, in the order they were handed, the inputs other processes
    /// handed to this actor's session (before the input that reached it
    /// directly). One that fails stays queued for the poller.
    pub(super) async fn play_waiting(
        self: &std::sync::Arc<Self>,
        state: &mut SessionState,
        me: &mpsc::WeakSender<Job>,
    ) {
        let waiting = match self.store.handed_to(&state.id).await {
            Ok(waiting) => waiting,
            Err(e) => {
                tracing::warn!(session = %state.id, error = %e, "could not read the inputs handed to this session");
                return;
            }
        };
        for item in waiting {
            let inbound = match self.unpack(&item).await {
                Ok(Some(inbound)) => inbound,
                Ok(None) => continue,
                Err(e) => {
                    tracing::warn!(session = %state.id, error = %e, "could not drop an unreadable handed input");
                    return;
                }
            };
            let span = super::turn_span(state, Some(item.event_id.as_str()));
            let delivery = match self.handle(state, inbound).instrument(span).await {
                Ok(delivery) if delivery.handed_off => return,
                Ok(delivery) => delivery,
                Err(e) => {
                    tracing::warn!(session = %state.id, event = %item.event_id, error = %e, "a handed input failed; it stays queued");
                    return;
                }
            };
            let committed = delivery.outbox_id.is_some();
            if !delivery.duplicate
                && !delivery.is_silent()
                && let Some(courier) = self.courier.get()
            {
                courier.deliver(&state.id, delivery);
            }
            if let Err(e) = self.store.drop_handed(&state.id, &item.event_id).await {
                tracing::warn!(session = %state.id, error = %e, "a played handed input stays queued (its replay is a duplicate)");
            }
            if committed {
                self.after_turn(state, me).await;
            }
        }
    }

    /// A handed input as the actor takes it; `None` (and dropped from the
    /// queue) when it cannot be read.
    async fn unpack(&self, item: &Handed) -> Result<Option<Inbound>, EngineError> {
        let body: Handoff = match serde_json::from_str(&item.inbound) {
            Ok(body) => body,
            Err(e) => {
                tracing::error!(session = %item.session_id, event = %item.event_id, error = %e,
                    "an unreadable handed-over input is dropped");
                self.store.drop_handed(&item.session_id, &item.event_id).await?;
                return Ok(None);
            }
        };
        Ok(Some(Inbound {
            event_id: Some(item.event_id.clone()),
            player: body.player,
            input: body.input,
            progress: None,
            moderator: body.moderator,
        }))
    }

    fn live_actor(&self, session_id: &str) -> Option<mpsc::Sender<Job>> {
        let live = self.live.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        live.get(session_id).and_then(mpsc::WeakSender::upgrade).filter(|tx| !tx.is_closed())
    }
}
