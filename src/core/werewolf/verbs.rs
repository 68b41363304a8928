//! Werewolf's own verbs: the declaration the catalogue reads
//! (`commands/<game>.toml`) and the closed enum the table plays.

/// The `werewolf` group, as the catalogue reads it.
pub const DECLARATION: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/commands/werewolf.toml"));

crate::game_verbs! {
    /// A Werewolf verb beside the engine's moves.
    pub enum WerewolfVerb {
        Speak(text) = "speak" | "say",
        Pass = "pass",
        Kill(seat) = "kill",
        Check(seat) = "check",
        Protect(seat) = "protect",
        Save = "save",
        Poison(seat) = "poison",
        Shoot(seat) = "shoot",
        Pack(text) = "pack",
        Guess(seats) = "guess",
        /// An AI seat's move (declared for no front end, so none offers it):
        /// the verb it makes, its argument, a line to the pack (werewolves)
        /// and its private notes, which only its own prompts read back.
        Agent(verb, arg, note, memo) = "agent",
    }
}
