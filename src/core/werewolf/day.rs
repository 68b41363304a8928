//! The day: the debate (speeches within a per-day limit, a seat done
//! speaking passes), the simultaneous secret vote and its run-off, the
//! exile, a dead Hunter's shot, a seat leaving, and the win check after
//! every death. Each method changes the copy `apply` made.

use std::collections::BTreeMap;

use super::{Ballot, Deadline, Event, Out, Outcome, Phase, Rejection, Role, Said, Shot, VoteRecord, WerewolfGame};
use crate::core::game::BallotError;

impl WerewolfGame {
    /// Who wins now, from the living seats; `None` while play goes on.
    pub fn settled(&self) -> Option<Outcome> {
        let living = self.living();
        let wolves = living.iter().filter(|s| self.role(s).is_some_and(Role::is_wolf)).count();
        if wolves == 0 {
            Some(Outcome::Villagers)
        } else if wolves >= living.len() - wolves {
            Some(Outcome::Werewolves)
        } else {
            None
        }
    }

    /// After deaths: a dead Hunter shoots first (while a werewolf lives),
    /// then the win check, then the day's debate (at dawn) or the night.
    pub(super) fn after_deaths(&mut self, day: u32, hunter: Option<String>, dawn: bool, now_ms: i64) {
        let wolves_left = self.living().iter().any(|s| self.role(s).is_some_and(Role::is_wolf));
        if let Some(seat) = hunter.filter(|_| wolves_left) {
            // Taking the shot shows the role.
            self.revealed.insert(seat.clone());
            self.ballot = None;
            self.phase = Phase::Hunter { day, seat, dawn };
            let tag = format!("shot:{day}:{}", if dawn { "dawn" } else { "dusk" });
            self.deadline = Some(Deadline::after(now_ms, self.rules.shot_seconds, tag));
            return;
        }
        self.settle_or_go_on(day, dawn, now_ms);
    }

    fn settle_or_go_on(&mut self, day: u32, dawn: bool, now_ms: i64) {
        match self.settled() {
            Some(outcome) => self.finish(outcome, now_ms),
            None if dawn => self.open_debate(day, now_ms),
            None => self.open_night(day + 1, now_ms),
        }
    }

    fn open_debate(&mut self, day: u32, now_ms: i64) {
        self.phase = Phase::Debate { day };
        self.passed.clear();
        self.ballot = None;
        self.deadline = Some(Deadline::after(now_ms, self.rules.debate_seconds, format!("debate:{day}")));
    }

    pub(super) fn debate_event(&mut self, day: u32, event: &Event) -> Result<(), Rejection> {
        match event {
            Event::Speak { seat, text, now_ms } => {
                self.check_alive(seat)?;
                if self.speeches_left(seat) == 0 {
                    return Err(Rejection::SpokenOut);
                }
                self.said.push(Said { day, seat: seat.clone(), text: text.clone() });
                self.passed.remove(seat);
                self.end_debate_if_done(day, *now_ms);
                Ok(())
            }
            Event::Pass { seat, now_ms } => {
                self.check_alive(seat)?;
                self.passed.insert(seat.clone());
                self.end_debate_if_done(day, *now_ms);
                Ok(())
            }
            Event::Timer { now_ms, .. } => {
                self.open_vote(day, false, self.living(), *now_ms);
                Ok(())
            }
            _ => Err(Rejection::NotNow),
        }
    }

    /// The debate ends early once every living seat is done speaking.
    fn end_debate_if_done(&mut self, day: u32, now_ms: i64) {
        let done = self.living().iter().all(|s| self.passed.contains(s) || self.speeches_left(s) == 0);
        if done {
            self.open_vote(day, false, self.living(), now_ms);
        }
    }

    /// A day ballot over `candidates` (options by seat number), every
    /// living seat voting.
    fn open_vote(&mut self, day: u32, runoff: bool, candidates: Vec<String>, now_ms: i64) {
        let options = candidates.iter().map(|s| (self.number(s).unwrap_or(0).to_string(), self.label(s))).collect();
        self.ballot = Some(Ballot::open(options, self.living()));
        self.phase = Phase::Vote { day, runoff };
        let tag = format!("vote:{day}:{}", if runoff { "runoff" } else { "main" });
        self.deadline = Some(Deadline::after(now_ms, self.rules.vote_seconds, tag));
    }

    pub(super) fn vote_event(&mut self, day: u32, runoff: bool, event: &Event) -> Result<(), Rejection> {
        match event {
            Event::Vote { voter, option, now_ms } => {
                self.check_alive(voter)?;
                if self.seat_by_number(option) == Some(voter.as_str()) {
                    return Err(Rejection::Yourself);
                }
                let ballot = self.ballot.as_ref().ok_or(Rejection::NotNow)?;
                let cast = ballot.cast(voter, option).map_err(|e| match e {
                    BallotError::NotAVoter => Rejection::Dead,
                    BallotError::UnknownOption(_) => Rejection::NotATarget,
                    BallotError::Closed => Rejection::NotNow,
                })?;
                let complete = cast.is_complete();
                self.ballot = Some(cast);
                if complete {
                    self.close_vote(day, runoff, *now_ms);
                }
                Ok(())
            }
            Event::Timer { now_ms, .. } => {
                self.close_vote(day, runoff, *now_ms);
                Ok(())
            }
            _ => Err(Rejection::NotNow),
        }
    }

    /// The vote closes: the most-voted seat is exiled; a tie goes to a
    /// run-off between the tied seats; a tied run-off, or no votes at
    /// all, exiles no one and the night falls.
    fn close_vote(&mut self, day: u32, runoff: bool, now_ms: i64) {
        let Some(ballot) = self.ballot.take() else { return };
        let (_, tally) = ballot.close();
        let seat_of = |option: &str| self.seat_by_number(option).map(str::to_string).unwrap_or_default();
        let votes: BTreeMap<String, String> = tally.votes.iter().map(|(v, o)| (v.clone(), seat_of(o))).collect();
        let top = tally.counts.first().map_or(0, |c| c.1);
        let tied: Vec<String> =
            tally.counts.iter().filter(|c| top > 0 && c.1 == top).map(|(o, _)| seat_of(o)).collect();
        let out = tally.winner().map(seat_of);
        self.votes.push(VoteRecord { day, runoff, votes, abstained: tally.abstained.clone(), out: out.clone() });
        match out {
            Some(seat) => self.exile(day, &seat, now_ms),
            None if !runoff && tied.len() > 1 => self.open_vote(day, true, tied, now_ms),
            None => self.settle_or_go_on(day, false, now_ms),
        }
    }

    fn exile(&mut self, day: u32, seat: &str, now_ms: i64) {
        self.out.insert(seat.to_string(), Out::Exiled { day });
        if self.rules.reveal {
            self.revealed.insert(seat.to_string());
        }
        let hunter = (self.role(seat) == Some(Role::Hunter)).then(|| seat.to_string());
        self.after_deaths(day, hunter, false, now_ms);
    }

    pub(super) fn hunter_event(&mut self, day: u32, hunter: &str, dawn: bool, event: &Event) -> Result<(), Rejection> {
        let (target, now_ms) = match event {
            Event::Shoot { seat, target, now_ms } => {
                if seat != hunter {
                    return Err(Rejection::NotYourRole);
                }
                if !self.is_alive(target) {
                    return Err(Rejection::NotATarget);
                }
                (Some(target.clone()), *now_ms)
            }
            Event::Pass { seat, now_ms } if seat == hunter => (None, *now_ms),
            Event::Pass { .. } => return Err(Rejection::NotYourRole),
            Event::Timer { now_ms, .. } => (None, *now_ms),
            _ => return Err(Rejection::NotNow),
        };
        if let Some(target) = &target {
            self.out.insert(target.clone(), Out::Shot { day });
        }
        self.shots.push(Shot { day, hunter: hunter.to_string(), target });
        self.settle_or_go_on(day, dawn, now_ms);
        Ok(())
    }

    /// A seat leaves a running game: out, and play goes on if it can.
    pub(super) fn leave_running(&mut self, seat: &str, now_ms: i64) -> Result<(), Rejection> {
        self.check_alive(seat)?;
        self.out.insert(seat.to_string(), Out::Left { day: self.day() });
        self.passed.remove(seat);
        if let Some(outcome) = self.settled() {
            self.finish(outcome, now_ms);
            return Ok(());
        }
        match self.phase.clone() {
            Phase::Night { .. } => {
                let complete = self.drop_from_ballot(seat, seat);
                if complete && self.tonight().is_some_and(|n| !n.wolves_done) {
                    self.close_wolves();
                }
                if self.night_tasks().is_empty() {
                    self.dawn(now_ms);
                }
            }
            Phase::Debate { day } => self.end_debate_if_done(day, now_ms),
            Phase::Vote { day, runoff } => {
                let number = self.number(seat).unwrap_or(0).to_string();
                let complete = self.drop_from_ballot(seat, &number);
                if complete || self.ballot.as_ref().is_some_and(|b| b.options.len() < 2) {
                    self.close_vote(day, runoff, now_ms);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The open ballot without `seat` as a voter or `option` as a choice
    /// (votes for it are dropped); whether it is now complete.
    fn drop_from_ballot(&mut self, seat: &str, option: &str) -> bool {
        let Some(ballot) = self.ballot.take() else { return false };
        let options: Vec<(String, String)> = ballot.options.iter().filter(|(id, _)| id != option).cloned().collect();
        let voters: Vec<String> = ballot.voters.iter().filter(|v| *v != seat).cloned().collect();
        let (_, tally) = ballot.close();
        let mut rebuilt = Ballot::open(options, voters);
        for (voter, choice) in tally.votes.iter().filter(|(v, o)| *v != seat && *o != option) {
            rebuilt = rebuilt.cast(voter, choice).unwrap_or(rebuilt);
        }
        let complete = rebuilt.is_complete();
        self.ballot = Some(rebuilt);
        complete
    }
}
