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

/// The gate for this game as it stands after the turn.
pub(super) fn gate_for(session: &SessionView<'_>, after: &SoupGame, input: &TurnInput) -> Gate {
    let puzzle = session.puzzle;
    let mut secrets: Vec<&str> = puzzle.facts.iter().map(|f| f.text.as_str()).collect();
    secrets.extend(puzzle.lore.iter().filter(|l| l.visibility == Visibility::Judge).map(|l| l.text.as_str()));
    let mut gate = Gate::new(&puzzle.surface, &puzzle.bottom, &secrets, Canary::parse(session.canary));
    for hint in puzzle.hints.iter().take(after.hints_used as usize) {
        gate.allow_public(hint);
    }
    for turn in session.history {
        gate.allow_public(&turn.text);
    }
    if let TurnInput::Say(text) | TurnInput::Ask(text) | TurnInput::Guess(text) = input {
        gate.allow_public(text);
    }
    gate
}
