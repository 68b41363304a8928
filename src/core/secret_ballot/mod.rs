//! "Secret Ballot": the smallest game that uses every engine service, and
//! the proof that a game is one folder (this one, its declaration and one
//! line in `core::games!`). A lobby (3–4 seats, AI seats allowed); on start
//! each seat is told a secret phrase privately; one secret vote ("whom do
//! you trust?") with a deadline; the votes are revealed at once when
//! everyone has voted or the deadline passes. Its AI seats vote from their
//! `SeatView` through the narrator model (public side only).

pub mod host;
pub mod table;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::core::game::{Ballot, Deadline, Game, SeatRules, Seats};
use crate::core::vocab::Player;

pub use host::{BallotHost, hosted};
pub use table::BallotTable;

/// The `ballot` group, as the catalogue reads it.
pub const DECLARATION: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/commands/secret_ballot.toml"));

pub const RULES: SeatRules = SeatRules { min: 3, max: 4, max_ai: 2 };
pub const VOTE_SECONDS: u32 = 45;
/// One phrase per seat, in seating order.
pub const PHRASES: [&str; 4] = ["amber lighthouse", "velvet compass", "paper tiger", "silver kettle"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Lobby,
    Voting,
    Over,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BallotGame {
    pub seats: Seats,
    pub phase: Phase,
    /// Seat id → its secret phrase.
    pub phrases: BTreeMap<String, String>,
    pub ballot: Option<Ballot>,
    pub deadline: Option<Deadline>,
    /// The reveal, once the ballot closed.
    pub result: Option<String>,
}

#[derive(Debug, Clone)]
pub enum Event {
    Join(Player),
    Leave(String),
    AddAi,
    Begin { by: String, moderator: bool, now_ms: i64 },
    Vote { voter: String, option: String },
    Close { tag: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    Seat(String),
    Ballot(String),
    NotNow,
    StaleTimer,
}

impl BallotGame {
    pub fn new(host: &Player) -> BallotGame {
        BallotGame {
            seats: Seats::open(RULES, host),
            phase: Phase::Lobby,
            phrases: BTreeMap::new(),
            ballot: None,
            deadline: None,
            result: None,
        }
    }

    fn close(&self) -> BallotGame {
        let mut next = self.clone();
        let Some(ballot) = &self.ballot else { return next };
        let (closed, tally) = ballot.close();
        let name = |id: &str| self.seats.seat(id).map_or("?".to_string(), |s| s.player.name.clone());
        let mut lines: Vec<String> = tally.votes.iter().map(|(v, o)| format!("{} → {}", name(v), name(o))).collect();
        lines.extend(tally.abstained.iter().map(|v| format!("{} did not vote", name(v))));
        let verdict = match tally.winner() {
            Some(id) => format!("Most trusted: {}.", name(id)),
            None => "No one is trusted most.".to_string(),
        };
        next.result = Some(format!("{}\n{verdict}", lines.join("\n")));
        next.ballot = Some(closed);
        next.deadline = None;
        next.phase = Phase::Over;
        next
    }
}

impl Game for BallotGame {
    const KIND: &'static str = "test-ballot";
    const VERSION: u32 = 1;
    type Content = ();
    type Event = Event;
    type Rejection = Refusal;

    fn apply(&self, event: &Event, _: &()) -> Result<BallotGame, Refusal> {
        let seat = |r: Result<Seats, crate::core::game::SeatError>| r.map_err(|e| Refusal::Seat(e.to_string()));
        let mut next = self.clone();
        match (self.phase, event) {
            (Phase::Lobby, Event::Join(p)) => next.seats = seat(self.seats.join(p))?,
            (Phase::Lobby, Event::Leave(id)) => next.seats = seat(self.seats.leave(id))?,
            (Phase::Lobby, Event::AddAi) => next.seats = seat(self.seats.add_ai())?,
            (Phase::Lobby, Event::Begin { by, moderator, now_ms }) => {
                next.seats = seat(self.seats.start(by, *moderator))?;
                let ids: Vec<String> = next.seats.seats.iter().map(|s| s.player.id.clone()).collect();
                next.phrases = ids.iter().cloned().zip(PHRASES.iter().map(|p| p.to_string())).collect();
                let options = next.seats.seats.iter().map(|s| (s.player.id.clone(), s.player.name.clone())).collect();
                next.ballot = Some(Ballot::open(options, ids));
                next.deadline = Some(Deadline::after(*now_ms, VOTE_SECONDS, "vote:1"));
                next.phase = Phase::Voting;
            }
            (Phase::Voting, Event::Vote { voter, option }) => {
                let ballot = self.ballot.as_ref().ok_or(Refusal::NotNow)?;
                let cast = ballot.cast(voter, option).map_err(|e| Refusal::Ballot(e.to_string()))?;
                next.ballot = Some(cast);
                if next.ballot.as_ref().is_some_and(Ballot::is_complete) {
                    next = next.close();
                }
            }
            (Phase::Voting, Event::Close { tag }) => {
                if self.deadline.as_ref().is_none_or(|d| &d.tag != tag) {
                    return Err(Refusal::StaleTimer);
                }
                next = self.close();
            }
            (Phase::Over, Event::Close { .. }) => return Err(Refusal::StaleTimer),
            _ => return Err(Refusal::NotNow),
        }
        Ok(next)
    }

    fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::Lobby => "lobby",
            Phase::Voting => "voting",
            Phase::Over => "over",
        }
    }

    fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    fn deadline(&self) -> Option<Deadline> {
        self.deadline.clone()
    }
}

