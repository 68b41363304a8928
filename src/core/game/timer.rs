//! Durable deadlines. A phase may carry one; it is part of the game's
//! snapshot and of the session row, so it survives a restart. When it
//! passes, the actor sends the session a `TurnInput::Timer(tag)` with the
//! event id `event_id()`, so the timer is handled like any other input:
//! in order, committed once, answered from the record if it fires twice.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deadline {
    /// When it passes, in the engine clock's milliseconds.
    pub at_ms: i64,
    /// What it ends (`vote:1`, `describe:2`): the game checks the tag, so
    /// a timer for a phase that already ended is a no-op.
    pub tag: String,
}

impl Deadline {
    pub fn after(now_ms: i64, seconds: u32, tag: impl Into<String>) -> Deadline {
        Deadline { at_ms: now_ms + i64::from(seconds) * 1000, tag: tag.into() }
    }

    /// The event id its timer input carries: the same deadline fires at
    /// most once, also across restarts.
    pub fn event_id(&self) -> String {
        format!("timer:{}:{}", self.tag, self.at_ms)
    }

    /// A reminder `lead_seconds` before this deadline (`Table::reminder`).
    pub fn reminder(&self, lead_seconds: u32) -> Deadline {
        Deadline { at_ms: self.at_ms - i64::from(lead_seconds) * 1000, tag: format!("{REMIND}{}", self.tag) }
    }

    /// The deadline's tag a reminder's tag names; `None` for a tag that
    /// is not a reminder's.
    pub fn reminded(tag: &str) -> Option<&str> {
        tag.strip_prefix(REMIND)
    }

    /// The reminder `REMIND_BEFORE_SECONDS` before this deadline, when its
    /// phase lasts `span` seconds, long enough for one (twice the lead at
    /// least).
    pub fn reminder_within(&self, span: u32) -> Option<Deadline> {
        (span >= 2 * REMIND_BEFORE_SECONDS).then(|| self.reminder(REMIND_BEFORE_SECONDS))
    }

    /// Whether a timer's tag is this deadline's or its reminder's.
    pub fn fires(&self, tag: &str) -> bool {
        self.tag == Deadline::reminded(tag).unwrap_or(tag)
    }
}

/// How long before a deadline a table's reminder comes.
pub const REMIND_BEFORE_SECONDS: u32 = 20;

/// What a timer input is to a table whose phase has `deadline` and
/// `reminder`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fired {
    /// For a phase that already ended: answered with nothing, not stored.
    Stale,
    /// The phase's reminder, `left` whole seconds before its deadline.
    Reminder { left: i64 },
    /// The phase's deadline: the game plays it as an event.
    Deadline,
}

impl Fired {
    pub fn of(deadline: Option<&Deadline>, reminder: Option<Deadline>, tag: &str, now_ms: i64) -> Fired {
        if !deadline.is_some_and(|d| d.fires(tag)) {
            return Fired::Stale;
        }
        match reminder.filter(|r| r.tag == tag) {
            Some(r) => {
                Fired::Reminder { left: (r.at_ms + i64::from(REMIND_BEFORE_SECONDS) * 1000 - now_ms).div_euclid(1000) }
            }
            None => Fired::Deadline,
        }
    }
}

/// A reminder's tag: its deadline's, marked.
const REMIND: &str = "remind:";
