//! Who is the Undercover (谁是卧底), from seed 002: civilians share a
//! secret word, the undercover(s) hold a close but different one, and an
//! optional blank seat ("Mr. White") holds none. Each round every living
//! seat describes its word in one line, in a shown order; then everyone
//! votes in secret at once and the most-voted seat is out (a tie: a run-off
//! between the tied seats, then a pick from the recorded seed). Civilians
//! win when every undercover and the blank are out; the undercovers win
//! when the living undercovers and blank are as many as the living
//! civilians. A blank seat voted out gets one private guess at the
//! civilians' word and wins alone if it is right.
//!
//! This file is the pure state machine (`UndercoverGame`); `table.rs`
//! hosts it on the engine (messages, the gate, AI seats), `agents.rs` is
//! the AI seats' model calls, `say.rs` every fixed sentence in en and zh,
//! `words.rs` the word pairs, `host.rs` how the bots open and resume it.

pub mod agents;
pub mod host;
pub mod memory;
pub mod say;
pub mod selfplay;
pub mod table;
pub mod verbs;
pub mod words;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::core::game::{AiGuesses, Ballot, BallotError, Deadline, Game, SeatError, SeatRules, Seats, shuffle};
use crate::core::vocab::Difficulty;
use crate::core::vocab::Language;
use crate::core::vocab::Player;

pub use host::{UndercoverHost, hosted};
pub use table::UndercoverTable;
pub use words::{ThemedPair, WordLibrary, WordPair};

/// Fewest and most seats.
pub const MIN_SEATS: usize = 3;
pub const MAX_SEATS: usize = 12;
/// Fewest seats for a game with a blank seat.
pub const MIN_SEATS_WITH_BLANK: usize = 5;

/// What a table is set up with; stored with the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    pub describe_seconds: u32,
    pub vote_seconds: u32,
    pub guess_seconds: u32,
    /// Undercover seats; `None`: 1 up to 6 seats, 2 above.
    pub undercovers: Option<usize>,
    pub blank: bool,
    /// AI seats get ordinary names; after the end every human may guess
    /// which seats were AI ("guess the AI"), scored on its own.
    #[serde(default)]
    pub anonymous: bool,
    /// The word pairs' difficulty the host asked for (`None`: any).
    #[serde(default)]
    pub difficulty: Option<Difficulty>,
}

impl Rules {
    /// The undercover seats a table of `seats` gets: the host's number,
    /// else 1 up to 6 seats and 2 above, never more than `most_undercovers`.
    pub fn undercovers_for(&self, seats: usize) -> usize {
        let most = most_undercovers(seats, self.blank).max(1);
        self.undercovers.unwrap_or(if seats <= 6 { 1 } else { 2 }).clamp(1, most)
    }
}

/// Most undercover seats a table of `seats` may have: the civilians must
/// outnumber the undercovers and the blank at the start.
pub fn most_undercovers(seats: usize, blank: bool) -> usize {
    seats.saturating_sub(2 * usize::from(blank) + 1) / 2
}

/// Fewest seats for `undercovers` undercover seats (and the blank).
pub fn seats_for_undercovers(undercovers: usize, blank: bool) -> usize {
    2 * (undercovers + usize::from(blank)) + 1
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            describe_seconds: 90,
            vote_seconds: 60,
            guess_seconds: 60,
            undercovers: None,
            blank: false,
            anonymous: false,
            difficulty: None,
        }
    }
}

/// A seat's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Civilian,
    Undercover,
    Blank,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Civilian => "civilian",
            Role::Undercover => "undercover",
            Role::Blank => "blank",
        }
    }
}

/// The pair this game plays, as dealt (the sides may be swapped from the
/// file's, by the seed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dealt {
    pub pair_id: String,
    pub civilian: String,
    pub undercover: String,
    pub civilian_aliases: Vec<String>,
    pub undercover_aliases: Vec<String>,
}

impl Dealt {
    /// Deals `pair`, swapping its sides when `swap` is set.
    pub fn from_pair(pair: &WordPair, swap: bool) -> Dealt {
        let (c, u, ca, ua) = match swap {
            false => (&pair.civilian, &pair.undercover, &pair.aliases.civilian, &pair.aliases.undercover),
            true => (&pair.undercover, &pair.civilian, &pair.aliases.undercover, &pair.aliases.civilian),
        };
        Dealt {
            pair_id: pair.id.clone(),
            civilian: c.clone(),
            undercover: u.clone(),
            civilian_aliases: ca.clone(),
            undercover_aliases: ua.clone(),
        }
    }

    /// The word (and its other forms) a role holds.
    pub fn forms(&self, role: Role) -> Vec<&str> {
        let (word, aliases) = match role {
            Role::Civilian => (&self.civilian, &self.civilian_aliases),
            Role::Undercover => (&self.undercover, &self.undercover_aliases),
            Role::Blank => return Vec::new(),
        };
        std::iter::once(word.as_str()).chain(aliases.iter().map(String::as_str)).collect()
    }

    pub fn word(&self, role: Role) -> Option<&str> {
        self.forms(role).first().copied()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    Lobby,
    /// `speakers[turn]` describes now.
    Describe {
        round: u32,
        turn: usize,
    },
    Vote {
        round: u32,
        runoff: bool,
    },
    /// The blank seat, just voted out, guesses the civilians' word.
    LastGuess {
        round: u32,
        seat: String,
    },
    /// Anonymous games, after the result: the humans guess which seats were AI.
    GuessAi,
    Over,
}

/// How a seat left the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "how", rename_all = "snake_case")]
pub enum Out {
    Voted { round: u32, random: bool },
    Left { round: u32 },
}

/// One description (or a skipped turn: `text` is `None`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Said {
    pub round: u32,
    pub seat: String,
    pub text: Option<String>,
}

/// One closed ballot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VoteRecord {
    pub round: u32,
    pub runoff: bool,
    /// Voter seat → the seat they voted for.
    pub votes: BTreeMap<String, String>,
    pub abstained: Vec<String>,
    /// Who went out, if anyone did on this ballot.
    pub out: Option<String>,
    /// Picked from the seed after a tied run-off.
    pub random: bool,
}

/// Why an AI seat voted as it did (seed 002's `reason`): what it believes
/// its own role is, its read of each living seat, and the vote. Private
/// to that seat while the game is on: kept in the state, read back into
/// that seat's own prompts only, and shown to everyone after the end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reasoning {
    pub round: u32,
    pub runoff: bool,
    pub seat: String,
    /// civilian | undercover | blank | unsure.
    pub believes: String,
    /// Why it believes so, in its own words (cut short).
    pub why: String,
    /// Seat number → its read of that seat.
    pub reads: Vec<(String, String)>,
    /// The option it voted for (a seat number).
    pub vote: String,
}

/// How the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Civilians,
    Undercover,
    /// The blank seat guessed the civilians' word.
    Blank,
    /// Ended by the host or a moderator, or idle: nobody won.
    Ended,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UndercoverGame {
    pub seats: Seats,
    pub rules: Rules,
    pub language: Language,
    /// Recorded at the lobby's opening: roles, order and tie picks follow it.
    pub seed: u64,
    pub dealt: Dealt,
    pub phase: Phase,
    /// Seat id → role, from the start.
    pub roles: BTreeMap<String, Role>,
    pub out: BTreeMap<String, Out>,
    /// This round's describing order.
    pub speakers: Vec<String>,
    pub said: Vec<Said>,
    pub ballot: Option<Ballot>,
    pub votes: Vec<VoteRecord>,
    pub deadline: Option<Deadline>,
    pub outcome: Option<Outcome>,
    /// The blank seat's last guess, once made: (its text, right).
    pub last_guess: Option<(String, bool)>,
    /// Anonymous games: human seat → the seats they named as AI.
    #[serde(default)]
    pub ai_guesses: AiGuesses,
    /// AI seats' reasons for their votes, in the order they voted (a
    /// changed vote replaces its reasons).
    #[serde(default)]
    pub reasons: Vec<Reasoning>,
}

#[derive(Debug, Clone)]
pub enum Event {
    Join(Player),
    Leave {
        seat: String,
        now_ms: i64,
    },
    AddAi,
    Begin {
        by: String,
        moderator: bool,
        now_ms: i64,
    },
    /// A description the table already checked against the secret words.
    Describe {
        seat: String,
        text: String,
        now_ms: i64,
    },
    /// A vote for a ballot option (a seat number).
    Vote {
        voter: String,
        option: String,
        now_ms: i64,
    },
    /// The blank seat's guess, judged by the table.
    LastGuess {
        seat: String,
        text: String,
        right: bool,
        now_ms: i64,
    },
    Timer {
        tag: String,
        now_ms: i64,
    },
    End {
        by: String,
        moderator: bool,
        now_ms: i64,
    },
    /// A human's guess at which seats were AI (anonymous games, after the end).
    GuessAi {
        seat: String,
        seats: Vec<String>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    #[error("{0}")]
    Seat(#[from] SeatError),
    #[error("not now")]
    NotNow,
    #[error("not seated in this game")]
    NotSeated,
    #[error("out of the game")]
    Out,
    #[error("not your turn")]
    NotYourTurn { speaker: String },
    #[error("no such choice")]
    NotAnOption,
    #[error("no voting for yourself")]
    OwnVote,
    #[error("a blank seat needs {MIN_SEATS_WITH_BLANK} seats")]
    TooFewForBlank,
    #[error("{undercovers} undercovers need {seats} seats")]
    TooFewForUndercovers { undercovers: usize, seats: usize },
    #[error("only the host or a moderator may end the game")]
    NotHost,
    #[error("a timer for a phase that has ended")]
    StaleTimer,
}

/// A vote the ballot refused: from a seat that is out, for no option,
/// or too late.
impl From<BallotError> for Rejection {
    fn from(e: BallotError) -> Rejection {
        match e {
            BallotError::NotAVoter => Rejection::Out,
            BallotError::UnknownOption(_) => Rejection::NotAnOption,
            BallotError::Closed => Rejection::NotNow,
        }
    }
}

impl UndercoverGame {
    /// A lobby of at most `max_seats` seats opened by `host`.
    pub fn new(host: &Player, max_seats: usize, rules: Rules, language: Language, dealt: Dealt, seed: u64) -> Self {
        let max = max_seats.clamp(MIN_SEATS, MAX_SEATS);
        let seat_rules = SeatRules { min: MIN_SEATS, max, max_ai: max - 1 };
        UndercoverGame {
            seats: Seats::open(seat_rules, host),
            rules,
            language,
            seed,
            dealt,
            phase: Phase::Lobby,
            roles: BTreeMap::new(),
            out: BTreeMap::new(),
            speakers: Vec::new(),
            said: Vec::new(),
            ballot: None,
            votes: Vec::new(),
            deadline: None,
            outcome: None,
            last_guess: None,
            ai_guesses: AiGuesses::default(),
            reasons: Vec::new(),
        }
    }

    /// Seat ids in seating order.
    pub fn seat_ids(&self) -> Vec<String> {
        self.seats.ids()
    }

    /// Living seats, in seating order.
    pub fn living(&self) -> Vec<String> {
        self.seat_ids().into_iter().filter(|id| !self.out.contains_key(id)).collect()
    }

    pub fn is_alive(&self, seat: &str) -> bool {
        self.seats.is_seated(seat) && !self.out.contains_key(seat)
    }

    /// A seat's number as shown (1-based, seating order).
    pub fn number(&self, seat: &str) -> Option<usize> {
        self.seats.number(seat)
    }

    pub fn role(&self, seat: &str) -> Option<Role> {
        self.roles.get(seat).copied()
    }

    /// The word a seat was dealt (`None` for the blank or a non-seat).
    pub fn word_of(&self, seat: &str) -> Option<&str> {
        self.role(seat).and_then(|r| self.dealt.word(r))
    }

    /// Who describes now.
    pub fn speaker(&self) -> Option<&str> {
        match &self.phase {
            Phase::Describe { turn, .. } => self.speakers.get(*turn).map(String::as_str),
            _ => None,
        }
    }

    pub fn round(&self) -> u32 {
        match &self.phase {
            Phase::Describe { round, .. } | Phase::Vote { round, .. } | Phase::LastGuess { round, .. } => *round,
            Phase::Lobby => 0,
            Phase::GuessAi | Phase::Over => self.votes.last().map_or(0, |v| v.round),
        }
    }

    /// The seats that won, once over.
    pub fn winners(&self) -> Vec<String> {
        let with_role = |roles: &[Role]| -> Vec<String> {
            self.roles.iter().filter(|(_, r)| roles.contains(r)).map(|(s, _)| s.clone()).collect()
        };
        match self.outcome {
            Some(Outcome::Civilians) => with_role(&[Role::Civilian]),
            Some(Outcome::Undercover) => {
                let mut w = with_role(&[Role::Undercover]);
                w.extend(with_role(&[Role::Blank]).into_iter().filter(|s| self.is_alive(s)));
                w
            }
            Some(Outcome::Blank) => with_role(&[Role::Blank]),
            Some(Outcome::Ended) | None => Vec::new(),
        }
    }

    /// Who wins now, from the living seats; `None` while play goes on.
    fn settled(&self) -> Option<Outcome> {
        let living = self.living();
        let count = |roles: &[Role]| living.iter().filter(|s| self.role(s).is_some_and(|r| roles.contains(&r))).count();
        let civilians = count(&[Role::Civilian]);
        let others = count(&[Role::Undercover, Role::Blank]);
        if others == 0 {
            Some(Outcome::Civilians)
        } else if others >= civilians {
            Some(Outcome::Undercover)
        } else {
            None
        }
    }

    fn rng(&self, salt: u64) -> u64 {
        splitmix(self.seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    fn begin(&mut self, now_ms: i64) -> Result<(), Rejection> {
        let ids = self.seat_ids();
        let n = ids.len();
        if self.rules.blank && n < MIN_SEATS_WITH_BLANK {
            return Err(Rejection::TooFewForBlank);
        }
        let blank = usize::from(self.rules.blank);
        // Civilians must outnumber the others at the start: the host's
        // number of undercovers is kept or the start refused, never cut.
        if let Some(undercovers) = self.rules.undercovers.filter(|u| *u > most_undercovers(n, self.rules.blank)) {
            return Err(Rejection::TooFewForUndercovers {
                undercovers,
                seats: seats_for_undercovers(undercovers, self.rules.blank),
            });
        }
        let undercovers = self.rules.undercovers_for(n);
        let mut shuffled = ids.clone();
        shuffle(&mut shuffled, self.rng(1));
        self.roles = ids.iter().map(|id| (id.clone(), Role::Civilian)).collect();
        for id in shuffled.iter().take(undercovers) {
            self.roles.insert(id.clone(), Role::Undercover);
        }
        if let Some(id) = shuffled.get(undercovers).filter(|_| blank == 1) {
            self.roles.insert(id.clone(), Role::Blank);
        }
        self.open_round(1, now_ms);
        Ok(())
    }

    /// Round `round`'s describing order: the living, starting one seat
    /// further each round.
    fn open_round(&mut self, round: u32, now_ms: i64) {
        let mut order = self.living();
        if !order.is_empty() {
            let shift = (round as usize - 1) % order.len();
            order.rotate_left(shift);
        }
        self.speakers = order;
        self.ballot = None;
        self.phase = Phase::Describe { round, turn: 0 };
        self.deadline = Some(Deadline::after(now_ms, self.rules.describe_seconds, format!("describe:{round}:0")));
    }

    /// The next living speaker, or the vote when everyone has spoken.
    fn next_speaker(&mut self, round: u32, from: usize, now_ms: i64) {
        let next = (from..self.speakers.len()).find(|&t| self.is_alive(&self.speakers[t]));
        match next {
            Some(turn) => {
                self.phase = Phase::Describe { round, turn };
                let tag = format!("describe:{round}:{turn}");
                self.deadline = Some(Deadline::after(now_ms, self.rules.describe_seconds, tag));
            }
            None => {
                let candidates = self.living();
                self.open_vote(round, false, candidates, now_ms);
            }
        }
    }

    fn open_vote(&mut self, round: u32, runoff: bool, candidates: Vec<String>, now_ms: i64) {
        let options =
            candidates.iter().map(|s| (self.number(s).unwrap_or(0).to_string(), self.seats.label(s))).collect();
        self.ballot = Some(Ballot::open(options, self.living()));
        self.phase = Phase::Vote { round, runoff };
        let tag = format!("vote:{round}:{}", if runoff { "runoff" } else { "main" });
        self.deadline = Some(Deadline::after(now_ms, self.rules.vote_seconds, tag));
    }

    fn close_vote(&mut self, round: u32, runoff: bool, now_ms: i64) {
        let Some(ballot) = self.ballot.take() else { return };
        let (_, tally) = ballot.close();
        let seat_of = |option: &str| self.seats.by_number(option).map(str::to_string).unwrap_or_default();
        let votes: BTreeMap<String, String> = tally.votes.iter().map(|(v, o)| (v.clone(), seat_of(o))).collect();
        let mut record =
            VoteRecord { round, runoff, votes, abstained: tally.abstained.clone(), out: None, random: false };
        let top = tally.counts.first().map_or(0, |c| c.1);
        let tied: Vec<String> = match top {
            0 => tally.counts.iter().map(|(o, _)| seat_of(o)).collect(),
            _ => tally.counts.iter().filter(|c| c.1 == top).map(|(o, _)| seat_of(o)).collect(),
        };
        let out = match (tally.winner(), runoff) {
            (Some(option), _) => Some(seat_of(option)),
            (None, false) => None,
            (None, true) => {
                record.random = true;
                let pick = (self.rng(u64::from(round) + 1000) % tied.len().max(1) as u64) as usize;
                tied.get(pick).cloned()
            }
        };
        record.out = out.clone();
        let random = record.random;
        self.votes.push(record);
        match out {
            Some(seat) => self.eliminate(&seat, round, random, now_ms),
            None => self.open_vote(round, true, tied, now_ms),
        }
    }

    fn eliminate(&mut self, seat: &str, round: u32, random: bool, now_ms: i64) {
        self.out.insert(seat.to_string(), Out::Voted { round, random });
        if self.role(seat) == Some(Role::Blank) {
            self.phase = Phase::LastGuess { round, seat: seat.to_string() };
            self.deadline = Some(Deadline::after(now_ms, self.rules.guess_seconds, format!("guess:{round}")));
            return;
        }
        self.settle_or_next_round(round, now_ms);
    }

    fn settle_or_next_round(&mut self, round: u32, now_ms: i64) {
        match self.settled() {
            Some(outcome) => self.finish(outcome, now_ms),
            None => self.open_round(round + 1, now_ms),
        }
    }

    /// The result is in. Anonymous games with humans and AI seats go on to
    /// "guess the AI"; the others end.
    pub(crate) fn finish(&mut self, outcome: Outcome, now_ms: i64) {
        self.outcome = Some(outcome);
        self.ballot = self.ballot.take().map(|b| b.close().0);
        let ended = outcome == Outcome::Ended;
        self.deadline = AiGuesses::deadline(self.rules.anonymous, ended, &self.seats, now_ms, self.rules.vote_seconds);
        self.phase = if self.deadline.is_some() { Phase::GuessAi } else { Phase::Over };
    }

    /// The humans' "guess the AI" scores: (seat, named rightly, named wrongly).
    pub fn ai_guess_scores(&self) -> Vec<(String, usize, usize)> {
        self.ai_guesses.scores(&self.seats)
    }

    /// A seat leaves a running game: out, and play goes on if it can.
    fn leave_running(&mut self, seat: &str, now_ms: i64) -> Result<(), Rejection> {
        if !self.is_alive(seat) {
            return Err(if self.seats.is_seated(seat) { Rejection::Out } else { Rejection::NotSeated });
        }
        let round = self.round();
        self.out.insert(seat.to_string(), Out::Left { round });
        if let Some(outcome) = self.settled() {
            self.finish(outcome, now_ms);
            return Ok(());
        }
        match self.phase.clone() {
            Phase::Describe { round, turn } if self.speakers.get(turn).map(String::as_str) == Some(seat) => {
                self.next_speaker(round, turn + 1, now_ms)
            }
            Phase::Vote { round, runoff } => {
                let Some(ballot) = self.ballot.take() else { return Ok(()) };
                let number = self.number(seat).unwrap_or(0).to_string();
                let options: Vec<(String, String)> =
                    ballot.options.iter().filter(|(id, _)| *id != number).cloned().collect();
                let (_, tally) = ballot.close();
                let mut rebuilt = Ballot::open(options, self.living());
                for (voter, option) in tally.votes.iter().filter(|(v, o)| *v != seat && **o != number) {
                    rebuilt = rebuilt.cast(voter, option).unwrap_or(rebuilt);
                }
                let complete = rebuilt.is_complete() || rebuilt.options.len() < 2;
                self.ballot = Some(rebuilt);
                if complete {
                    self.close_vote(round, runoff, now_ms);
                }
            }
            Phase::LastGuess { round, seat: guesser } if guesser == seat => {
                self.last_guess = None;
                self.settle_or_next_round(round, now_ms);
            }
            _ => {}
        }
        Ok(())
    }
}

impl Game for UndercoverGame {
    const KIND: &'static str = "undercover";
    const VERSION: u32 = 1;
    type Content = ();
    type Event = Event;
    type Rejection = Rejection;

    fn apply(&self, event: &Event, _: &()) -> Result<UndercoverGame, Rejection> {
        match (&self.phase, event) {
            (_, Event::Timer { tag, .. }) if self.deadline.as_ref().is_none_or(|d| &d.tag != tag) => {
                Err(Rejection::StaleTimer)
            }
            (Phase::Lobby, Event::Join(p)) => self.join(p),
            (Phase::Lobby, Event::Leave { seat, .. }) => self.leave_lobby(seat),
            (Phase::Lobby, Event::AddAi) => self.add_ai(),
            (Phase::Lobby, Event::Begin { by, moderator, now_ms }) => self.start(by, *moderator, *now_ms),
            (Phase::Over, _) => Err(Rejection::NotNow),
            (_, Event::End { by, moderator, now_ms }) => self.end(by, *moderator, *now_ms),
            (Phase::GuessAi, Event::GuessAi { seat, seats }) => self.guess_ai(seat, seats),
            (Phase::GuessAi, Event::Timer { .. }) => Ok(self.guess_ai_time_up()),
            (Phase::GuessAi, _) => Err(Rejection::NotNow),
            (Phase::Lobby, _) => Err(Rejection::NotNow),
            (_, Event::Leave { seat, now_ms }) => self.leave(seat, *now_ms),
            (Phase::Describe { round, turn }, Event::Describe { seat, now_ms, text }) => {
                self.describe(*round, *turn, seat, text, *now_ms)
            }
            (Phase::Describe { round, turn }, Event::Timer { now_ms, .. }) => {
                Ok(self.describe_time_up(*round, *turn, *now_ms))
            }
            (Phase::Vote { round, runoff }, Event::Vote { voter, option, now_ms }) => {
                self.vote(*round, *runoff, voter, option, *now_ms)
            }
            (Phase::Vote { round, runoff }, Event::Timer { now_ms, .. }) => {
                Ok(self.vote_time_up(*round, *runoff, *now_ms))
            }
            (Phase::LastGuess { round, seat: guesser }, Event::LastGuess { seat, text, right, now_ms }) => {
                self.guess_word(*round, guesser, seat, text, *right, *now_ms)
            }
            (Phase::LastGuess { round, .. }, Event::Timer { now_ms, .. }) => Ok(self.guess_time_up(*round, *now_ms)),
            _ => Err(Rejection::NotNow),
        }
    }

    fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::Lobby => "lobby",
            Phase::Describe { .. } => "describe",
            Phase::Vote { .. } => "vote",
            Phase::LastGuess { .. } => "last_guess",
            Phase::GuessAi => "guess_ai",
            Phase::Over => "over",
        }
    }

    fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    fn progress(&self) -> u32 {
        self.round()
    }

    fn deadline(&self) -> Option<Deadline> {
        self.deadline.clone()
    }
}

/// The events, one method each: `apply` picks one by phase and event.
/// Each checks the event against `self` and returns the changed copy, so
/// a rejected event leaves the game as it was.
impl UndercoverGame {
    /// A human takes a seat in the lobby.
    fn join(&self, player: &Player) -> Result<UndercoverGame, Rejection> {
        let mut next = self.clone();
        next.seats = self.seats.join(player)?;
        Ok(next)
    }

    /// A seat leaves the lobby.
    fn leave_lobby(&self, seat: &str) -> Result<UndercoverGame, Rejection> {
        let mut next = self.clone();
        next.seats = self.seats.leave(seat)?;
        Ok(next)
    }

    /// An AI seat joins the lobby (under an ordinary name, when anonymous).
    fn add_ai(&self) -> Result<UndercoverGame, Rejection> {
        let mut next = self.clone();
        next.seats = self.seats.add_ai()?;
        if self.rules.anonymous {
            next.seats.disguise_last(self.language, self.seed);
        }
        Ok(next)
    }

    /// The host (or a moderator) closes the lobby: roles are dealt and the
    /// first round opens.
    fn start(&self, by: &str, moderator: bool, now_ms: i64) -> Result<UndercoverGame, Rejection> {
        let mut next = self.clone();
        next.seats = self.seats.start(by, moderator)?;
        next.begin(now_ms)?;
        Ok(next)
    }

    /// The host (or a moderator) ends the game: nobody wins, or, while the
    /// humans guess the AI, the result stands.
    fn end(&self, by: &str, moderator: bool, now_ms: i64) -> Result<UndercoverGame, Rejection> {
        if !self.seats.may_lead(by, moderator) {
            return Err(Rejection::NotHost);
        }
        let mut next = self.clone();
        next.close(now_ms);
        Ok(next)
    }

    /// A human names the seats it thinks are AI; the game is over once
    /// every human has.
    fn guess_ai(&self, seat: &str, seats: &[String]) -> Result<UndercoverGame, Rejection> {
        let mut next = self.clone();
        if next.ai_guesses.guess(&self.seats, seat, seats).map_err(|_| Rejection::NotSeated)? {
            next.phase = Phase::Over;
            next.deadline = None;
        }
        Ok(next)
    }

    /// Time is up for guessing the AI: the game is over.
    fn guess_ai_time_up(&self) -> UndercoverGame {
        let mut next = self.clone();
        next.phase = Phase::Over;
        next.deadline = None;
        next
    }

    /// The game stops here (ended by the host, or idle): nobody wins, or,
    /// while the humans guess the AI, the result stands.
    pub(crate) fn close(&mut self, now_ms: i64) {
        match self.outcome {
            Some(_) => self.phase = Phase::Over,
            None => self.finish(Outcome::Ended, now_ms),
        }
        self.deadline = None;
    }

    /// A seat leaves a running game (see `leave_running`).
    fn leave(&self, seat: &str, now_ms: i64) -> Result<UndercoverGame, Rejection> {
        let mut next = self.clone();
        next.leave_running(seat, now_ms)?;
        Ok(next)
    }

    /// The speaker's description: recorded, and the turn passes on.
    fn describe(
        &self,
        round: u32,
        turn: usize,
        seat: &str,
        text: &str,
        now_ms: i64,
    ) -> Result<UndercoverGame, Rejection> {
        self.check_mover(seat)?;
        if self.speakers.get(turn).map(String::as_str) != Some(seat) {
            let speaker = self.speakers.get(turn).cloned().unwrap_or_default();
            return Err(Rejection::NotYourTurn { speaker });
        }
        let mut next = self.clone();
        next.said.push(Said { round, seat: seat.to_string(), text: Some(text.to_string()) });
        next.next_speaker(round, turn + 1, now_ms);
        Ok(next)
    }

    /// The speaker's time is up: a skipped turn, and the turn passes on.
    fn describe_time_up(&self, round: u32, turn: usize, now_ms: i64) -> UndercoverGame {
        let mut next = self.clone();
        let seat = self.speakers.get(turn).cloned().unwrap_or_default();
        next.said.push(Said { round, seat, text: None });
        next.next_speaker(round, turn + 1, now_ms);
        next
    }

    /// A living seat's vote; the ballot closes once everyone has voted.
    fn vote(
        &self,
        round: u32,
        runoff: bool,
        voter: &str,
        option: &str,
        now_ms: i64,
    ) -> Result<UndercoverGame, Rejection> {
        self.check_mover(voter)?;
        if self.seats.by_number(option) == Some(voter) {
            return Err(Rejection::OwnVote);
        }
        let cast = self.ballot.as_ref().ok_or(Rejection::NotNow)?.cast(voter, option)?;
        let complete = cast.is_complete();
        let mut next = self.clone();
        next.ballot = Some(cast);
        if complete {
            next.close_vote(round, runoff, now_ms);
        }
        Ok(next)
    }

    /// Time is up for the vote: the ballot closes as it stands.
    fn vote_time_up(&self, round: u32, runoff: bool, now_ms: i64) -> UndercoverGame {
        let mut next = self.clone();
        next.close_vote(round, runoff, now_ms);
        next
    }

    /// The blank seat's guess at the civilians' word: right, it wins alone;
    /// wrong, play goes on if it can.
    fn guess_word(
        &self,
        round: u32,
        guesser: &str,
        seat: &str,
        text: &str,
        right: bool,
        now_ms: i64,
    ) -> Result<UndercoverGame, Rejection> {
        if seat != guesser {
            return Err(Rejection::NotYourTurn { speaker: guesser.to_string() });
        }
        let mut next = self.clone();
        next.last_guess = Some((text.to_string(), right));
        match right {
            true => next.finish(Outcome::Blank, now_ms),
            false => next.settle_or_next_round(round, now_ms),
        }
        Ok(next)
    }

    /// Time is up for the blank seat's guess: play goes on if it can.
    fn guess_time_up(&self, round: u32, now_ms: i64) -> UndercoverGame {
        let mut next = self.clone();
        next.settle_or_next_round(round, now_ms);
        next
    }
}

pub use crate::core::game::timer::REMIND_BEFORE_SECONDS;

impl UndercoverGame {
    /// The reminder before the phase's deadline, when the phase is long
    /// enough for one.
    pub fn reminder(&self) -> Option<Deadline> {
        let span = match self.phase {
            Phase::Describe { .. } => self.rules.describe_seconds,
            Phase::Vote { .. } | Phase::GuessAi => self.rules.vote_seconds,
            Phase::LastGuess { .. } => self.rules.guess_seconds,
            Phase::Lobby | Phase::Over => return None,
        };
        self.deadline.as_ref()?.reminder_within(span)
    }

    /// Whether a timer's tag is the current phase's reminder or deadline.
    pub fn timer_is_live(&self, tag: &str) -> bool {
        self.deadline.as_ref().is_some_and(|d| d.fires(tag))
    }

    /// Keeps an AI seat's reasons for its vote (a changed vote replaces
    /// the reasons it gave on that ballot).
    pub fn keep_reasons(&mut self, reasoning: Reasoning) {
        let same =
            |r: &Reasoning| r.round == reasoning.round && r.runoff == reasoning.runoff && r.seat == reasoning.seat;
        self.reasons.retain(|r| !same(r));
        self.reasons.push(reasoning);
    }

    /// A seat's own reasons so far, oldest first.
    pub fn reasons_of<'a>(&'a self, seat: &'a str) -> impl Iterator<Item = &'a Reasoning> + 'a {
        self.reasons.iter().filter(move |r| r.seat == seat)
    }

    fn check_mover(&self, seat: &str) -> Result<(), Rejection> {
        if !self.seats.is_seated(seat) {
            return Err(Rejection::NotSeated);
        }
        if self.out.contains_key(seat) {
            return Err(Rejection::Out);
        }
        Ok(())
    }
}

/// The game's only source of chance, fed by the recorded seed, so a
/// replay decides the same way.
pub use crate::core::game::splitmix;

#[cfg(test)]
mod tests;
