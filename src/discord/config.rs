//! The `[discord]` settings section. The bot token is not here: it is read
//! from the `DISCORD_TOKEN` environment variable only.

use serde::Deserialize;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DiscordSettings {
    /// Turns (questions, guesses, free messages) one user may take per window.
    pub turns_per_window: u32,
    pub window_secs: u64,
    /// Read ordinary messages in game threads. Needs the privileged
    /// MESSAGE_CONTENT intent; `/soup ask` and `/soup guess` work without it.
    pub message_content: bool,
    /// Register the slash commands in this one server only (instant; for
    /// development). 0 registers them globally.
    pub dev_guild: u64,
    /// A reply needing more messages than this is attached as a file.
    pub max_reply_messages: usize,
}

impl Default for DiscordSettings {
    fn default() -> Self {
        DiscordSettings {
            turns_per_window: 6,
            window_secs: 30,
            message_content: true,
            dev_guild: 0,
            max_reply_messages: 3,
        }
    }
}
