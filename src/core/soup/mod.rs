//! Turtle Soup as a state machine that can't do I/O.
//!
//! `SoupGame::apply` takes an event that has already been judged (the model
//! calls happen in `pipeline`) and returns the next state, or a rejection
//! and leaves `self` untouched, so a refused input never half-happens.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use self::puzzle::Puzzle;
use self::verdict::Verdict;
use crate::core::vocab::Player;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Lobby,
    InProgress,
    Solved,
    GaveUp,
    Revealed,
    Expired,
}

impl Phase {
    pub fn is_over(self) -> bool {
        matches!(self, Phase::Solved | Phase::GaveUp | Phase::Revealed | Phase::Expired)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Lobby => "lobby",
            Phase::InProgress => "in_progress",
            Phase::Solved => "solved",
            Phase::GaveUp => "gave_up",
            Phase::Revealed => "revealed",
            Phase::Expired => "expired",
        }
    }
}

/// Per-player counters within one game.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerTally {
    pub name: String,
    pub questions: u32,
    pub guesses: u32,
    pub facts_found: u32,
}

/// The whole state of one game. Serialised as the session snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SoupGame {
    pub puzzle_id: String,
    pub phase: Phase,
    pub hint_limit: u32,
    pub questions: u32,
    pub hints_used: u32,
    pub guesses: u32,
    /// Key facts found so far, and who found each first.
    pub found: BTreeMap<String, String>,
    /// Consistency ledger: normalised question → verdict given.
    pub ledger: BTreeMap<String, Verdict>,
    pub players: BTreeMap<String, PlayerTally>,
    /// Who solved it, when solved.
    pub solver: Option<String>,
    /// AI players at the table (named as AI; they ask from public
    /// information only).
    #[serde(default)]
    pub ai_players: u32,
}

/// Something that happened, already judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SoupEvent {
    Start,
    Asked { player: Player, key: String, verdict: Verdict },
    Guessed { player: Player, facts: Vec<String> },
    HintTaken,
    GaveUp,
    Revealed,
    Expired,
}

/// Why an event was refused; the state is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rejection {
    NotStarted,
    AlreadyStarted,
    GameOver(Phase),
    NoHintsLeft { limit: u32 },
}

/// What a guess achieved, for the reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GuessGrade {
    /// Facts this guess stated.
    pub stated: usize,
    /// Facts found in the game so far, after this guess.
    pub found_total: usize,
    pub fact_count: usize,
    pub solved: bool,
}

impl SoupGame {
    pub fn new(puzzle: &Puzzle, hint_limit: u32) -> Self {
        SoupGame {
            puzzle_id: puzzle.id.clone(),
            phase: Phase::Lobby,
            hint_limit: hint_limit.min(puzzle.hints.len() as u32),
            questions: 0,
            hints_used: 0,
            guesses: 0,
            found: BTreeMap::new(),
            ledger: BTreeMap::new(),
            players: BTreeMap::new(),
            solver: None,
            ai_players: 0,
        }
    }

    /// Whether an event of this kind could be applied now; used before any
    /// model call so a refused input costs nothing.
    pub fn check(&self, event: &SoupEvent) -> Result<(), Rejection> {
        match (self.phase, event) {
            (Phase::Lobby, SoupEvent::Start) => Ok(()),
            (Phase::Lobby, _) => Err(Rejection::NotStarted),
            (Phase::InProgress, SoupEvent::Start) => Err(Rejection::AlreadyStarted),
            (Phase::InProgress, SoupEvent::HintTaken) if self.hints_used >= self.hint_limit => {
                Err(Rejection::NoHintsLeft { limit: self.hint_limit })
            }
            (Phase::InProgress, _) => Ok(()),
            (over, _) => Err(Rejection::GameOver(over)),
        }
    }

    /// Applies a judged event. On rejection `self` is unchanged.
    pub fn apply(&self, event: &SoupEvent, puzzle: &Puzzle) -> Result<SoupGame, Rejection> {
        self.check(event)?;
        let mut next = self.clone();
        match event {
            SoupEvent::Start => next.phase = Phase::InProgress,
            // A repeated question is answered from the ledger and costs nothing.
            SoupEvent::Asked { player, key, verdict } if !self.ledger.contains_key(key) => {
                next.questions += 1;
                next.tally(player).questions += 1;
                next.ledger.insert(key.clone(), *verdict);
            }
            SoupEvent::Asked { .. } => {}
            SoupEvent::Guessed { player, facts } => next.record_guess(player, facts, puzzle),
            SoupEvent::HintTaken => next.hints_used += 1,
            SoupEvent::GaveUp => next.phase = Phase::GaveUp,
            SoupEvent::Revealed => next.phase = Phase::Revealed,
            SoupEvent::Expired => next.phase = Phase::Expired,
        }
        Ok(next)
    }

    fn record_guess(&mut self, player: &Player, facts: &[String], puzzle: &Puzzle) {
        self.guesses += 1;
        self.tally(player).guesses += 1;
        for fact in facts.iter().filter(|f| puzzle.has_fact(f)) {
            if !self.found.contains_key(fact) {
                self.found.insert(fact.clone(), player.id.clone());
                self.tally(player).facts_found += 1;
            }
        }
        if puzzle.required_fact_ids().all(|id| self.found.contains_key(id)) {
            self.phase = Phase::Solved;
            self.solver = Some(player.id.clone());
        }
    }

    fn tally(&mut self, player: &Player) -> &mut PlayerTally {
        let tally = self.players.entry(player.id.clone()).or_default();
        tally.name = player.name.clone();
        tally
    }

    /// The verdict already given for this normalised question, if any.
    pub fn ledger_verdict(&self, key: &str) -> Option<Verdict> {
        self.ledger.get(key).copied()
    }

    /// Grades a guess against the state before it was applied.
    pub fn grade(&self, after: &SoupGame, facts: &[String], puzzle: &Puzzle) -> GuessGrade {
        GuessGrade {
            stated: facts.iter().filter(|f| puzzle.has_fact(f)).count(),
            found_total: after.found.len(),
            fact_count: puzzle.facts.len(),
            solved: after.phase == Phase::Solved && self.phase != Phase::Solved,
        }
    }

    /// Points for the game as a whole: fewer questions, hints and wrong
    /// guesses score higher. Zero unless solved.
    pub fn score(&self) -> u32 {
        if self.phase != Phase::Solved {
            return 0;
        }
        let wrong = self.guesses.saturating_sub(1);
        let penalty = self.questions * 2 + self.hints_used * 10 + wrong * 5;
        100u32.saturating_sub(penalty).max(10)
    }

    /// Points per player at the end: the solver gets the game score, each
    /// player gets 5 per key fact they found first.
    pub fn player_points(&self) -> Vec<(String, String, u32)> {
        let game_score = self.score();
        self.players
            .iter()
            .map(|(id, tally)| {
                let solver_bonus = if self.solver.as_deref() == Some(id.as_str()) { game_score } else { 0 };
                (id.clone(), tally.name.clone(), solver_bonus + tally.facts_found * 5)
            })
            .filter(|(_, _, points)| *points > 0)
            .collect()
    }

    pub fn hints_left(&self) -> u32 {
        self.hint_limit.saturating_sub(self.hints_used)
    }
}

impl super::game::Game for SoupGame {
    const KIND: &'static str = "soup";
    /// Version 1 is the snapshot every Turtle Soup session has had.
    const VERSION: u32 = 1;
    type Content = Puzzle;
    type Event = SoupEvent;
    type Rejection = Rejection;

    fn apply(&self, event: &SoupEvent, puzzle: &Puzzle) -> Result<SoupGame, Rejection> {
        SoupGame::apply(self, event, puzzle)
    }

    fn phase_name(&self) -> &'static str {
        self.phase.as_str()
    }

    fn is_over(&self) -> bool {
        self.phase.is_over()
    }

    fn progress(&self) -> u32 {
        self.questions
    }
}

pub mod corrections;
pub mod i18n;
pub mod pipeline;
pub mod prompts;
pub mod puzzle;
pub mod remember;
pub mod selfplay;
mod table;
pub mod transcript;
pub mod verbs;
pub mod verdict;
/// The Judge's known answers belong to the puzzle (`puzzle::known`).
pub use puzzle::known;
pub use table::{AI_DELAY_MS, MAX_AI_PLAYERS, SoupTable, ai_player};

#[cfg(test)]
mod tests;
