//! Turtle Soup's own verbs: the declaration the catalogue reads
//! (`commands/<game>.toml`) and the closed enum the pipeline plays.

/// The `soup` and `soup-admin` groups, as the catalogue reads them.
pub const DECLARATION: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/commands/soup.toml"));

crate::game_verbs! {
    /// A Turtle Soup verb (the engine's moves, `status` and `end`, are
    /// not here).
    pub enum SoupVerb {
        Ask(question) = "ask",
        Guess(story) = "guess",
        Hint = "hint",
        History = "history",
        GiveUp = "giveup",
    }
}
