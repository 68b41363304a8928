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
    /// The application's id (developer portal → General Information →
    /// Application ID), for `echoes discord invite`; 0: not set. The bot
    /// itself does not need it.
    pub application_id: u64,
    /// The gateway shards this process runs, `"FIRST-LAST/TOTAL"` (e.g.
    /// `"0-3/8"`: shards 0 to 3 of 8); unset runs the one shard of one.
    /// Several processes split the shards between them; every process
    /// shares one PostgreSQL database.
    pub shards: Option<ShardRange>,
}

/// Shards `first..=last` of `total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct ShardRange {
    pub first: u32,
    pub last: u32,
    pub total: u32,
}

impl std::str::FromStr for ShardRange {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || format!("shards {text:?}: write FIRST-LAST/TOTAL, e.g. \"0-3/8\"");
        let (range, total) = text.trim().split_once('/').ok_or_else(bad)?;
        let (first, last) = range.split_once('-').unwrap_or((range, range));
        let number = |s: &str| s.trim().parse::<u32>().map_err(|_| bad());
        let shards = ShardRange { first: number(first)?, last: number(last)?, total: number(total)? };
        if shards.first > shards.last || shards.last >= shards.total {
            return Err(format!("shards {text:?}: need FIRST <= LAST < TOTAL"));
        }
        Ok(shards)
    }
}

impl TryFrom<String> for ShardRange {
    type Error = String;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

impl std::fmt::Display for ShardRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}/{}", self.first, self.last, self.total)
    }
}

impl Default for DiscordSettings {
    fn default() -> Self {
        DiscordSettings {
            turns_per_window: 6,
            window_secs: 30,
            message_content: true,
            dev_guild: 0,
            max_reply_messages: 3,
            application_id: 0,
            shards: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_range_reads_first_last_and_total() {
        assert_eq!("0-3/8".parse(), Ok(ShardRange { first: 0, last: 3, total: 8 }));
        assert_eq!("5/8".parse(), Ok(ShardRange { first: 5, last: 5, total: 8 }));
        for bad in ["3-1/8", "0-8/8", "0-3", "a-b/c", ""] {
            assert!(bad.parse::<ShardRange>().is_err(), "{bad}");
        }
    }
}
