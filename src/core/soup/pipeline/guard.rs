//! The secrecy gate around every turn: while a game is on, the reply is
//! checked against the answer's distinctive spans and the game's canary
//! (`core::secrecy`) before anyone sees it. A hit replaces the model's part
//! of the reply with a fixed line and marks the outcome as a security event.
//!
//! Text the players already have does not count as a leak: the surface,
//! the hints shown so far, and their own words (this turn's input and the
//! public history).

use super::*;
use crate::core::knowledge::Visibility;
use crate::core::secrecy::{Canary, Check, Gate};

/// Checks `outcome`'s reply; replies that end the game (the reveal) pass.
pub(super) fn guard(session: &SessionView<'_>, input: &TurnInput, mut outcome: TurnOutcome) -> TurnOutcome {
    let after = outcome.next.as_ref().unwrap_or(session.game);
    if after.phase.is_over() {
        return outcome;
    }
    let gate = gate_for(session, after, input);
    let Check::Blocked(blocked) = gate.check(&outcome.reply.text) else { return outcome };
    let lang = session.puzzle.language;
    let withheld = say(lang, &Msg::Withheld);
    outcome.reply.text = match outcome.reply.verdict {
        // The verdict label is fixed text: the answer stays playable.
        Some(verdict) => format!("{}: {withheld}", verdict_label(lang, verdict)),
        None => withheld,
    };
    outcome.withheld = Some(blocked);
    outcome
}

/// One game's gate, kept by its session actor across turns. Cutting the
/// answer into spans is the costly part, so it happens once per game; each
/// text that becomes public afterwards (a turn in the history, a hint shown)
/// is forgotten once, when the actor catches up before the next turn.
///
/// A gate that has not caught up is still correct, only slower: `gate_for`
/// forgets whatever it has not seen yet, turn by turn.
#[derive(Clone)]
pub struct GameGate {
    gate: Gate,
    /// Turns of the history already forgotten (a prefix).
    history_seen: usize,
    /// Hints already forgotten (the first `hints_seen`).
    hints_seen: usize,
}

impl GameGate {
    /// The gate for a game of `puzzle` whose Judge prompt carries `canary`.
    pub fn new(puzzle: &Puzzle, canary: &str) -> GameGate {
        let mut secrets: Vec<&str> = puzzle.facts.iter().map(|f| f.text.as_str()).collect();
        secrets.extend(puzzle.lore.iter().filter(|l| l.visibility == Visibility::Judge).map(|l| l.text.as_str()));
        let gate = Gate::new(&puzzle.surface, &puzzle.bottom, &secrets, Canary::parse(canary));
        GameGate { gate, history_seen: 0, hints_seen: 0 }
    }

    /// Forgets the turns and hints that became public since the last call.
    pub fn catch_up(&mut self, puzzle: &Puzzle, game: &SoupGame, history: &[PublicTurn]) {
        for turn in history.iter().skip(self.history_seen) {
            self.gate.allow_public(&turn.text);
        }
        self.history_seen = self.history_seen.max(history.len());
        let shown = game.hints_used as usize;
        for hint in puzzle.hints.iter().take(shown).skip(self.hints_seen) {
            self.gate.allow_public(hint);
        }
        self.hints_seen = self.hints_seen.max(shown);
    }
}

/// Counts only: the gate holds the answer's spans and must never be logged.
impl std::fmt::Debug for GameGate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameGate")
            .field("spans", &self.gate.span_count())
            .field("history_seen", &self.history_seen)
            .field("hints_seen", &self.hints_seen)
            .finish()
    }
}

/// The gate for this game as it stands after the turn: the session's gate,
/// plus what became public since it last caught up and this turn's input.
pub(super) fn gate_for(session: &SessionView<'_>, after: &SoupGame, input: &TurnInput) -> Gate {
    let mut kept = session.gate.clone();
    kept.catch_up(session.puzzle, after, session.history);
    let mut gate = kept.gate;
    let said = matches!(input, TurnInput::Say(_))
        || matches!(SoupVerb::of(input), Some(SoupVerb::Ask(_) | SoupVerb::Guess(_)));
    if said {
        gate.allow_public(input.text());
    }
    gate
}
