//! "Guess the AI": in an anonymous game AI seats play under ordinary
//! names (`Seats::disguise_last`); once the result is in, every human
//! names the seats it thinks were AI, scored on its own. A game keeps the
//! phase (its own `GuessAi`) and these guesses in its state; the rules of
//! guessing are here.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Deadline, Seats};

/// The guessing phase's deadline tag.
pub const TAG: &str = "guess-ai";

/// Human seat → the seats it named as AI. Stored as that map.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AiGuesses(BTreeMap<String, Vec<String>>);

/// A guess from a seat that is not a human's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotAHuman;

impl AiGuesses {
    /// The guessing phase's deadline when a game's result goes on to it:
    /// AI seats played under ordinary names (`anonymous`) beside humans,
    /// and the game was not ended early (`ended`). `None`: the game is over.
    pub fn deadline(anonymous: bool, ended: bool, seats: &Seats, now_ms: i64, seconds: u32) -> Option<Deadline> {
        (anonymous && !ended && seats.mixed()).then(|| Deadline::after(now_ms, seconds, TAG))
    }

    /// Keeps a human's guess (a second one replaces the first). `true`:
    /// every human has guessed, so the game is over.
    pub fn guess(&mut self, seats: &Seats, seat: &str, named: &[String]) -> Result<bool, NotAHuman> {
        if seats.seat(seat).is_none_or(|s| s.ai) {
            return Err(NotAHuman);
        }
        self.0.insert(seat.to_string(), named.to_vec());
        Ok(seats.humans().all(|h| self.0.contains_key(&h.player.id)))
    }

    /// How many humans have guessed.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The humans yet to guess, in seating order.
    pub fn waiting(&self, seats: &Seats) -> Vec<String> {
        seats.humans().filter(|h| !self.0.contains_key(&h.player.id)).map(|h| h.player.id.clone()).collect()
    }

    /// Each human's score: (seat, named rightly, named wrongly).
    pub fn scores(&self, seats: &Seats) -> Vec<(String, usize, usize)> {
        seats
            .humans()
            .filter_map(|h| {
                let guessed = self.0.get(&h.player.id)?;
                let right = guessed.iter().filter(|s| seats.is_ai(s)).count();
                Some((h.player.id.clone(), right, guessed.len() - right))
            })
            .collect()
    }
}
