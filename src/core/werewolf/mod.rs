//! Werewolf (狼人杀): the social-deduction game of Google's Werewolf Arena
//! and the AIWolf contest, for 5–12 seats, humans and AI seats together.
//!
//! Roles are dealt privately from the recorded seed: werewolves (1 up to
//! 7 seats, 2 up to 10, 3 above), a Seer, a Doctor, villagers, and the
//! Witch and the Hunter when the host asks for them. The werewolves know
//! each other. Each **night** the werewolves choose a victim by a secret
//! ballot among themselves (a tie is broken by the seed), the Seer checks
//! one seat (werewolf or not, told to the Seer alone), the Doctor protects
//! one seat (not the same seat two nights running) and the Witch, once she
//! knows the victim, may cure it or poison someone (each potion once a
//! game). Each **day** opens with the night's deaths (or "no one died"),
//! then a debate (a human speaks up to `SPEECHES_PER_DAY` times; AI seats
//! bid for the floor with an urgency 0–4), then a simultaneous secret
//! vote; a tie goes to a run-off between the tied seats, a tied run-off
//! exiles no one. The exiled seat's role is shown (a host option). A
//! Hunter who dies (not by poison) shoots one seat. Villagers win when no
//! werewolf is left; werewolves when they are as many as the rest.
//!
//! This file holds the state (`WerewolfGame`), its events and the
//! dispatch; `night.rs` and `day.rs` the rules of each half of a day;
//! `table.rs` hosts it on the engine, `narrate.rs` turns each change into
//! messages by audience, `seat.rs` is what one seat knows (its private
//! lines, the gate's secrets, an AI seat's view), `agents.rs` the AI
//! seats' model calls, `say.rs` every sentence (`en.ftl`, `zh.ftl`).

pub mod agents;
mod day;
pub mod host;
mod moves;
pub mod narrate;
mod night;
pub mod say;
pub mod seat;
pub mod selfplay;
pub mod table;
pub mod verbs;

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::core::game::{AiGuesses, Ballot, Deadline, Game, SeatError, SeatRules, Seats, shuffle};
use crate::core::vocab::{Language, Player};

pub use crate::core::game::splitmix;
pub use host::{WerewolfHost, hosted};
pub use night::Task;
pub use table::WerewolfTable;

/// Fewest and most seats.
pub const MIN_SEATS: usize = 5;
pub const MAX_SEATS: usize = 12;
/// Speeches a human may make in one day's debate.
pub const SPEECHES_PER_DAY: usize = 3;
/// Speeches an AI seat may make in one day's debate.
pub const AI_SPEECHES_PER_DAY: usize = 2;

/// What a table is set up with; stored with the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    pub night_seconds: u32,
    pub debate_seconds: u32,
    pub vote_seconds: u32,
    /// The Hunter's time to shoot.
    pub shot_seconds: u32,
    pub witch: bool,
    pub hunter: bool,
    /// The exiled seat's role is shown.
    pub reveal: bool,
    /// AI seats get ordinary names and take a human's time; after the end
    /// every human may guess which seats were AI.
    pub anonymous: bool,
    /// AI seats fill the table up to this many seats when it starts.
    pub fill_to: usize,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            night_seconds: 90,
            debate_seconds: 180,
            vote_seconds: 60,
            shot_seconds: 45,
            witch: false,
            hunter: false,
            reveal: true,
            anonymous: false,
            fill_to: MIN_SEATS,
        }
    }
}

/// A seat's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Werewolf,
    Seer,
    Doctor,
    Witch,
    Hunter,
    Villager,
}

impl Role {
    pub const ALL: [Role; 6] = [Role::Werewolf, Role::Seer, Role::Doctor, Role::Witch, Role::Hunter, Role::Villager];

    /// The stored name (`werewolf`).
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Werewolf => "werewolf",
            Role::Seer => "seer",
            Role::Doctor => "doctor",
            Role::Witch => "witch",
            Role::Hunter => "hunter",
            Role::Villager => "villager",
        }
    }

    pub fn parse(name: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == name)
    }

    pub fn is_wolf(self) -> bool {
        self == Role::Werewolf
    }
}

/// Werewolves for a table of `seats`.
pub fn wolves_for(seats: usize) -> usize {
    match seats {
        0..=7 => 1,
        8..=10 => 2,
        _ => 3,
    }
}

/// The roles for `seats` seats in seating order, dealt by `seed`: the
/// werewolves, a Seer, a Doctor, the Witch and the Hunter when asked for,
/// villagers for the rest.
pub fn deal(seats: usize, seed: u64, rules: &Rules) -> Vec<Role> {
    let mut pack = vec![Role::Werewolf; wolves_for(seats)];
    pack.extend([Role::Seer, Role::Doctor]);
    if rules.witch {
        pack.push(Role::Witch);
    }
    if rules.hunter {
        pack.push(Role::Hunter);
    }
    pack.truncate(seats);
    pack.resize(seats, Role::Villager);
    shuffle(&mut pack, splitmix(seed ^ 0x0077_01f5));
    pack
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    Lobby,
    Night {
        night: u32,
    },
    /// A dead Hunter takes a seat with them. `dawn`: shot at dawn (the
    /// debate follows); otherwise after an exile (the night follows).
    Hunter {
        day: u32,
        seat: String,
        dawn: bool,
    },
    Debate {
        day: u32,
    },
    Vote {
        day: u32,
        runoff: bool,
    },
    /// Anonymous games, after the result: the humans guess which seats were AI.
    GuessAi,
    Over,
}

/// How a seat left the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "how", rename_all = "snake_case")]
pub enum Out {
    Killed { night: u32 },
    Poisoned { night: u32 },
    Exiled { day: u32 },
    Shot { day: u32 },
    Left { day: u32 },
}

/// One night, as it was played: filled in while the night goes on.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NightRecord {
    pub night: u32,
    /// Werewolf → the seat it voted to kill.
    pub wolf_votes: BTreeMap<String, String>,
    /// The werewolves' choice, once their ballot closed.
    pub victim: Option<String>,
    /// The choice was picked by the seed among tied seats.
    pub random: bool,
    pub wolves_done: bool,
    /// The Seer's check.
    pub check: Option<String>,
    pub protect: Option<String>,
    /// The Witch cured the victim.
    pub cured: bool,
    pub poison: Option<String>,
    /// The Witch acted or passed.
    pub witch_done: bool,
    /// Night roles that chose to do nothing tonight.
    pub passed: BTreeSet<String>,
    /// Who died, at dawn.
    pub died: Vec<String>,
    /// The night is over.
    pub dawned: bool,
}

/// One speech in a day's debate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Said {
    pub day: u32,
    pub seat: String,
    pub text: String,
}

/// A line in the werewolves' own channel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackLine {
    pub night: u32,
    pub seat: String,
    pub text: String,
}

/// One closed day ballot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VoteRecord {
    pub day: u32,
    pub runoff: bool,
    /// Voter → the seat they voted for.
    pub votes: BTreeMap<String, String>,
    pub abstained: Vec<String>,
    /// Who was exiled on this ballot, if anyone.
    pub out: Option<String>,
}

/// A dead Hunter's shot (`target: None`: no shot).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shot {
    pub day: u32,
    pub hunter: String,
    pub target: Option<String>,
}

/// How the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Villagers,
    Werewolves,
    /// Ended by the host or a moderator, or idle: nobody won.
    Ended,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WerewolfGame {
    pub seats: Seats,
    pub rules: Rules,
    pub language: Language,
    /// Recorded at the lobby's opening: roles and tie picks follow it.
    pub seed: u64,
    pub phase: Phase,
    /// Seat id → role, from the start.
    pub roles: BTreeMap<String, Role>,
    pub out: BTreeMap<String, Out>,
    /// Every night so far; while it is night, the last is tonight's.
    pub nights: Vec<NightRecord>,
    /// The werewolves' ballot at night (options by seat id), the day vote
    /// by day (options by seat number).
    pub ballot: Option<Ballot>,
    pub votes: Vec<VoteRecord>,
    pub said: Vec<Said>,
    /// Seats done speaking today.
    pub passed: BTreeSet<String>,
    pub shots: Vec<Shot>,
    pub pack: Vec<PackLine>,
    pub cure_used: bool,
    pub poison_used: bool,
    /// Seats whose role is public (exiled with `reveal`, a Hunter who shot).
    pub revealed: BTreeSet<String>,
    /// AI seat → its private notes (what it believes of each player),
    /// read back into its own prompts only.
    pub memos: BTreeMap<String, String>,
    pub deadline: Option<Deadline>,
    pub outcome: Option<Outcome>,
    /// Anonymous games: human seat → the seats they named as AI.
    pub ai_guesses: AiGuesses,
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
    /// A werewolf's vote for tonight's victim (a seat id).
    Kill {
        seat: String,
        target: String,
        now_ms: i64,
    },
    Check {
        seat: String,
        target: String,
        now_ms: i64,
    },
    Protect {
        seat: String,
        target: String,
        now_ms: i64,
    },
    /// The Witch cures tonight's victim.
    Cure {
        seat: String,
        now_ms: i64,
    },
    Poison {
        seat: String,
        target: String,
        now_ms: i64,
    },
    /// A night role does nothing tonight; a speaker is done for the day;
    /// the Hunter does not shoot.
    Pass {
        seat: String,
        now_ms: i64,
    },
    /// A werewolf's line to the pack.
    Pack {
        seat: String,
        text: String,
    },
    Speak {
        seat: String,
        text: String,
        now_ms: i64,
    },
    /// A day vote for a ballot option (a seat number).
    Vote {
        voter: String,
        option: String,
        now_ms: i64,
    },
    Shoot {
        seat: String,
        target: String,
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
    Dead,
    #[error("not your role")]
    NotYourRole,
    #[error("already done tonight")]
    Done,
    #[error("no such seat to choose")]
    NotATarget,
    #[error("not yourself")]
    Yourself,
    #[error("not the same seat two nights running")]
    SameProtect,
    #[error("that potion is used")]
    NoPotion,
    #[error("nobody to cure tonight")]
    NoVictim,
    #[error("no speeches left today")]
    SpokenOut,
    #[error("only the host or a moderator may end the game")]
    NotHost,
    #[error("a timer for a phase that has ended")]
    StaleTimer,
}

impl WerewolfGame {
    /// A lobby of at most `max_seats` seats opened by `host`.
    pub fn new(host: &Player, max_seats: usize, rules: Rules, language: Language, seed: u64) -> WerewolfGame {
        let max = max_seats.clamp(MIN_SEATS, MAX_SEATS);
        let seat_rules = SeatRules { min: 1, max, max_ai: max - 1 };
        let rules = Rules { fill_to: rules.fill_to.clamp(MIN_SEATS, max), ..rules };
        WerewolfGame {
            seats: Seats::open(seat_rules, host),
            rules,
            language,
            seed,
            phase: Phase::Lobby,
            roles: BTreeMap::new(),
            out: BTreeMap::new(),
            nights: Vec::new(),
            ballot: None,
            votes: Vec::new(),
            said: Vec::new(),
            passed: BTreeSet::new(),
            shots: Vec::new(),
            pack: Vec::new(),
            cure_used: false,
            poison_used: false,
            revealed: BTreeSet::new(),
            memos: BTreeMap::new(),
            deadline: None,
            outcome: None,
            ai_guesses: AiGuesses::default(),
        }
    }

    /// Living seats, in seating order.
    pub fn living(&self) -> Vec<String> {
        self.seats.ids().into_iter().filter(|id| !self.out.contains_key(id)).collect()
    }

    pub fn is_alive(&self, seat: &str) -> bool {
        self.seats.is_seated(seat) && !self.out.contains_key(seat)
    }

    pub fn is_ai(&self, seat: &str) -> bool {
        self.seats.is_ai(seat)
    }

    /// A seat's number as shown (1-based, seating order).
    pub fn number(&self, seat: &str) -> Option<usize> {
        self.seats.number(seat)
    }

    /// The seat with a number (`3`, `#3`).
    pub fn seat_by_number(&self, number: &str) -> Option<&str> {
        self.seats.by_number(number)
    }

    /// `#3 Carol`.
    pub fn label(&self, seat: &str) -> String {
        self.seats.label(seat)
    }

    pub fn role(&self, seat: &str) -> Option<Role> {
        self.roles.get(seat).copied()
    }

    /// Living seats with `role`.
    pub fn living_with(&self, role: Role) -> Vec<String> {
        self.living().into_iter().filter(|s| self.role(s) == Some(role)).collect()
    }

    /// Every seat dealt `role`, living or not.
    pub fn seats_with(&self, role: Role) -> Vec<String> {
        self.roles.iter().filter(|(_, r)| **r == role).map(|(s, _)| s.clone()).collect()
    }

    /// Tonight's record, while it is night.
    pub fn tonight(&self) -> Option<&NightRecord> {
        match self.phase {
            Phase::Night { .. } => self.nights.last(),
            _ => None,
        }
    }

    /// The day (or night) the game is at.
    pub fn day(&self) -> u32 {
        match &self.phase {
            Phase::Night { night } => *night,
            Phase::Hunter { day, .. } | Phase::Debate { day } | Phase::Vote { day, .. } => *day,
            Phase::Lobby => 0,
            Phase::GuessAi | Phase::Over => self.nights.len() as u32,
        }
    }

    /// Speeches `seat` made today.
    pub fn speeches_today(&self, seat: &str) -> usize {
        let day = self.day();
        self.said.iter().filter(|s| s.day == day && s.seat == seat).count()
    }

    /// Speeches `seat` may still make today.
    pub fn speeches_left(&self, seat: &str) -> usize {
        let limit = if self.is_ai(seat) { AI_SPEECHES_PER_DAY } else { SPEECHES_PER_DAY };
        limit.saturating_sub(self.speeches_today(seat))
    }

    /// The seats that won, once over.
    pub fn winners(&self) -> Vec<String> {
        let wolf = |s: &String| self.role(s).is_some_and(Role::is_wolf);
        match self.outcome {
            Some(Outcome::Villagers) => self.seats.ids().into_iter().filter(|s| !wolf(s)).collect(),
            Some(Outcome::Werewolves) => self.seats.ids().into_iter().filter(wolf).collect(),
            Some(Outcome::Ended) | None => Vec::new(),
        }
    }

    /// The game's only source of chance past the deal: the recorded seed.
    fn rng(&self, salt: u64) -> u64 {
        splitmix(self.seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    /// The reminder before the phase's deadline, when the phase is long
    /// enough for one.
    pub fn reminder(&self) -> Option<Deadline> {
        let span = match self.phase {
            Phase::Night { .. } => self.rules.night_seconds,
            Phase::Debate { .. } => self.rules.debate_seconds,
            Phase::Vote { .. } | Phase::GuessAi => self.rules.vote_seconds,
            Phase::Hunter { .. } => self.rules.shot_seconds,
            Phase::Lobby | Phase::Over => return None,
        };
        self.deadline.as_ref()?.reminder_within(span)
    }

    /// Checks that `seat` is seated and alive.
    fn check_alive(&self, seat: &str) -> Result<(), Rejection> {
        if !self.seats.is_seated(seat) {
            return Err(Rejection::NotSeated);
        }
        if self.out.contains_key(seat) {
            return Err(Rejection::Dead);
        }
        Ok(())
    }

    /// Checks that `target` is a living seat other than `seat`.
    fn check_target(&self, seat: &str, target: &str) -> Result<(), Rejection> {
        if !self.is_alive(target) {
            return Err(Rejection::NotATarget);
        }
        if target == seat {
            return Err(Rejection::Yourself);
        }
        Ok(())
    }
}

impl Game for WerewolfGame {
    const KIND: &'static str = "werewolf";
    const VERSION: u32 = 1;
    type Content = ();
    type Event = Event;
    type Rejection = Rejection;

    fn apply(&self, event: &Event, _: &()) -> Result<WerewolfGame, Rejection> {
        let mut next = self.clone();
        match (&self.phase, event) {
            (_, Event::Timer { tag, .. }) if self.deadline.as_ref().is_none_or(|d| &d.tag != tag) => {
                return Err(Rejection::StaleTimer);
            }
            (Phase::Lobby, Event::Join(p)) => next.seats = self.seats.join(p)?,
            (Phase::Lobby, Event::Leave { seat, .. }) => next.seats = self.seats.leave(seat)?,
            (Phase::Lobby, Event::AddAi) => next.add_ai()?,
            (Phase::Lobby, Event::Begin { by, moderator, now_ms }) => next.begin(by, *moderator, *now_ms)?,
            (Phase::Lobby | Phase::Over, _) => return Err(Rejection::NotNow),
            (_, Event::End { by, moderator, now_ms }) => next.end(by, *moderator, *now_ms)?,
            (Phase::GuessAi, Event::GuessAi { seat, seats }) => next.guess_ai(seat, seats)?,
            (Phase::GuessAi, Event::Timer { .. }) => next.close_guessing(),
            (Phase::GuessAi, _) => return Err(Rejection::NotNow),
            (_, Event::Leave { seat, now_ms }) => next.leave_running(seat, *now_ms)?,
            (_, Event::Pack { seat, text }) => next.pack_line(seat, text)?,
            (Phase::Night { .. }, _) => next.night_event(event)?,
            (Phase::Debate { day }, _) => next.debate_event(*day, event)?,
            (Phase::Vote { day, runoff }, _) => next.vote_event(*day, *runoff, event)?,
            (Phase::Hunter { day, seat, dawn }, _) => next.hunter_event(*day, seat, *dawn, event)?,
        }
        Ok(next)
    }

    fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::Lobby => "lobby",
            Phase::Night { .. } => "night",
            Phase::Hunter { .. } => "hunter",
            Phase::Debate { .. } => "debate",
            Phase::Vote { .. } => "vote",
            Phase::GuessAi => "guess_ai",
            Phase::Over => "over",
        }
    }

    fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    fn progress(&self) -> u32 {
        self.day()
    }

    fn deadline(&self) -> Option<Deadline> {
        self.deadline.clone()
    }
}

/// The lobby, the start and the end: each checks the event against the
/// state and changes `self` (a copy `apply` made), so a rejected event
/// leaves the game as it was.
impl WerewolfGame {
    /// An AI seat joins the lobby (under an ordinary name, when anonymous).
    fn add_ai(&mut self) -> Result<(), Rejection> {
        self.seats = self.seats.add_ai()?;
        if self.rules.anonymous {
            self.seats.disguise_last(self.language, self.seed);
        }
        Ok(())
    }

    /// The host (or a moderator) closes the lobby: AI seats fill it up to
    /// the table's size, the roles are dealt and the first night falls.
    fn begin(&mut self, by: &str, moderator: bool, now_ms: i64) -> Result<(), Rejection> {
        self.seats = self.seats.start(by, moderator)?;
        self.seats.started = false;
        while self.seats.len() < self.rules.fill_to.max(MIN_SEATS) && self.add_ai().is_ok() {}
        if self.seats.len() < MIN_SEATS {
            return Err(SeatError::TooFew { min: MIN_SEATS, seated: self.seats.len() }.into());
        }
        self.seats.started = true;
        let ids = self.seats.ids();
        let dealt = deal(ids.len(), self.seed, &self.rules);
        self.roles = ids.into_iter().zip(dealt).collect();
        self.open_night(1, now_ms);
        Ok(())
    }

    /// The host (or a moderator) ends the game: nobody wins, or, while the
    /// humans guess the AI, the result stands.
    fn end(&mut self, by: &str, moderator: bool, now_ms: i64) -> Result<(), Rejection> {
        if !self.seats.may_lead(by, moderator) {
            return Err(Rejection::NotHost);
        }
        self.close(now_ms);
        Ok(())
    }

    /// The game stops here (ended by the host, or idle): nobody wins, or,
    /// while the humans guess the AI, the result stands.
    pub(crate) fn close(&mut self, now_ms: i64) {
        match self.outcome {
            Some(_) => self.close_guessing(),
            None => self.finish(Outcome::Ended, now_ms),
        }
        self.deadline = None;
    }

    /// The result is in. Anonymous games with humans and AI seats go on to
    /// "guess the AI"; the others end.
    pub(crate) fn finish(&mut self, outcome: Outcome, now_ms: i64) {
        self.outcome = Some(outcome);
        self.ballot = self.ballot.take().map(|b| b.close().0);
        let (anonymous, seconds) = (self.rules.anonymous, self.rules.vote_seconds);
        self.deadline = AiGuesses::deadline(anonymous, outcome == Outcome::Ended, &self.seats, now_ms, seconds);
        self.phase = if self.deadline.is_some() { Phase::GuessAi } else { Phase::Over };
    }

    /// A human names the seats it thinks are AI; the game is over once
    /// every human has.
    fn guess_ai(&mut self, seat: &str, seats: &[String]) -> Result<(), Rejection> {
        if self.ai_guesses.guess(&self.seats, seat, seats).map_err(|_| Rejection::NotSeated)? {
            self.close_guessing();
        }
        Ok(())
    }

    fn close_guessing(&mut self) {
        self.phase = Phase::Over;
        self.deadline = None;
    }

    /// The humans' "guess the AI" scores: (seat, named rightly, named wrongly).
    pub fn ai_guess_scores(&self) -> Vec<(String, usize, usize)> {
        self.ai_guesses.scores(&self.seats)
    }
}

#[cfg(test)]
mod tests;
