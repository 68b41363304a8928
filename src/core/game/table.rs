//! `Table`: one session's game as the session actor drives it. The actor
//! owns the order of inputs, de-duplication, commits, timers and agents;
//! the table owns the game's state, its model steps and its secrecy gate.
//!
//! The rule every table keeps: `play` changes no game state (it may warm
//! caches); the actor commits what `play` returned, and only then hands it
//! back through `adopt`. A play with `commit: false` (a model was down) is
//! shown but never stored, so a turn never half-happens.

use std::any::Any;
use std::sync::Arc;

use async_trait::async_trait;

use crate::core::secrecy::Blocked;
use crate::core::services::{Pipeline, ProgressFn};
use crate::core::vocab::Language;
use crate::core::vocab::Player;

use super::message::{Audience, Message, Reply, ReplyKind};
use super::{Deadline, Fired, Game, Inbound, Points, Seats, SecretGates, Snapshot, TurnInput, TurnRecord};

/// What a table may use during a turn.
pub struct TurnContext<'a> {
    /// Models, prompts, knowledge, memory and embedder.
    pub pipeline: &'a Pipeline,
    pub now_ms: i64,
    pub progress: ProgressFn<'a>,
}

impl Points {
    /// A seated game's result: for each human, a point when it was among
    /// `winners`, and the role it played.
    pub fn of_winners(seats: &Seats, winners: &[String], role: impl Fn(&str) -> Option<String>) -> Vec<Points> {
        seats
            .humans()
            .map(|s| {
                let won = winners.contains(&s.player.id);
                Points { player: s.player.clone(), points: u32::from(won), solved: won, role: role(&s.player.id) }
            })
            .collect()
    }
}

/// What one input did, not yet committed.
pub struct Played {
    /// The answer to whoever moved, for everyone to see unless it is a
    /// refusal a front end shows privately.
    pub reply: Reply,
    /// Further messages, each with its audience.
    pub messages: Vec<Message>,
    /// The options of a ballot this reply opens (id, label): front ends
    /// show them as buttons. Not stored: the vote verb works without them.
    pub choices: Vec<(String, String)>,
    pub record: TurnRecord,
    /// The state after the turn, as stored; `None` when nothing changed.
    pub snapshot: Option<Snapshot>,
    /// Set on the turn that ends the game.
    pub points: Vec<Points>,
    /// False when the turn did not happen (a model was unavailable):
    /// nothing is stored.
    pub commit: bool,
    /// Set when the secrecy gate replaced a message (a security event).
    pub withheld: Option<Blocked>,
    /// The new state, for `Table::adopt`; the engine never looks inside.
    pub next: Option<Box<dyn Any + Send + Sync>>,
}

/// What a turn that moved the game shows and keeps (`Played::moved`).
pub struct Turn {
    pub reply: Reply,
    pub messages: Vec<Message>,
    /// The options of a ballot the turn opens.
    pub choices: Vec<(String, String)>,
    pub record: TurnRecord,
    pub points: Vec<Points>,
}

impl Played {
    /// A reply that changes nothing.
    pub fn reply(reply: Reply) -> Played {
        Played {
            reply,
            messages: Vec::new(),
            choices: Vec::new(),
            record: TurnRecord::default(),
            snapshot: None,
            points: Vec::new(),
            commit: true,
            withheld: None,
            next: None,
        }
    }

    /// A refused move: the reason, and nothing changed.
    pub fn refused(text: impl Into<String>) -> Played {
        Played::reply(Reply::new(ReplyKind::Rejected, text))
    }

    /// `text` for one seat alone, and `receipt` (that it was sent) as
    /// the reply.
    pub fn to_seat(receipt: impl Into<String>, seat: &str, text: impl Into<String>) -> Played {
        let mut played = Played::reply(Reply::new(ReplyKind::Private, receipt));
        played.messages.push(Message::to(Audience::Seat(seat.to_string()), ReplyKind::Private, text));
        played
    }

    /// A turn that shows nothing and is not stored (a timer for a phase
    /// that already ended).
    pub fn silent() -> Played {
        Played { commit: false, ..Played::reply(Reply::new(ReplyKind::Notice, String::new())) }
    }

    /// The turn that took the game to `next`: `turn` with `next`'s
    /// snapshot, every message gated for its audience unless the result
    /// is in (`over`: its turn shows every secret). `Err`: the refusal,
    /// when the state cannot be stored (the turn changes nothing). The
    /// table then hands `adopt` its part with `Played::adopting`.
    pub fn moved<G: Game>(
        next: &G,
        turn: Turn,
        gates: &SecretGates,
        over: bool,
        withheld: &str,
    ) -> Result<Played, Box<Played>> {
        let snapshot = next.snapshot().map_err(|e| Box::new(Played::refused(format!("internal error: {e}"))))?;
        let Turn { reply, messages, choices, record, points } = turn;
        let played = Played { snapshot: Some(snapshot), messages, choices, record, points, ..Played::reply(reply) };
        Ok(gates.gate(played, over, withheld))
    }

    /// The game ended idle at `next`: `text` said, the state stored as it
    /// is (`None` when it cannot be).
    pub fn idle_end<G: Game>(next: &G, text: String) -> Played {
        Played { snapshot: next.snapshot().ok(), ..Played::reply(Reply::new(ReplyKind::Ended, text)) }
    }

    /// Hands `Table::adopt` what it takes after the commit: the new state
    /// and what the table keeps with it.
    pub fn adopting(self, next: impl Any + Send + Sync) -> Played {
        Played { next: Some(Box::new(next)), ..self }
    }
}

/// An agent's move, ready to be queued like a player's.
#[derive(Debug, Clone)]
pub struct AgentMove {
    pub seat: Player,
    pub input: TurnInput,
    /// Unique for this move, so a replayed agent turn is answered once.
    pub event_id: String,
    /// Played no earlier than this (engine clock); `None`: at once. A
    /// seat that must pass for a human takes a human's time.
    pub not_before_ms: Option<i64>,
}

#[async_trait]
pub trait Table: Send + Sync {
    /// The game's `Game::KIND`.
    fn kind(&self) -> &'static str;
    fn language(&self) -> Language;
    fn is_over(&self) -> bool;
    /// Whether the game is running (not in a lobby, not over): an idle
    /// running game expires.
    fn is_running(&self) -> bool;
    /// The current phase's deadline, if any.
    fn deadline(&self) -> Option<Deadline>;
    /// A timer before the deadline that reminds whoever the phase waits
    /// for (its tag is the game's, told apart from the deadline's).
    fn reminder(&self) -> Option<Deadline> {
        None
    }

    /// Plays one input against the state as it is now. Changes no game state.
    async fn play(&mut self, ctx: &TurnContext<'_>, inbound: &Inbound) -> Played;

    /// Ends a game that sat idle too long.
    fn expire(&mut self, ctx: &TurnContext<'_>) -> Played;

    /// Takes the committed result of `play` or `expire`.
    fn adopt(&mut self, played: Played);

    /// Moves the game's agents owe now (an AI seat's vote), each built from
    /// that seat's `SeatView`. `seq` is the last committed turn.
    async fn agent_moves(&self, _ctx: &TurnContext<'_>, _seq: i64) -> Vec<AgentMove> {
        Vec::new()
    }

    /// Work after the game ended (memory), run in the background.
    fn ended(&self, _after: &Afterwards, _session_id: &str, _now_ms: i64) -> Option<EndedWork> {
        None
    }
}

/// A table of one pure `Game`: the engine derives the rest of `Table` from
/// it (the game's kind, whether it is over, its deadline) and hands
/// `adopt` the typed result `play` left, without a downcast in the game.
/// Every game but Turtle Soup is one.
#[async_trait]
pub trait GameTable: Send + Sync + 'static {
    type Game: Game;
    /// What `play` leaves in `Played::next` for `adopt`.
    type Next: Send + Sync + 'static;

    fn game(&self) -> &Self::Game;
    fn language(&self) -> Language;
    /// Whether the game is running (not in a lobby, not over).
    fn is_running(&self) -> bool;
    /// A timer before the deadline that reminds whoever the phase waits for.
    fn reminder(&self) -> Option<Deadline> {
        None
    }
    async fn play(&mut self, ctx: &TurnContext<'_>, inbound: &Inbound) -> Played;
    fn expire(&mut self, ctx: &TurnContext<'_>) -> Played;
    /// Takes the committed `Played::next`.
    fn adopt(&mut self, next: Self::Next);
    async fn agent_moves(&self, _ctx: &TurnContext<'_>, _seq: i64) -> Vec<AgentMove> {
        Vec::new()
    }
    fn ended(&self, _after: &Afterwards, _session_id: &str, _now_ms: i64) -> Option<EndedWork> {
        None
    }
}

#[async_trait]
impl<T: GameTable> Table for T {
    fn kind(&self) -> &'static str {
        <T::Game as Game>::KIND
    }

    fn language(&self) -> Language {
        GameTable::language(self)
    }

    fn is_over(&self) -> bool {
        self.game().is_over()
    }

    fn is_running(&self) -> bool {
        GameTable::is_running(self)
    }

    fn deadline(&self) -> Option<Deadline> {
        self.game().deadline()
    }

    fn reminder(&self) -> Option<Deadline> {
        GameTable::reminder(self)
    }

    async fn play(&mut self, ctx: &TurnContext<'_>, inbound: &Inbound) -> Played {
        GameTable::play(self, ctx, inbound).await
    }

    fn expire(&mut self, ctx: &TurnContext<'_>) -> Played {
        GameTable::expire(self, ctx)
    }

    fn adopt(&mut self, played: Played) {
        if let Some(next) = played.next.and_then(|n| n.downcast::<T::Next>().ok()) {
            GameTable::adopt(self, *next);
        }
    }

    async fn agent_moves(&self, ctx: &TurnContext<'_>, seq: i64) -> Vec<AgentMove> {
        GameTable::agent_moves(self, ctx, seq).await
    }

    fn ended(&self, after: &Afterwards, session_id: &str, now_ms: i64) -> Option<EndedWork> {
        GameTable::ended(self, after, session_id, now_ms)
    }
}

/// What a seated table answers itself, without playing its game: the
/// status, a seat's own secret again, and its phase's reminder
/// (`answered`).
pub trait Answers: GameTable {
    /// The status (the lobby's, while it is open), gated.
    fn status(&self) -> Played;
    /// What the seat was told privately, again, to it alone.
    fn whisper(&self, seat: &str) -> Played;
    /// The phase's reminder, `left` seconds before its deadline. `None`:
    /// the game plays the timer as its event.
    fn remind(&self, left: i64) -> Option<Played>;

    /// A timer's turn when it is a reminder (`remind`) or for a phase that
    /// already ended (answered with nothing, not stored). `None`: the
    /// phase's deadline, which the game plays as its event.
    fn timer(&self, tag: &str, now_ms: i64) -> Option<Played> {
        match Fired::of(self.game().deadline().as_ref(), GameTable::reminder(self), tag, now_ms) {
            Fired::Stale => Some(Played::silent()),
            Fired::Reminder { left } => self.remind(left),
            Fired::Deadline => None,
        }
    }
}

/// The status, the whisper, a reminder or a stale timer, as `table`
/// answers them; `None`: a move (or a deadline) its game plays.
pub fn answered<T: Answers>(table: &T, inbound: &Inbound, now_ms: i64) -> Option<Played> {
    match &inbound.input {
        TurnInput::Status => Some(table.status()),
        TurnInput::Whisper => Some(table.whisper(&inbound.player.id)),
        TurnInput::Timer(tag) => table.timer(tag, now_ms),
        _ => None,
    }
}

/// What a finished game's background work may use: the services (models,
/// memory) and the record.
#[derive(Clone)]
pub struct Afterwards {
    pub pipeline: Pipeline,
    pub store: Arc<dyn crate::core::store::Store>,
}

/// Background work a finished game leaves (writing memory).
pub type EndedWork = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>;
