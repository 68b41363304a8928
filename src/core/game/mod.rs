//! The engine's contract with a game, and the services every game gets.
//!
//! A game is two things: a pure state machine (`Game`: its own events,
//! rejections and serde snapshot; `apply` gives the next state or a
//! rejection and leaves the old state untouched) and a `Table`, the
//! per-session host the session actor drives (it runs the game's model
//! steps, builds its messages and passes them through its secrecy gate).
//! Turtle Soup (`core::soup` + `core::pipeline`) is one game on it.
//!
//! Services a game uses instead of re-inventing them:
//! - `seats`: a lobby (join, leave, start with a minimum and maximum,
//!   the host or a moderator starting early, AI seats) and seats by
//!   number (`#3 Carol`);
//! - `guess_ai`: AI seats under ordinary names, and the humans' guesses
//!   at them once the result is in;
//! - `message` (from `core::record`, which the store shares): outbound
//!   messages with an `Audience` (everyone, one seat privately,
//!   moderators), each an outbox row committed with its turn;
//! - `ballot`: secret simultaneous choices, revealed together;
//! - `timer`: durable deadlines that come back as ordinary inputs, and a
//!   reminder before one;
//! - `view`: what one seat may know, for an agent's prompt;
//! - `agents`: each AI move handed out once, counted, at a human's pace
//!   where a seat must pass for one;
//! - `secrets`: the secrecy gate cut per audience from the game's secrets;
//! - `selfplay`: AI-only games through one driver and one report.
//!
//! Nothing here does I/O: the actor (`core::actor`) commits and schedules.

pub mod agents;
pub mod ballot;
pub mod bundled;
pub mod drive;
pub mod error;
pub mod guess_ai;
pub mod host;
pub mod inbound;
pub mod input;
pub mod seats;
pub mod secrets;
pub mod selfplay;
pub mod table;
pub mod timer;
pub mod transcript;
pub mod view;

/// The record's vocabulary (`core::record`), where the games have always
/// found it: replies, audiences, verdicts, snapshots.
pub use crate::core::record::{self, message};
pub use crate::core::record::{Points, Snapshot, SnapshotError, TurnRecord};

use serde::{Serialize, de::DeserializeOwned};

pub use agents::{AgentLog, human_pace};
pub use ballot::{Ballot, BallotError, Tally};
pub use bundled::Bundled;
pub use error::EngineError;
pub use guess_ai::AiGuesses;
pub use host::{About, ContentCheck, CustomItem, HostedGame, Opened, StartDefaults, TableOptions};
pub use inbound::{Inbound, engine_player};
pub use input::TurnInput;
pub use message::{Audience, Message, Reply, ReplyKind};
pub use seats::{Seat, SeatError, SeatRules, Seats};
pub use secrets::{Secret, SecretGates};
pub use selfplay::{Figure, GameRow, Row, SelfPlay, SelfplayReport, SelfplayRun, Selfplayer};
pub use table::{Played, Table, Turn, TurnContext};
pub use timer::{Deadline, Fired};
pub use view::SeatView;

/// A 64-bit mix (SplitMix64): a game's seeded choices (roles, personas,
/// tie-breaks) come from the recorded seed through it, so a replay decides
/// the same way.
pub fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Fisher–Yates from a seed (a deal, a speaking order).
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = seed;
    for i in (1..items.len()).rev() {
        state = splitmix(state);
        let j = (state % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

/// A game's rules as a pure state machine.
pub trait Game: Clone + Serialize + DeserializeOwned + Send + Sync + 'static {
    /// The game's name in the store and the catalogue (`soup`, `undercover`).
    const KIND: &'static str;
    /// The snapshot's schema version; `restore` upgrades older ones.
    const VERSION: u32;
    /// What the state is played against and never changes within a game
    /// (a puzzle, a word pair, a world).
    type Content: ?Sized;
    /// Something that happened, already judged or decided.
    type Event;
    /// Why an event was refused; the state is unchanged.
    type Rejection;

    /// The next state, or a rejection with `self` untouched.
    fn apply(&self, event: &Self::Event, content: &Self::Content) -> Result<Self, Self::Rejection>;

    /// The phase's stored name (`lobby`, `in_progress`, `voting`, ...).
    fn phase_name(&self) -> &'static str;

    /// Whether the game has ended.
    fn is_over(&self) -> bool;

    /// A count shown in session lists (Soup: questions asked).
    fn progress(&self) -> u32 {
        0
    }

    /// The phase's deadline, if it has one.
    fn deadline(&self) -> Option<Deadline> {
        None
    }

    /// The state as stored.
    fn snapshot(&self) -> Result<Snapshot, SnapshotError> {
        let body = serde_json::to_string(self).map_err(|e| SnapshotError::Malformed(e.to_string()))?;
        Ok(Snapshot {
            kind: Self::KIND.to_string(),
            version: Self::VERSION,
            phase: self.phase_name().to_string(),
            progress: self.progress(),
            deadline_ms: self.deadline().map(|d| d.at_ms),
            body,
        })
    }

    /// The state from a stored snapshot. The default reads the current
    /// version only; a game whose snapshot changed overrides it to upgrade.
    fn restore(snapshot: &Snapshot) -> Result<Self, SnapshotError> {
        snapshot.expect(Self::KIND, Self::VERSION)?;
        serde_json::from_str(&snapshot.body).map_err(|e| SnapshotError::Malformed(e.to_string()))
    }
}

#[cfg(test)]
mod tests;
