//! Secret simultaneous choices: each seated voter picks one option; nobody
//! sees another's choice until everyone has chosen or the deadline passed,
//! and then all are revealed at once. A changed vote before the reveal
//! replaces the earlier one; a vote from someone without a seat in the
//! ballot is refused. Pure, like the games that hold one.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ballot {
    /// Option id → label, in the order shown.
    pub options: Vec<(String, String)>,
    /// Who may vote, by player id.
    pub voters: Vec<String>,
    /// Voter → option id. Secret until `closed`.
    votes: BTreeMap<String, String>,
    pub closed: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BallotError {
    #[error("only seated players vote")]
    NotAVoter,
    #[error("no option {0:?}")]
    UnknownOption(String),
    #[error("the ballot is closed")]
    Closed,
}

/// The result, once revealed: every vote, and the counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    /// Voter → option id, for everyone who voted.
    pub votes: BTreeMap<String, String>,
    /// (option id, votes), most votes first, then in the options' order.
    pub counts: Vec<(String, usize)>,
    /// Voters who did not vote before the ballot closed.
    pub abstained: Vec<String>,
}

impl Tally {
    /// The single option with the most votes; `None` on a tie or no votes.
    pub fn winner(&self) -> Option<&str> {
        match self.counts.as_slice() {
            [(id, n), rest @ ..] if *n > 0 && rest.first().is_none_or(|(_, m)| m < n) => Some(id),
            _ => None,
        }
    }
}

impl Ballot {
    pub fn open(options: Vec<(String, String)>, voters: Vec<String>) -> Ballot {
        Ballot { options, voters, votes: BTreeMap::new(), closed: false }
    }

    /// Records (or replaces) a voter's choice.
    pub fn cast(&self, voter: &str, option: &str) -> Result<Ballot, BallotError> {
        if self.closed {
            return Err(BallotError::Closed);
        }
        if !self.voters.iter().any(|v| v == voter) {
            return Err(BallotError::NotAVoter);
        }
        if !self.options.iter().any(|(id, _)| id == option) {
            return Err(BallotError::UnknownOption(option.to_string()));
        }
        let mut next = self.clone();
        next.votes.insert(voter.to_string(), option.to_string());
        Ok(next)
    }

    pub fn has_voted(&self, voter: &str) -> bool {
        self.votes.contains_key(voter)
    }

    /// How many have voted; the choices stay secret.
    pub fn cast_count(&self) -> usize {
        self.votes.len()
    }

    /// Everyone who may vote has voted.
    pub fn is_complete(&self) -> bool {
        self.voters.iter().all(|v| self.votes.contains_key(v))
    }

    /// The label of an option id.
    pub fn label(&self, option: &str) -> Option<&str> {
        self.options.iter().find(|(id, _)| id == option).map(|(_, label)| label.as_str())
    }

    /// Closes the ballot and reveals every vote at once.
    pub fn close(&self) -> (Ballot, Tally) {
        let mut next = self.clone();
        next.closed = true;
        let mut counts: Vec<(String, usize)> =
            self.options.iter().map(|(id, _)| (id.clone(), self.votes.values().filter(|v| *v == id).count())).collect();
        // Stable: equal counts keep the options' order.
        counts.sort_by_key(|c| std::cmp::Reverse(c.1));
        let abstained = self.voters.iter().filter(|v| !self.votes.contains_key(*v)).cloned().collect();
        (next, Tally { votes: self.votes.clone(), counts, abstained })
    }
}
