//! The Lore RPG's own verbs: the declaration the catalogue reads
//! (`commands/<game>.toml`) and the closed enum the table plays.

/// The `rpg` group, as the catalogue reads it.
pub const DECLARATION: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/commands/rpg.toml"));

crate::game_verbs! {
    /// A Lore RPG verb beside the engine's moves (`act` is free text).
    pub enum LoreVerb {
        /// Words to someone in the world; without a name, an action.
        Say(text, npc) = "say",
        /// Turns won and lost.
        Scores = "scores",
        /// The story so far.
        Recap = "recap" | "history",
    }
}
