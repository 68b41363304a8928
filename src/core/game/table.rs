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

use super::record::Intent;
use crate::core::prompts::PublicTurn;
use crate::core::secrecy::Blocked;
use crate::core::services::{Pipeline, ProgressFn, Usage};
use crate::core::vocab::Language;
use crate::core::vocab::Player;

use super::Inbound;
use super::message::{Message, Reply};
use super::{Deadline, Game, Snapshot};

/// What a table may use during a turn.
pub struct TurnContext<'a> {
    /// Models, prompts, knowledge, memory and embedder.
    pub pipeline: &'a Pipeline,
    pub now_ms: i64,
    pub progress: ProgressFn<'a>,
}

/// The turn row's fields.
#[derive(Debug, Clone, Default)]
pub struct TurnRecord {
    pub intent: Option<Intent>,
    pub facts: Vec<String>,
    /// The public line to add to the history, when the turn was a real move.
    pub public: Option<PublicTurn>,
    pub usage: Usage,
}

/// Points a player won in a game that just ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Points {
    pub player: Player,
    pub points: u32,
    /// Solved the puzzle; in a seated game, won.
    pub solved: bool,
    /// The role played, in games with roles (`undercover`).
    pub role: Option<String>,
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
}

/// An agent's move, ready to be queued like a player's.
#[derive(Debug, Clone)]
pub struct AgentMove {
    pub seat: Player,
    pub input: crate::core::game::TurnInput,
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

/// What a finished game's background work may use: the services (models,
/// memory) and the record.
#[derive(Clone)]
pub struct Afterwards {
    pub pipeline: Pipeline,
    pub store: Arc<dyn crate::core::store::Store>,
}

/// Background work a finished game leaves (writing memory).
pub type EndedWork = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>;
