//! The Arena, from seed 003: a topic or problem is set, and contestants
//! (AI characters with personas, and humans who joined the lobby) speak in
//! turn, round-robin among the living. A scorer rates every contribution
//! on five dimensions (novelty, building on others, solving the problem,
//! radical thinking, manipulation), weighted by the game's stage (early,
//! middle, late by turn number). After each round the scores are shown,
//! and past the early stage the contestant lowest in the round is out if
//! below the threshold (or in any case, when the rules say so), as long as
//! more than the minimum remain. The narrator (who sees every message and
//! competes in nothing) comments after each round and sums the game up at
//! the end. Spectators give one reaction per round, worth a little. The
//! game ends at the turn limit or with one contestant left; the highest
//! total among the living wins.
//!
//! This file is the pure state machine (`ArenaGame`): model outputs (a
//! contribution, its scores, the narrator's lines) arrive as events.
//! `table.rs` hosts it on the engine, `agents.rs` holds the model calls
//! (contestants, scorer, narrator), `say.rs` every fixed sentence in en and
//! zh, `roster.rs` the personas and topics, `host.rs` how the bots open
//! and resume it, `selfplay.rs` AI-only games.

pub mod agents;
pub mod host;
pub mod memory;
pub mod roster;
pub mod say;
pub mod selfplay;
pub mod table;
pub mod verbs;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use crate::core::game::splitmix;
use crate::core::game::{Deadline, Game, SeatError, SeatRules, Seats};
use crate::core::vocab::Language;
use crate::core::vocab::Player;

pub use host::{ArenaHost, hosted};
pub use roster::{Persona, Roster};
pub use table::ArenaTable;

/// Fewest and most contestants.
pub const MIN_SEATS: usize = 2;
pub const MAX_SEATS: usize = 8;
/// Most turns a game may be set to.
pub const MAX_TURNS: u32 = 100;
/// Most a round's reactions add to one contestant.
pub const AUDIENCE_CAP: f32 = 2.0;

/// When a round's lowest contestant goes out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Elimination {
    /// Only when its round score is below the threshold.
    BelowThreshold,
    /// Always (past the early stage, above the minimum).
    Lowest,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rules {
    pub max_turns: u32,
    /// Turns 1..=early_until are the early stage (no eliminations).
    pub early_until: u32,
    /// Turns up to this one are the middle stage; later ones the late.
    pub middle_until: u32,
    /// A human's time to speak; a missed turn is skipped.
    pub turn_seconds: u32,
    /// Eliminations stop at this many contestants.
    pub min_contestants: usize,
    /// A round score below this (0–10) puts the round's lowest out.
    pub threshold: f32,
    pub elimination: Elimination,
    /// The narrator comments after every this many rounds.
    pub narrator_every: u32,
    /// What one spectator's reaction adds to a round score.
    pub audience_weight: f32,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            max_turns: 24,
            early_until: 10,
            middle_until: 30,
            turn_seconds: 120,
            min_contestants: 2,
            threshold: 5.0,
            elimination: Elimination::BelowThreshold,
            narrator_every: 1,
            audience_weight: 0.5,
        }
    }
}

/// The seed's game phase: early, middle or late, by turn number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Early,
    Middle,
    Late,
}

impl Stage {
    /// Each dimension's weight in percent, in `Scores::values` order: early
    /// rounds reward new ideas, late ones solutions (and steering).
    pub fn weights(self) -> [u32; 5] {
        match self {
            Stage::Early => [30, 20, 20, 20, 10],
            Stage::Middle => [20, 25, 30, 15, 10],
            Stage::Late => [15, 20, 40, 10, 15],
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Early => "early",
            Stage::Middle => "middle",
            Stage::Late => "late",
        }
    }
}

/// The scorer's ratings of one contribution, each 0–10.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Scores {
    pub novelty: u8,
    pub builds_on_others: u8,
    pub solves_problem: u8,
    pub radical_thinking: u8,
    pub manipulation: u8,
}

/// The dimensions' names, in `Scores::values` order.
pub const DIMENSIONS: [&str; 5] = ["novelty", "builds_on_others", "solves_problem", "radical_thinking", "manipulation"];

impl Scores {
    /// What a contribution gets when the scorer's answer can't be read.
    pub const NEUTRAL: Scores =
        Scores { novelty: 5, builds_on_others: 5, solves_problem: 5, radical_thinking: 5, manipulation: 5 };

    pub fn values(&self) -> [u8; 5] {
        [self.novelty, self.builds_on_others, self.solves_problem, self.radical_thinking, self.manipulation]
    }

    pub fn from_values(v: [u8; 5]) -> Scores {
        let c = |x: u8| x.min(10);
        Scores {
            novelty: c(v[0]),
            builds_on_others: c(v[1]),
            solves_problem: c(v[2]),
            radical_thinking: c(v[3]),
            manipulation: c(v[4]),
        }
    }

    /// The stage's weighted score, 0–10.
    pub fn weighted(&self, stage: Stage) -> f32 {
        let sum: u32 = self.values().iter().zip(stage.weights()).map(|(v, w)| u32::from(*v) * w).sum();
        sum as f32 / 100.0
    }
}

/// One turn: what a contestant said and how it was scored; `None` scores
/// for a turn that was skipped (the deadline passed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Contribution {
    pub turn: u32,
    pub round: u32,
    pub seat: String,
    pub text: String,
    pub scores: Option<Scores>,
    /// False when the scorer's answer could not be read (neutral scores).
    pub parsed: bool,
    pub stage: Stage,
    /// The contestant it addressed by name or seat (who then may reply).
    #[serde(default)]
    pub to: Option<String>,
    /// A right of reply: the turn that addressed this contestant.
    #[serde(default)]
    pub reply_to: Option<u32>,
}

/// A contestant's right of reply, owed now: the one addressed answers
/// before the round goes on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplyTurn {
    /// Who answers.
    pub seat: String,
    /// Who addressed them, and on which turn.
    pub from: String,
    pub to_turn: u32,
}

/// A closed round: the round score of every contestant who had a turn in
/// it (weighted, with the audience), who went out, and the narrator's line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoundRecord {
    pub round: u32,
    pub stage: Stage,
    pub scores: BTreeMap<String, f32>,
    pub reactions: BTreeMap<String, usize>,
    pub out: Option<String>,
    pub narration: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    Lobby,
    /// `order[index]` speaks now.
    Turn {
        round: u32,
        index: usize,
    },
    Over,
}

/// How a contestant left the ring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Exit {
    Eliminated { round: u32 },
    Left { round: u32 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The turn limit, or one contestant left: the highest total wins.
    Finished,
    /// The host or a moderator ended it.
    Ended,
    /// Nobody is left to speak (everyone left).
    Abandoned,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArenaGame {
    pub language: Language,
    pub rules: Rules,
    pub seats: Seats,
    pub topic: String,
    pub seed: u64,
    /// The persona of each AI seat.
    pub cast: BTreeMap<String, Persona>,
    pub phase: Phase,
    /// Turns taken (spoken or skipped).
    pub turn: u32,
    /// This round's speaking order (living contestants at its start).
    pub order: Vec<String>,
    pub out: BTreeMap<String, Exit>,
    pub said: Vec<Contribution>,
    pub rounds: Vec<RoundRecord>,
    /// This round's reactions: spectator → contestant.
    pub reactions: BTreeMap<String, String>,
    pub totals: BTreeMap<String, f32>,
    pub paused: bool,
    pub deadline: Option<Deadline>,
    /// The narrator's final summary.
    pub summary: Option<String>,
    pub outcome: Option<Outcome>,
    /// A right of reply owed before the round goes on.
    #[serde(default)]
    pub reply: Option<ReplyTurn>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    Join(Player),
    Leave {
        seat: String,
        now_ms: i64,
    },
    /// Seat an AI contestant with this persona.
    AddAi(Persona),
    Begin {
        by: String,
        moderator: bool,
        now_ms: i64,
    },
    /// The speaker's contribution, already scored; `to`: the contestant
    /// it addresses (who gets a right of reply).
    Speak {
        seat: String,
        text: String,
        scores: Scores,
        parsed: bool,
        now_ms: i64,
        to: Option<String>,
    },
    /// A spectator's reaction: a contestant's seat number.
    React {
        spectator: String,
        option: String,
    },
    Timer {
        tag: String,
        now_ms: i64,
    },
    /// The narrator's line on the last round, or (once over) the summary.
    Narrate {
        text: String,
    },
    Pause {
        by: String,
        moderator: bool,
    },
    Resume {
        by: String,
        moderator: bool,
        now_ms: i64,
    },
    Topic {
        by: String,
        moderator: bool,
        text: String,
    },
    End {
        by: String,
        moderator: bool,
        now_ms: i64,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    #[error(transparent)]
    Seats(#[from] SeatError),
    #[error("not running")]
    NotRunning,
    #[error("not seated")]
    NotSeated,
    #[error("out")]
    Out,
    #[error("not your turn")]
    NotYourTurn { speaker: String },
    #[error("paused")]
    Paused,
    #[error("not paused")]
    NotPaused,
    #[error("host or moderator only")]
    NotHost,
    #[error("contestants do not react")]
    Contestant,
    #[error("already reacted this round")]
    AlreadyReacted,
    #[error("no such contestant")]
    UnknownOption,
    #[error("stale timer")]
    StaleTimer,
    #[error("over")]
    Over,
    #[error("the lobby")]
    InLobby,
}

impl ArenaGame {
    pub fn new(host: &Player, seats: usize, rules: Rules, language: Language, topic: &str, seed: u64) -> ArenaGame {
        let max = seats.clamp(MIN_SEATS, MAX_SEATS);
        let seat_rules = SeatRules { min: MIN_SEATS, max, max_ai: max };
        ArenaGame {
            language,
            rules,
            seats: Seats::open(seat_rules, host),
            topic: topic.to_string(),
            seed,
            cast: BTreeMap::new(),
            phase: Phase::Lobby,
            turn: 0,
            order: Vec::new(),
            out: BTreeMap::new(),
            said: Vec::new(),
            rounds: Vec::new(),
            reactions: BTreeMap::new(),
            totals: BTreeMap::new(),
            paused: false,
            deadline: None,
            summary: None,
            outcome: None,
            reply: None,
        }
    }

    /// Contestants still in, in seat order.
    pub fn living(&self) -> Vec<String> {
        self.seats.seats.iter().map(|s| s.player.id.clone()).filter(|id| !self.out.contains_key(id)).collect()
    }

    /// Who speaks now: the contestant owed a reply, else the round's next.
    pub fn speaker(&self) -> Option<&str> {
        match self.phase {
            Phase::Turn { .. } if self.reply.is_some() => self.reply.as_ref().map(|r| r.seat.as_str()),
            Phase::Turn { index, .. } => self.order.get(index).map(String::as_str),
            _ => None,
        }
    }

    /// Whether `to` may be addressed by `seat`: another living contestant.
    pub fn addressable(&self, seat: &str, to: &str) -> bool {
        to != seat && self.seats.is_seated(to) && !self.out.contains_key(to)
    }

    pub fn round(&self) -> u32 {
        match self.phase {
            Phase::Turn { round, .. } => round,
            _ => self.rounds.last().map_or(0, |r| r.round),
        }
    }

    /// The stage of turn `turn` (1-based).
    pub fn stage_of(&self, turn: u32) -> Stage {
        if turn <= self.rules.early_until {
            Stage::Early
        } else if turn <= self.rules.middle_until {
            Stage::Middle
        } else {
            Stage::Late
        }
    }

    /// The stage of the turn being played (or the last one).
    pub fn stage(&self) -> Stage {
        self.stage_of((self.turn + 1).min(self.rules.max_turns.max(1)))
    }

    /// A contestant's name (the id itself for someone not seated).
    pub fn name(&self, seat: &str) -> String {
        self.seats.name_of(seat).unwrap_or(seat).to_string()
    }

    /// The winner: the highest total among the living (ties: the earlier
    /// seat); none for a game ended early by the host or abandoned.
    pub fn winner(&self) -> Option<String> {
        if self.outcome != Some(Outcome::Finished) {
            return None;
        }
        let mut best: Option<(String, f32)> = None;
        for seat in self.living() {
            let total = self.totals.get(&seat).copied().unwrap_or(0.0);
            if best.as_ref().is_none_or(|(_, b)| total > *b) {
                best = Some((seat, total));
            }
        }
        best.map(|(s, _)| s)
    }

    /// Standings: every contestant by total, the living first.
    pub fn standings(&self) -> Vec<(String, f32)> {
        let mut all: Vec<(String, f32)> = self
            .seats
            .seats
            .iter()
            .map(|s| (s.player.id.clone(), self.totals.get(&s.player.id).copied().unwrap_or(0.0)))
            .collect();
        all.sort_by(|a, b| {
            let (out_a, out_b) = (self.out.contains_key(&a.0), self.out.contains_key(&b.0));
            out_a.cmp(&out_b).then(b.1.total_cmp(&a.1))
        });
        all
    }

    /// The reminder before a human speaker's deadline.
    pub fn reminder(&self) -> Option<Deadline> {
        self.deadline.as_ref()?.reminder_within(self.rules.turn_seconds)
    }

    fn host_or_moderator(&self, by: &str, moderator: bool) -> Result<(), Rejection> {
        if self.seats.may_lead(by, moderator) { Ok(()) } else { Err(Rejection::NotHost) }
    }

    fn running(&self) -> Result<(u32, usize), Rejection> {
        match self.phase {
            Phase::Turn { round, index } => Ok((round, index)),
            Phase::Lobby => Err(Rejection::InLobby),
            Phase::Over => Err(Rejection::Over),
        }
    }

    /// A deadline for the speaker, if human and the game is not paused.
    fn arm(&mut self, now_ms: i64) {
        self.deadline = match (self.speaker(), self.paused) {
            (Some(s), false) if !self.seats.is_ai(s) => {
                Some(Deadline::after(now_ms, self.rules.turn_seconds, format!("turn:{}", self.turn + 1)))
            }
            _ => None,
        };
    }

    /// Opens round `round` with the living in seat order, rotated by one
    /// seat per round.
    fn open_round(&mut self, round: u32, now_ms: i64) {
        let mut order = self.living();
        if !order.is_empty() {
            let shift = (round as usize - 1) % order.len();
            order.rotate_left(shift);
        }
        self.order = order;
        self.reactions.clear();
        self.phase = Phase::Turn { round, index: 0 };
        self.arm(now_ms);
    }

    /// After a turn (spoken or skipped): the next living speaker, or the
    /// round's close.
    fn advance(&mut self, now_ms: i64) {
        let Phase::Turn { round, index } = self.phase else { return };
        if self.turn >= self.rules.max_turns {
            self.close_round(round, now_ms, true);
            return;
        }
        let next = (index + 1..self.order.len()).find(|i| !self.out.contains_key(&self.order[*i]));
        match next {
            Some(i) => {
                self.phase = Phase::Turn { round, index: i };
                self.arm(now_ms);
            }
            None => self.close_round(round, now_ms, false),
        }
    }

    /// Scores the round, puts its lowest out if the rules say so, and
    /// opens the next round or ends the game.
    fn close_round(&mut self, round: u32, now_ms: i64, last: bool) {
        let stage = self.stage_of(self.turn.max(1));
        let mut reactions: BTreeMap<String, usize> = BTreeMap::new();
        for seat in self.reactions.values() {
            *reactions.entry(seat.clone()).or_default() += 1;
        }
        // A contestant's round score: the mean of its contributions this
        // round (a reply counts like any other; a reply let pass does not),
        // plus the audience.
        let mut weighted: BTreeMap<String, Vec<f32>> = BTreeMap::new();
        for c in self.said.iter().filter(|c| c.round == round && (c.reply_to.is_none() || c.scores.is_some())) {
            weighted.entry(c.seat.clone()).or_default().push(c.scores.map_or(0.0, |s| s.weighted(c.stage)));
        }
        let mut scores: BTreeMap<String, f32> = BTreeMap::new();
        for (seat, values) in weighted {
            let base = values.iter().sum::<f32>() / values.len() as f32;
            let audience =
                (reactions.get(&seat).copied().unwrap_or(0) as f32 * self.rules.audience_weight).min(AUDIENCE_CAP);
            scores.insert(seat, base + audience);
        }
        for (seat, score) in &scores {
            *self.totals.entry(seat.clone()).or_default() += score;
        }
        let living = self.living();
        let mut out = None;
        if stage != Stage::Early && living.len() > self.rules.min_contestants.max(1) {
            let mut ranked: Vec<(&String, f32)> =
                living.iter().filter_map(|s| scores.get(s).map(|score| (s, *score))).collect();
            ranked.sort_by(|a, b| {
                let total = |s: &String| self.totals.get(s).copied().unwrap_or(0.0);
                a.1.total_cmp(&b.1)
                    .then(total(a.0).total_cmp(&total(b.0)))
                    .then(self.seats.number(a.0).cmp(&self.seats.number(b.0)))
            });
            if let Some((seat, score)) = ranked.first()
                && (self.rules.elimination == Elimination::Lowest || *score < self.rules.threshold)
            {
                out = Some((*seat).clone());
            }
        }
        if let Some(seat) = &out {
            self.out.insert(seat.clone(), Exit::Eliminated { round });
        }
        self.rounds.push(RoundRecord { round, stage, scores, reactions, out, narration: None });
        self.reactions.clear();
        if last || self.living().len() <= 1 {
            self.finish(Outcome::Finished);
        } else {
            self.open_round(round + 1, now_ms);
        }
    }

    fn finish(&mut self, outcome: Outcome) {
        self.phase = Phase::Over;
        self.deadline = None;
        self.outcome = Some(outcome);
    }

    fn start(&mut self, now_ms: i64) {
        self.open_round(1, now_ms);
    }
}

impl Game for ArenaGame {
    const KIND: &'static str = "arena";
    const VERSION: u32 = 1;
    type Content = ();
    type Event = Event;
    type Rejection = Rejection;

    fn apply(&self, event: &Event, _: &()) -> Result<ArenaGame, Rejection> {
        match event {
            Event::Join(player) => self.join(player),
            Event::AddAi(persona) => self.add_ai(persona),
            Event::Leave { seat, now_ms } => self.leave(seat, *now_ms),
            Event::Begin { by, moderator, now_ms } => self.begin(by, *moderator, *now_ms),
            Event::Speak { seat, text, scores, parsed, now_ms, to } => {
                self.speak(seat, text, *scores, *parsed, *now_ms, to.as_deref())
            }
            Event::React { spectator, option } => self.react(spectator, option),
            Event::Timer { tag, now_ms } => self.time_up(tag, *now_ms),
            Event::Narrate { text } => self.record_narration(text),
            Event::Pause { by, moderator } => self.pause(by, *moderator),
            Event::Resume { by, moderator, now_ms } => self.resume(by, *moderator, *now_ms),
            Event::Topic { by, moderator, text } => self.set_topic(by, *moderator, text),
            Event::End { by, moderator, .. } => self.end(by, *moderator),
        }
    }

    fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::Lobby => "lobby",
            Phase::Turn { .. } if self.paused => "paused",
            Phase::Turn { .. } => "turn",
            Phase::Over => "over",
        }
    }

    fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    fn progress(&self) -> u32 {
        self.turn
    }

    fn deadline(&self) -> Option<Deadline> {
        self.deadline.clone()
    }
}

/// The events, one method each: `apply` dispatches to them. Each checks
/// the event against `self` and returns the changed copy, so a rejected
/// event leaves the game as it was.
impl ArenaGame {
    /// A human takes a seat in the lobby.
    fn join(&self, player: &Player) -> Result<ArenaGame, Rejection> {
        if self.phase != Phase::Lobby {
            return Err(Rejection::Seats(SeatError::Started));
        }
        let mut next = self.clone();
        next.seats = self.seats.join(player)?;
        Ok(next)
    }

    /// An AI contestant takes a seat in the lobby, named after its persona.
    fn add_ai(&self, persona: &Persona) -> Result<ArenaGame, Rejection> {
        if self.phase != Phase::Lobby {
            return Err(Rejection::Seats(SeatError::Started));
        }
        let mut next = self.clone();
        next.seats = self.seats.add_ai()?;
        if let Some(seat) = next.seats.seats.last_mut() {
            seat.player.name = format!("{} 🤖", persona.name);
            next.cast.insert(seat.player.id.clone(), persona.clone());
        }
        Ok(next)
    }

    /// A contestant leaves: from the lobby its seat goes; in play it is
    /// out, and the game ends or the turn passes when it must.
    fn leave(&self, seat: &str, now_ms: i64) -> Result<ArenaGame, Rejection> {
        let mut next = self.clone();
        match self.phase {
            Phase::Lobby => {
                next.seats = self.seats.leave(seat)?;
                next.cast.remove(seat);
            }
            Phase::Over => return Err(Rejection::Over),
            Phase::Turn { round, .. } => {
                if !self.seats.is_seated(seat) {
                    return Err(Rejection::NotSeated);
                }
                if self.out.contains_key(seat) {
                    return Err(Rejection::Out);
                }
                next.out.insert(seat.to_string(), Exit::Left { round });
                let replying = self.reply.as_ref().is_some_and(|r| r.seat == seat);
                if replying {
                    next.reply = None;
                }
                if next.living().is_empty() {
                    next.finish(Outcome::Abandoned);
                } else if next.living().len() == 1 {
                    next.finish(Outcome::Finished);
                } else if replying || self.speaker() == Some(seat) {
                    next.advance(now_ms);
                }
            }
        }
        Ok(next)
    }

    /// The host (or a moderator) closes the lobby and the first round opens.
    fn begin(&self, by: &str, moderator: bool, now_ms: i64) -> Result<ArenaGame, Rejection> {
        if self.phase != Phase::Lobby {
            return Err(Rejection::Seats(SeatError::Started));
        }
        let mut next = self.clone();
        next.seats = self.seats.start(by, moderator)?;
        next.start(now_ms);
        Ok(next)
    }

    /// The speaker's contribution, already scored: recorded, and the turn
    /// passes; to the contestant it addressed first, for a reply (a reply
    /// itself gets none, and none comes after the last turn).
    fn speak(
        &self,
        seat: &str,
        text: &str,
        scores: Scores,
        parsed: bool,
        now_ms: i64,
        to: Option<&str>,
    ) -> Result<ArenaGame, Rejection> {
        let (round, _) = self.running()?;
        if self.paused {
            return Err(Rejection::Paused);
        }
        self.check_speaker(seat)?;
        let reply_to = self.reply.as_ref().map(|r| r.to_turn);
        let to = to.filter(|to| reply_to.is_none() && self.addressable(seat, to)).map(str::to_string);
        let mut next = self.clone();
        next.turn += 1;
        next.reply = None;
        next.said.push(Contribution {
            turn: next.turn,
            round,
            seat: seat.to_string(),
            text: text.to_string(),
            scores: Some(scores),
            parsed,
            stage: self.stage_of(next.turn),
            to: to.clone(),
            reply_to,
        });
        match to.filter(|_| next.turn < next.rules.max_turns) {
            Some(to) => {
                next.reply = Some(ReplyTurn { seat: to, from: seat.to_string(), to_turn: next.turn });
                next.arm(now_ms);
            }
            None => next.advance(now_ms),
        }
        Ok(next)
    }

    /// A spectator's one reaction this round, for a living contestant.
    fn react(&self, spectator: &str, option: &str) -> Result<ArenaGame, Rejection> {
        self.running()?;
        if self.seats.is_seated(spectator) {
            return Err(Rejection::Contestant);
        }
        if self.reactions.contains_key(spectator) {
            return Err(Rejection::AlreadyReacted);
        }
        let seat = self.seats.by_number(option).filter(|s| !self.out.contains_key(*s));
        let seat = seat.ok_or(Rejection::UnknownOption)?.to_string();
        let mut next = self.clone();
        next.reactions.insert(spectator.to_string(), seat);
        Ok(next)
    }

    /// The speaker's deadline passed: the turn is skipped (no scores). A
    /// reminder's tag, or a stale one, is rejected.
    fn time_up(&self, tag: &str, now_ms: i64) -> Result<ArenaGame, Rejection> {
        if !self.deadline.as_ref().is_some_and(|d| d.fires(tag)) || Deadline::reminded(tag).is_some() {
            return Err(Rejection::StaleTimer);
        }
        let (round, _) = self.running()?;
        let seat = self.speaker().unwrap_or_default().to_string();
        let mut next = self.clone();
        next.turn += 1;
        next.reply = None;
        next.said.push(Contribution {
            turn: next.turn,
            round,
            seat,
            text: String::new(),
            scores: None,
            parsed: true,
            stage: self.stage_of(next.turn),
            to: None,
            reply_to: self.reply.as_ref().map(|r| r.to_turn),
        });
        next.advance(now_ms);
        Ok(next)
    }

    /// The narrator's line on the last round (once), or the summary once
    /// the game is over.
    fn record_narration(&self, text: &str) -> Result<ArenaGame, Rejection> {
        let mut next = self.clone();
        match (&self.phase, next.rounds.last_mut()) {
            (Phase::Over, _) => next.summary = Some(text.to_string()),
            (_, Some(record)) if record.narration.is_none() => record.narration = Some(text.to_string()),
            _ => return Err(Rejection::NotRunning),
        }
        Ok(next)
    }

    /// The host (or a moderator) pauses play: the speaker's deadline goes.
    fn pause(&self, by: &str, moderator: bool) -> Result<ArenaGame, Rejection> {
        self.running()?;
        self.host_or_moderator(by, moderator)?;
        if self.paused {
            return Err(Rejection::Paused);
        }
        let mut next = self.clone();
        next.paused = true;
        next.deadline = None;
        Ok(next)
    }

    /// The host (or a moderator) resumes play: a fresh deadline for a human
    /// speaker.
    fn resume(&self, by: &str, moderator: bool, now_ms: i64) -> Result<ArenaGame, Rejection> {
        self.running()?;
        self.host_or_moderator(by, moderator)?;
        if !self.paused {
            return Err(Rejection::NotPaused);
        }
        let mut next = self.clone();
        next.paused = false;
        next.arm(now_ms);
        Ok(next)
    }

    /// The host (or a moderator) sets a new topic, any time before the end.
    fn set_topic(&self, by: &str, moderator: bool, text: &str) -> Result<ArenaGame, Rejection> {
        if self.phase == Phase::Over {
            return Err(Rejection::Over);
        }
        self.host_or_moderator(by, moderator)?;
        let mut next = self.clone();
        next.topic = text.to_string();
        Ok(next)
    }

    /// The host (or a moderator) ends the game early: nobody wins.
    fn end(&self, by: &str, moderator: bool) -> Result<ArenaGame, Rejection> {
        if self.phase == Phase::Over {
            return Err(Rejection::Over);
        }
        self.host_or_moderator(by, moderator)?;
        let mut next = self.clone();
        next.finish(Outcome::Ended);
        Ok(next)
    }
}

impl ArenaGame {
    fn check_speaker(&self, seat: &str) -> Result<(), Rejection> {
        if !self.seats.is_seated(seat) {
            return Err(Rejection::NotSeated);
        }
        if self.out.contains_key(seat) {
            return Err(Rejection::Out);
        }
        match self.speaker() {
            Some(s) if s == seat => Ok(()),
            Some(s) => Err(Rejection::NotYourTurn { speaker: s.to_string() }),
            None => Err(Rejection::NotRunning),
        }
    }
}

#[cfg(test)]
mod tests;
