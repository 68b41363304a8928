//! Seats and the lobby, for games played by a fixed set of players.
//!
//! Pure: every change returns a new `Seats` or a `SeatError` with the old
//! value untouched. Turtle Soup does not use seats (anyone in the thread
//! plays); Undercover, the Arena and the test game do.

use serde::{Deserialize, Serialize};

use crate::core::vocab::{Language, Player};

use super::splitmix;

/// How many seats a game has, and how many of them agents may fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRules {
    pub min: usize,
    pub max: usize,
    /// Most seats AI agents may take.
    pub max_ai: usize,
}

/// One seat: a player, human or agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    pub player: Player,
    pub ai: bool,
}

/// The seats of one game, in joining order; the first human is the host.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seats {
    pub rules: SeatRules,
    pub seats: Vec<Seat>,
    /// Who opened the lobby; they (or a moderator) may start early.
    pub host: String,
    /// Once started, nobody joins or leaves through the lobby.
    pub started: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SeatError {
    #[error("already seated")]
    AlreadySeated,
    #[error("not seated")]
    NotSeated,
    #[error("the table is full ({max} seats)")]
    Full { max: usize },
    #[error("no more AI seats ({max_ai} at most)")]
    NoAiSeats { max_ai: usize },
    #[error("only the host or a moderator may start")]
    NotHost,
    #[error("{min} seats are needed to start, {seated} are taken")]
    TooFew { min: usize, seated: usize },
    #[error("the game has already started")]
    Started,
}

/// The name an agent's seat shows: always marked as AI.
pub fn ai_name(n: usize) -> String {
    format!("AI {n} 🤖")
}

/// Ordinary names for AI seats in an anonymous game (`Seats::disguise_last`).
const DISGUISES_EN: [&str; 12] =
    ["Alex", "Sam", "Jordan", "Robin", "Casey", "Morgan", "Riley", "Jamie", "Taylor", "Quinn", "Avery", "Drew"];
const DISGUISES_ZH: [&str; 12] =
    ["小林", "阿杰", "小雨", "老周", "小美", "阿强", "小敏", "大伟", "小芳", "阿龙", "小杨", "阿明"];

impl Seats {
    /// A lobby opened by `host`, who takes the first seat.
    pub fn open(rules: SeatRules, host: &Player) -> Seats {
        Seats { rules, seats: vec![Seat { player: host.clone(), ai: false }], host: host.id.clone(), started: false }
    }

    pub fn is_seated(&self, player_id: &str) -> bool {
        self.seats.iter().any(|s| s.player.id == player_id)
    }

    pub fn seat(&self, player_id: &str) -> Option<&Seat> {
        self.seats.iter().find(|s| s.player.id == player_id)
    }

    pub fn len(&self) -> usize {
        self.seats.len()
    }

    pub fn is_empty(&self) -> bool {
        self.seats.is_empty()
    }

    pub fn ai_count(&self) -> usize {
        self.seats.iter().filter(|s| s.ai).count()
    }

    pub fn humans(&self) -> impl Iterator<Item = &Seat> {
        self.seats.iter().filter(|s| !s.ai)
    }

    pub fn agents(&self) -> impl Iterator<Item = &Seat> {
        self.seats.iter().filter(|s| s.ai)
    }

    fn open_check(&self) -> Result<(), SeatError> {
        if self.started {
            return Err(SeatError::Started);
        }
        if self.seats.len() >= self.rules.max {
            return Err(SeatError::Full { max: self.rules.max });
        }
        Ok(())
    }

    pub fn join(&self, player: &Player) -> Result<Seats, SeatError> {
        if self.is_seated(&player.id) {
            return Err(SeatError::AlreadySeated);
        }
        self.open_check()?;
        let mut next = self.clone();
        next.seats.push(Seat { player: player.clone(), ai: false });
        Ok(next)
    }

    pub fn leave(&self, player_id: &str) -> Result<Seats, SeatError> {
        if self.started {
            return Err(SeatError::Started);
        }
        if !self.is_seated(player_id) {
            return Err(SeatError::NotSeated);
        }
        let mut next = self.clone();
        next.seats.retain(|s| s.player.id != player_id);
        let first_human = next.humans().next().map(|s| s.player.id.clone());
        if next.host == player_id
            && let Some(first) = first_human
        {
            next.host = first;
        }
        Ok(next)
    }

    /// Seats an agent, named and marked as AI; its id is `ai:<n>`.
    pub fn add_ai(&self) -> Result<Seats, SeatError> {
        self.open_check()?;
        if self.ai_count() >= self.rules.max_ai {
            return Err(SeatError::NoAiSeats { max_ai: self.rules.max_ai });
        }
        let n = (1..).find(|n| !self.is_seated(&format!("ai:{n}"))).unwrap_or(1);
        let mut next = self.clone();
        next.seats.push(Seat { player: Player { id: format!("ai:{n}"), name: ai_name(n) }, ai: true });
        Ok(next)
    }

    /// Starts the game: by the host or a moderator, with at least `min` seats.
    pub fn start(&self, by: &str, moderator: bool) -> Result<Seats, SeatError> {
        if self.started {
            return Err(SeatError::Started);
        }
        if by != self.host && !moderator {
            return Err(SeatError::NotHost);
        }
        if self.seats.len() < self.rules.min {
            return Err(SeatError::TooFew { min: self.rules.min, seated: self.seats.len() });
        }
        let mut next = self.clone();
        next.started = true;
        Ok(next)
    }

    /// Whether the lobby is full, so the game may start on its own.
    pub fn is_full(&self) -> bool {
        self.seats.len() >= self.rules.max
    }

    /// Whether `by` may lead the table (start early, end the game): the
    /// host, or a moderator.
    pub fn may_lead(&self, by: &str, moderator: bool) -> bool {
        moderator || by == self.host
    }
}

/// Seats by number, as players name them: seat 1 is the first to sit.
impl Seats {
    /// Seat ids in seating order.
    pub fn ids(&self) -> Vec<String> {
        self.seats.iter().map(|s| s.player.id.clone()).collect()
    }

    /// A seat's number as shown (1-based, seating order).
    pub fn number(&self, seat: &str) -> Option<usize> {
        self.seats.iter().position(|s| s.player.id == seat).map(|i| i + 1)
    }

    /// The seat a typed number names (`3`, `#3`).
    pub fn by_number(&self, typed: &str) -> Option<&str> {
        let n: usize = typed.trim().trim_start_matches('#').parse().ok()?;
        self.seats.get(n.checked_sub(1)?).map(|s| s.player.id.as_str())
    }

    /// The seats a text names by number (`2 4`, `#2, #4`), in its order,
    /// a number repeated at once counted once.
    pub fn by_numbers(&self, text: &str) -> Vec<String> {
        let mut named: Vec<String> =
            text.split(|c: char| !c.is_ascii_digit()).filter_map(|n| self.by_number(n)).map(str::to_string).collect();
        named.dedup();
        named
    }

    /// A seated player's name.
    pub fn name_of(&self, seat: &str) -> Option<&str> {
        self.seat(seat).map(|s| s.player.name.as_str())
    }

    /// `#3 Carol`: a seat's number and name (`#0 ?` for nobody seated).
    pub fn label(&self, seat: &str) -> String {
        format!("#{} {}", self.number(seat).unwrap_or(0), self.name_of(seat).unwrap_or("?"))
    }

    pub fn is_ai(&self, seat: &str) -> bool {
        self.seat(seat).is_some_and(|s| s.ai)
    }

    /// Whether humans and AI seats play together.
    pub fn mixed(&self) -> bool {
        self.humans().next().is_some() && self.agents().next().is_some()
    }

    /// Gives the last seat (an AI seat just added to an anonymous lobby)
    /// an ordinary name nobody at the table has, picked by `seed`.
    pub fn disguise_last(&mut self, language: Language, seed: u64) {
        let names = language.pick(&DISGUISES_EN, &DISGUISES_ZH);
        let taken: Vec<String> = self.seats.iter().map(|s| s.player.name.to_lowercase()).collect();
        let start = (splitmix(seed ^ self.seats.len() as u64) % names.len() as u64) as usize;
        let free =
            (0..names.len()).map(|i| names[(start + i) % names.len()]).find(|n| !taken.contains(&n.to_lowercase()));
        if let (Some(name), Some(seat)) = (free, self.seats.last_mut()) {
            seat.player.name = name.to_string();
        }
    }
}
