//! A table's AI seats as the engine counts them: each move handed out
//! once (by its id, however often the engine asks), how many were made
//! and how many fell back to a safe move; and the pace of a seat that
//! must pass for a human.

use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::splitmix;

/// The AI moves one table handed out.
#[derive(Debug, Default)]
pub struct AgentLog {
    issued: Mutex<HashSet<String>>,
    made: AtomicUsize,
    fallbacks: AtomicUsize,
}

impl AgentLog {
    /// Whether the move `id` is new (and now issued): a seat owes each
    /// move once.
    pub fn issue(&self, id: &str) -> bool {
        self.issued.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(id.to_string())
    }

    /// A move was made.
    pub fn made(&self) {
        self.made.fetch_add(1, Ordering::Relaxed);
    }

    /// A move broke a rule (or its model failed) and fell back to a safe one.
    pub fn fell_back(&self) {
        self.fallbacks.fetch_add(1, Ordering::Relaxed);
    }

    /// (moves made, of which fell back to a safe move).
    pub fn counts(&self) -> (usize, usize) {
        (self.made.load(Ordering::Relaxed), self.fallbacks.load(Ordering::Relaxed))
    }
}

/// How long an AI seat that passes for a human takes over a move that
/// types `typed` characters (an instant answer would give it away): 3 s
/// to read, about a second per five characters, up to 20 s, varied by
/// the move's id and the game's seed.
pub fn human_pace(seed: u64, move_id: &str, typed: usize) -> i64 {
    let typed = typed.max(1) as i64;
    let jitter = move_id.bytes().fold(seed, |h, b| splitmix(h ^ u64::from(b))) % 4_000;
    (3_000 + typed * 200 + jitter as i64).min(20_000)
}
