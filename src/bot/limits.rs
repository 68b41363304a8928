//! Per-user turn rate limit: at most `max` turns in any `window_ms`. Pure
//! bookkeeping on timestamps the caller passes, so tests control time.

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, PoisonError};

/// Past this many tracked users, idle ones are dropped.
const PRUNE_AT: usize = 10_000;

pub struct RateLimiter {
    max: u32,
    window_ms: i64,
    seen: Mutex<HashMap<String, VecDeque<i64>>>,
}

impl RateLimiter {
    /// `max == 0` turns the limit off.
    pub fn new(max: u32, window_ms: u64) -> Self {
        RateLimiter { max, window_ms: window_ms as i64, seen: Mutex::default() }
    }

    /// Counts a turn by `user` at `now_ms`, or returns how many seconds
    /// until they may take one again (the turn is then not counted).
    pub fn check(&self, user: &str, now_ms: i64) -> Result<(), u64> {
        if self.max == 0 {
            return Ok(());
        }
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        if seen.len() > PRUNE_AT {
            let horizon = now_ms - self.window_ms;
            seen.retain(|_, times| times.back().is_some_and(|t| *t > horizon));
        }
        let times = seen.entry(user.to_string()).or_default();
        while times.front().is_some_and(|t| *t <= now_ms - self.window_ms) {
            times.pop_front();
        }
        if times.len() >= self.max as usize {
            let oldest = times.front().copied().unwrap_or(now_ms);
            let wait_ms = (oldest + self.window_ms - now_ms).max(1);
            return Err((wait_ms as u64).div_ceil(1000));
        }
        times.push_back(now_ms);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allows_max_per_window_then_says_how_long_to_wait() {
        let limiter = RateLimiter::new(2, 10_000);
        assert_eq!(limiter.check("a", 0), Ok(()));
        assert_eq!(limiter.check("a", 1_000), Ok(()));
        assert_eq!(limiter.check("a", 2_000), Err(8));
        assert_eq!(limiter.check("b", 2_000), Ok(()), "users are limited separately");
        assert_eq!(limiter.check("a", 10_001), Ok(()), "the first turn left the window");
        assert_eq!(limiter.check("a", 10_500), Err(1));
    }

    #[test]
    fn zero_means_unlimited() {
        let limiter = RateLimiter::new(0, 1_000);
        assert!((0..100).all(|i| limiter.check("a", i).is_ok()));
    }
}
