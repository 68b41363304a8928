//! The Arena's own verbs: the declaration the catalogue reads
//! (`commands/<game>.toml`) and the closed enum the table plays.

/// The `arena` group, as the catalogue reads it.
pub const DECLARATION: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/commands/arena.toml"));

crate::game_verbs! {
    /// An Arena verb beside the engine's moves (host or moderator).
    pub enum ArenaVerb {
        Pause = "pause",
        Resume = "resume",
        Topic(text) = "topic",
    }
}
