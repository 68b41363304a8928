//! Who is the Undercover's own verbs: the declaration the catalogue reads
//! (`commands/<game>.toml`) and the closed enum the table plays.

/// The `undercover` group, as the catalogue reads it.
pub const DECLARATION: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/commands/undercover.toml"));

crate::game_verbs! {
    /// An Undercover verb beside the engine's moves.
    pub enum UndercoverVerb {
        /// The blank seat's last guess at the civilians' word, or the
        /// seats a player thinks are AI ("guess the AI").
        Guess(word) = "guess",
        /// An AI seat's vote with its reasons (declared for no front end, so
        /// none offers it): `vote`, the option, and its reasons as JSON,
        /// which only its own prompts read back before the end.
        AgentVote(kind, option, reasons) = "agent-vote",
    }
}
