//! The night: the werewolves' secret ballot for a victim, the Seer's
//! check, the Doctor's protection, the Witch's potions (once she knows the
//! victim), and the dawn that settles them. Each method checks its event
//! against the state and changes the copy `apply` made.

use super::{Ballot, Deadline, Event, NightRecord, Out, PackLine, Phase, Rejection, Role, WerewolfGame};
use crate::core::game::BallotError;

/// What a seat owes tonight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    Kill,
    Check,
    Protect,
    /// The Witch's cure or poison (or a pass).
    Potion,
}

impl Task {
    fn role(self) -> Role {
        match self {
            Task::Kill => Role::Werewolf,
            Task::Check => Role::Seer,
            Task::Protect => Role::Doctor,
            Task::Potion => Role::Witch,
        }
    }
}

impl WerewolfGame {
    /// Night `night` falls: tonight's record, and the werewolves' ballot
    /// over every living seat that is not a werewolf.
    pub(super) fn open_night(&mut self, night: u32, now_ms: i64) {
        let living = self.living();
        let wolves: Vec<String> = living.iter().filter(|s| self.role(s).is_some_and(Role::is_wolf)).cloned().collect();
        let options = living.iter().filter(|s| !wolves.contains(s)).map(|s| (s.clone(), self.label(s))).collect();
        self.ballot = Some(Ballot::open(options, wolves));
        self.nights.push(NightRecord { night, ..NightRecord::default() });
        self.passed.clear();
        self.phase = Phase::Night { night };
        self.deadline = Some(Deadline::after(now_ms, self.rules.night_seconds, format!("night:{night}")));
    }

    /// Who owes what tonight, in seating order (the Witch only once the
    /// werewolves have chosen).
    pub fn night_tasks(&self) -> Vec<(String, Task)> {
        let Some(tonight) = self.tonight() else { return Vec::new() };
        let mut tasks = Vec::new();
        for seat in self.living() {
            let passed = tonight.passed.contains(&seat);
            let task = match self.role(&seat) {
                Some(Role::Werewolf)
                    if !tonight.wolves_done && self.ballot.as_ref().is_some_and(|b| !b.has_voted(&seat)) =>
                {
                    Some(Task::Kill)
                }
                Some(Role::Seer) if tonight.check.is_none() && !passed => Some(Task::Check),
                Some(Role::Doctor) if tonight.protect.is_none() && !passed => Some(Task::Protect),
                Some(Role::Witch) if self.witch_owes(tonight) => Some(Task::Potion),
                _ => None,
            };
            tasks.extend(task.map(|t| (seat, t)));
        }
        tasks
    }

    fn witch_owes(&self, tonight: &NightRecord) -> bool {
        let can_cure = !self.cure_used && tonight.victim.is_some();
        tonight.wolves_done && !tonight.witch_done && (can_cure || !self.poison_used)
    }

    /// The Doctor's protection of the night before, which may not be repeated.
    pub fn last_protected(&self) -> Option<&str> {
        let before = match self.phase {
            Phase::Night { .. } => self.nights.iter().rev().nth(1),
            _ => self.nights.last(),
        };
        before.and_then(|n| n.protect.as_deref())
    }

    pub(super) fn night_event(&mut self, event: &Event) -> Result<(), Rejection> {
        match event {
            Event::Kill { seat, target, now_ms } => self.kill(seat, target, *now_ms),
            Event::Check { seat, target, now_ms } => {
                self.owes(seat, Task::Check)?;
                self.check_target(seat, target)?;
                self.record(|n| n.check = Some(target.clone()));
                self.dawn_if_done(*now_ms);
                Ok(())
            }
            Event::Protect { seat, target, now_ms } => {
                self.owes(seat, Task::Protect)?;
                if !self.is_alive(target) {
                    return Err(Rejection::NotATarget);
                }
                if self.last_protected() == Some(target.as_str()) {
                    return Err(Rejection::SameProtect);
                }
                self.record(|n| n.protect = Some(target.clone()));
                self.dawn_if_done(*now_ms);
                Ok(())
            }
            Event::Cure { seat, now_ms } => self.cure(seat, *now_ms),
            Event::Poison { seat, target, now_ms } => {
                self.owes(seat, Task::Potion)?;
                if self.poison_used {
                    return Err(Rejection::NoPotion);
                }
                self.check_target(seat, target)?;
                self.poison_used = true;
                self.record(|n| {
                    n.poison = Some(target.clone());
                    n.witch_done = true;
                });
                self.dawn_if_done(*now_ms);
                Ok(())
            }
            Event::Pass { seat, now_ms } => self.night_pass(seat, *now_ms),
            Event::Timer { now_ms, .. } => {
                if self.tonight().is_some_and(|n| !n.wolves_done) {
                    self.close_wolves();
                }
                self.dawn(*now_ms);
                Ok(())
            }
            _ => Err(Rejection::NotNow),
        }
    }

    /// Changes tonight's record.
    fn record(&mut self, change: impl FnOnce(&mut NightRecord)) {
        if let Some(night) = self.nights.last_mut() {
            change(night);
        }
    }

    /// Checks that `seat` is alive, holds the role for `task` and still owes it.
    fn owes(&self, seat: &str, task: Task) -> Result<(), Rejection> {
        self.check_alive(seat)?;
        if self.role(seat) != Some(task.role()) {
            return Err(Rejection::NotYourRole);
        }
        if self.night_tasks().iter().any(|(s, t)| s == seat && *t == task) {
            return Ok(());
        }
        let wolves_done = self.tonight().is_some_and(|n| n.wolves_done);
        Err(if task == Task::Potion && !wolves_done { Rejection::NotNow } else { Rejection::Done })
    }

    /// A werewolf's vote (a changed vote replaces the earlier one); the
    /// ballot closes once every living werewolf has voted.
    fn kill(&mut self, seat: &str, target: &str, now_ms: i64) -> Result<(), Rejection> {
        self.check_alive(seat)?;
        if self.role(seat) != Some(Role::Werewolf) {
            return Err(Rejection::NotYourRole);
        }
        if self.tonight().is_none_or(|n| n.wolves_done) {
            return Err(Rejection::Done);
        }
        let ballot = self.ballot.as_ref().ok_or(Rejection::NotNow)?;
        let cast = ballot.cast(seat, target).map_err(|e| match e {
            BallotError::NotAVoter => Rejection::Dead,
            BallotError::UnknownOption(_) => Rejection::NotATarget,
            BallotError::Closed => Rejection::Done,
        })?;
        let complete = cast.is_complete();
        self.ballot = Some(cast);
        if complete {
            self.close_wolves();
        }
        self.dawn_if_done(now_ms);
        Ok(())
    }

    /// The werewolves' ballot closes: the most-voted seat is the victim,
    /// a tie is picked by the seed, no votes is no victim.
    pub(super) fn close_wolves(&mut self) {
        let Some(ballot) = self.ballot.take() else { return };
        let (closed, tally) = ballot.close();
        self.ballot = Some(closed);
        let top = tally.counts.first().map_or(0, |c| c.1);
        let tied: Vec<String> = tally.counts.iter().filter(|c| top > 0 && c.1 == top).map(|c| c.0.clone()).collect();
        let pick = (self.rng(u64::from(self.day()) * 7 + 3) % tied.len().max(1) as u64) as usize;
        self.record(|n| {
            n.wolf_votes = tally.votes;
            n.wolves_done = true;
            n.random = tied.len() > 1;
            n.victim = tied.get(pick).cloned();
        });
    }

    /// The Witch cures tonight's victim.
    fn cure(&mut self, seat: &str, now_ms: i64) -> Result<(), Rejection> {
        self.owes(seat, Task::Potion)?;
        if self.cure_used {
            return Err(Rejection::NoPotion);
        }
        if self.tonight().is_none_or(|n| n.victim.is_none()) {
            return Err(Rejection::NoVictim);
        }
        self.cure_used = true;
        self.record(|n| {
            n.cured = true;
            n.witch_done = true;
        });
        self.dawn_if_done(now_ms);
        Ok(())
    }

    /// A night role does nothing tonight (the werewolves must vote or miss).
    fn night_pass(&mut self, seat: &str, now_ms: i64) -> Result<(), Rejection> {
        self.check_alive(seat)?;
        let task = match self.role(seat) {
            Some(Role::Seer) => Task::Check,
            Some(Role::Doctor) => Task::Protect,
            Some(Role::Witch) => Task::Potion,
            Some(Role::Werewolf) => return Err(Rejection::NotNow),
            _ => return Err(Rejection::NotYourRole),
        };
        self.owes(seat, task)?;
        let seat = seat.to_string();
        self.record(|n| {
            if task == Task::Potion {
                n.witch_done = true;
            }
            n.passed.insert(seat);
        });
        self.dawn_if_done(now_ms);
        Ok(())
    }

    /// A werewolf's line to the pack, at any time of the game.
    pub(super) fn pack_line(&mut self, seat: &str, text: &str) -> Result<(), Rejection> {
        self.check_alive(seat)?;
        if self.role(seat) != Some(Role::Werewolf) {
            return Err(Rejection::NotYourRole);
        }
        let night = self.nights.len() as u32;
        self.pack.push(PackLine { night, seat: seat.to_string(), text: text.to_string() });
        Ok(())
    }

    fn dawn_if_done(&mut self, now_ms: i64) {
        if self.night_tasks().is_empty() {
            self.dawn(now_ms);
        }
    }

    /// The night ends: the victim dies unless the Doctor protected it or
    /// the Witch cured it; the poisoned seat dies whatever protects it.
    /// Then the Hunter's shot, the win check, or the day.
    pub(super) fn dawn(&mut self, now_ms: i64) {
        let Some(n) = self.nights.last().cloned() else { return };
        let night = n.night;
        let mut died: Vec<(String, Out)> = Vec::new();
        if let Some(victim) = n.victim.filter(|v| self.is_alive(v))
            && n.protect.as_ref() != Some(&victim)
            && !n.cured
        {
            died.push((victim, Out::Killed { night }));
        }
        if let Some(target) = n.poison.filter(|p| self.is_alive(p) && !died.iter().any(|(d, _)| d == p)) {
            died.push((target, Out::Poisoned { night }));
        }
        self.record(|rec| {
            rec.died = died.iter().map(|(s, _)| s.clone()).collect();
            rec.dawned = true;
        });
        for (seat, how) in &died {
            self.out.insert(seat.clone(), how.clone());
        }
        self.ballot = None;
        let hunter = died
            .iter()
            .find(|(s, how)| matches!(how, Out::Killed { .. }) && self.role(s) == Some(Role::Hunter))
            .map(|(s, _)| s.clone());
        self.after_deaths(night, hunter, true, now_ms);
    }
}
