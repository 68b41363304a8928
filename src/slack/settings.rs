//! The `[slack]` settings section. Tokens are not here: they come from the
//! environment only (`SLACK_BOT_TOKEN`, `SLACK_APP_TOKEN`,
//! `SLACK_SIGNING_SECRET`; see `crate::serve`).

use serde::Deserialize;

/// How the bot hears from Slack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Socket Mode: an outgoing WebSocket, no public URL (app-level token).
    #[default]
    Socket,
    /// Events API: Slack posts signed requests to `bind` (signing secret).
    Events,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SlackSettings {
    pub mode: Mode,
    /// Where the Events API endpoint listens (`POST /slack/events`,
    /// `/slack/commands`, `/slack/interactions`).
    pub bind: String,
    /// User ids (`U…`) allowed to run `/soup admin …` in every workspace.
    pub admins: Vec<String>,
    /// A user group (`S…`) whose members may run `/soup admin …`; a
    /// workspace's `config mod-role` adds its own group.
    pub admin_group: Option<String>,
    /// Turns (questions, guesses, thread replies) one user may take per window.
    pub turns_per_window: u32,
    pub window_secs: u64,
    /// A reply needing more messages than this is cut, with a note.
    pub max_reply_messages: usize,
}

impl Default for SlackSettings {
    fn default() -> Self {
        SlackSettings {
            mode: Mode::Socket,
            bind: "0.0.0.0:3000".into(),
            admins: Vec::new(),
            admin_group: None,
            turns_per_window: 6,
            window_secs: 30,
            max_reply_messages: 3,
        }
    }
}
