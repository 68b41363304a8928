//! What a turn sends: the reply to whoever moved, and any further
//! messages, each with an audience. Every message is an outbox row
//! committed with its turn and marked sent after delivery; a front end
//! delivers a `Seat` message only to that seat (Discord: an ephemeral
//! follow-up or a DM, Slack: `chat.postEphemeral`, the terminal: only when
//! that seat is the human at the keyboard), never in public.

use serde::{Deserialize, Serialize};

use super::Verdict;

/// What kind of reply this is, so front ends can style it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplyKind {
    Intro,
    Verdict,
    Guess,
    Solved,
    Hint,
    Status,
    History,
    Ended,
    Rejected,
    Chatter,
    Unclear,
    Unavailable,
    /// A lobby change (someone joined, left, an AI took a seat).
    Lobby,
    /// A private message: one seat's secret or its own receipt.
    Private,
    /// A ballot opened, or its result.
    Ballot,
    /// A public announcement from the game (a phase change, a deadline).
    Notice,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reply {
    pub kind: ReplyKind,
    pub text: String,
    pub verdict: Option<Verdict>,
}

impl Reply {
    pub fn new(kind: ReplyKind, text: impl Into<String>) -> Reply {
        Reply { kind, text: text.into(), verdict: None }
    }

    /// A table's status: the lobby's while it is open.
    pub fn status(in_lobby: bool, text: impl Into<String>) -> Reply {
        Reply::new(if in_lobby { ReplyKind::Lobby } else { ReplyKind::Status }, text)
    }
}

/// Who may read a message.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "to", content = "id", rename_all = "snake_case")]
pub enum Audience {
    Everyone,
    /// One player, by their stable id (`discord:123`); nobody else.
    Seat(String),
    /// The moderators of the scope the game runs in.
    Moderators,
}

impl Audience {
    /// The stored form: `everyone`, `moderators` or `seat`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Audience::Everyone => "everyone",
            Audience::Seat(_) => "seat",
            Audience::Moderators => "moderators",
        }
    }

    /// The seat's player id for `Seat`.
    pub fn recipient(&self) -> Option<&str> {
        match self {
            Audience::Seat(id) => Some(id),
            _ => None,
        }
    }

    /// Reads the stored form back; `None` for a form this build does not know.
    pub fn from_parts(audience: &str, recipient: Option<String>) -> Option<Audience> {
        match (audience, recipient) {
            ("everyone", _) => Some(Audience::Everyone),
            ("moderators", _) => Some(Audience::Moderators),
            ("seat", Some(id)) => Some(Audience::Seat(id)),
            _ => None,
        }
    }

    pub fn is_private(&self) -> bool {
        !matches!(self, Audience::Everyone)
    }
}

/// One outbound message beyond the turn's reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub audience: Audience,
    pub reply: Reply,
    /// The outbox row, once committed; the front end marks it sent.
    pub outbox_id: Option<i64>,
}

impl Message {
    pub fn to(audience: Audience, kind: ReplyKind, text: impl Into<String>) -> Message {
        Message { audience, reply: Reply::new(kind, text), outbox_id: None }
    }
}
