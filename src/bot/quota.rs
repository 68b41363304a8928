//! Platform rate limits as the local fakes enforce them (`discord::fake`,
//! `slack::fake`): fixed windows per bucket, the numbers a response
//! announces, and what a test reads afterwards: how many requests were
//! refused (the 429s) and how many came after the fake had told the
//! client to wait and before that wait ended (violations).
//!
//! A bucket's wait is announced by a 429 (any platform) or, where the
//! platform says how much is left (Discord's `X-RateLimit-Remaining`), by
//! the response that took its last request. A request arriving within
//! `IN_FLIGHT` of an announcement crossed it on the wire: it is refused
//! but not counted against the client. Pure bookkeeping on the instants
//! the caller passes; it sends nothing.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long after an announcement a request may still have been sent
/// before the client read it.
pub const IN_FLIGHT: Duration = Duration::from_millis(50);

/// At most `requests` per `window`; the window starts with its first
/// request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    pub requests: u32,
    pub window: Duration,
}

impl Limit {
    pub fn new(requests: u32, window: Duration) -> Limit {
        Limit { requests: requests.max(1), window }
    }
}

/// One bucket a request counts against.
#[derive(Debug, Clone)]
pub struct Bucket {
    pub key: String,
    pub limit: Limit,
    /// A limit over every request of the client (Discord's global one).
    pub global: bool,
    /// Whether responses say how much is left, so taking the last request
    /// announces the wait.
    pub announced: bool,
}

/// A bucket's numbers after an admitted request, for the headers.
#[derive(Debug, Clone, PartialEq)]
pub struct Left {
    pub key: String,
    pub limit: u32,
    pub remaining: u32,
    pub reset_after: Duration,
}

/// The answer to one request.
#[derive(Debug, Clone, PartialEq)]
pub enum Admission {
    /// Served; the numbers of each bucket it counted against.
    Admitted(Vec<Left>),
    /// Refused (429) by `bucket`, to be retried after `retry_after`.
    Refused { bucket: Left, retry_after: Duration, global: bool },
}

/// What the fake did about rate limits so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Requests answered 429.
    pub refused: u64,
    /// Requests that took a bucket's last slot (the limit was reached).
    pub exhausted: u64,
    /// Requests that came after a wait was announced, before it ended.
    pub violations: u64,
}

#[derive(Debug)]
struct Window {
    started: Instant,
    used: u32,
    /// When the client was told this window is spent.
    told: Option<Instant>,
}

impl Window {
    fn ends(&self, limit: Limit) -> Instant {
        self.started + limit.window
    }
}

/// The fake's windows and its tally.
#[derive(Debug, Default)]
pub struct Quotas {
    state: Mutex<(HashMap<String, Window>, Tally)>,
}

impl Quotas {
    /// Counts a request arriving at `now` against `buckets` (global ones
    /// first), or refuses it without counting it.
    pub fn admit(&self, buckets: &[Bucket], now: Instant) -> Admission {
        let mut guard = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let (windows, tally) = &mut *guard;
        let mut ordered: Vec<&Bucket> = buckets.iter().filter(|b| b.global).collect();
        ordered.extend(buckets.iter().filter(|b| !b.global));
        for b in &ordered {
            let w = windows.entry(b.key.clone()).or_insert(Window { started: now, used: 0, told: None });
            if now >= w.ends(b.limit) {
                *w = Window { started: now, used: 0, told: None };
            }
            if w.used < b.limit.requests {
                continue;
            }
            tally.refused += 1;
            if w.told.is_some_and(|t| now > t + IN_FLIGHT) {
                tally.violations += 1;
            }
            w.told = w.told.or(Some(now));
            let retry_after = w.ends(b.limit).saturating_duration_since(now);
            let bucket = Left { key: b.key.clone(), limit: b.limit.requests, remaining: 0, reset_after: retry_after };
            return Admission::Refused { bucket, retry_after, global: b.global };
        }
        let mut left = Vec::new();
        for b in ordered {
            let w = windows.get_mut(&b.key).expect("opened above");
            w.used += 1;
            if w.used == b.limit.requests {
                tally.exhausted += 1;
                if b.announced {
                    w.told = Some(now);
                }
            }
            let reset_after = w.ends(b.limit).saturating_duration_since(now);
            left.push(Left {
                key: b.key.clone(),
                limit: b.limit.requests,
                remaining: b.limit.requests - w.used,
                reset_after,
            });
        }
        Admission::Admitted(left)
    }

    pub fn tally(&self) -> Tally {
        self.state.lock().unwrap_or_else(PoisonError::into_inner).1
    }
}

#[cfg(test)]
mod tests;
