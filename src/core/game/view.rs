//! What one seat may know, for an agent's prompt: the public record of the
//! game and that seat's own private facts (its word, its role). The type
//! has no field for anything else, so a prompt built from it cannot carry
//! another seat's secret or the game's hidden answer; `JudgeView` (the
//! Soup Judge) is the only view that holds an answer, and it is not this.

use crate::core::prompts::PublicTurn;
use crate::core::vocab::Player;

#[derive(Debug, Clone)]
pub struct SeatView<'a> {
    /// Whose view this is.
    pub seat: &'a Player,
    /// Everything said in public, in order.
    pub public: &'a [PublicTurn],
    /// What only this seat was told.
    pub own: Vec<&'a str>,
}

impl<'a> SeatView<'a> {
    pub fn new(seat: &'a Player, public: &'a [PublicTurn], own: Vec<&'a str>) -> SeatView<'a> {
        SeatView { seat, public, own }
    }

    /// The public record as prompt lines, the last `n` turns.
    pub fn public_lines(&self, n: usize) -> String {
        let start = self.public.len().saturating_sub(n);
        self.public[start..].iter().map(|t| format!("{}: {} [{}]\n", t.player, t.text, t.outcome)).collect()
    }
}
