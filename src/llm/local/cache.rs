//! The prefix cache: model states kept across generations so a turn
//! processes only the tokens its prompt does not share with an earlier one.
//!
//! Keyed by tokens, not by session: a session's next prompt starts with its
//! last one (the static prefix: rules, the puzzle or the world's frozen
//! layer; then the history, where it only grew), and sessions that share a
//! static prefix share it here too. Two layers:
//! - the **live** state: the tokens in the context now. The next prompt
//!   keeps their longest common prefix and processes the rest.
//! - **saved** states: when a prompt would throw away much of the live
//!   state (another session's turn), it is saved first; a later prompt that
//!   shares more with a saved state than with the live one restores it.
//!   Saved states are kept least recently used first within a byte budget.
//!
//! A miss is only slower: a reused state holds exactly what processing
//! those tokens again would give, bit for bit. llama.cpp's CPU kernels
//! take a batch's rows in small groups and its last, partial group by
//! another path whose sums round differently (and a token decoded alone,
//! as a reply is, by a third). So a state is reused only as far as it was
//! computed in whole blocks of `BLOCK` tokens, each batch starting on a
//! block: exactly as a run from nothing computes those positions. Measured
//! on SmolLM2 (Q4_1) and Gemma 3 (Q4_K_M): a prompt cut at any multiple of
//! 8 gives the same logits as the whole prompt; cut at 4, 7 or 201 it does
//! not.

use std::collections::VecDeque;

/// Dropping at least this many live tokens saves them first.
const SAVE_AT: usize = 32;

/// States are reused in whole blocks of this many tokens (see above).
pub const BLOCK: usize = 32;

/// One saved state, the tokens it holds, and how many of them are exact.
struct Saved<S> {
    tokens: Vec<u32>,
    exact: usize,
    state: S,
    bytes: usize,
}

/// Where a prompt starts, as `PrefixCache::plan` decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// Keep the live state's first `n` tokens.
    Live(usize),
    /// Save the live state first (if asked), then restore saved state `index`
    /// and keep its first `n` tokens.
    Restore { index: usize, keep: usize },
}

/// Saved states of type `S` (a model's serialised sequence) and the live
/// tokens, within `budget` bytes.
pub struct PrefixCache<S> {
    /// Tokens in the live state, in order from position 0.
    live: Vec<u32>,
    /// The live tokens computed exactly as a run from nothing would (the
    /// first `exact`, a multiple of `BLOCK`): the most a prompt may reuse.
    exact: usize,
    saved: VecDeque<Saved<S>>,
    budget: usize,
    used: usize,
}

impl<S> PrefixCache<S> {
    /// A cache of `budget` bytes; 0 turns reuse off entirely.
    pub fn new(budget: usize) -> Self {
        Self { live: Vec::new(), exact: 0, saved: VecDeque::new(), budget, used: 0 }
    }

    /// Tokens in the live state.
    pub fn live(&self) -> &[u32] {
        &self.live
    }

    /// `ids` were fed after the live tokens in one call, batches starting
    /// every `BATCH` tokens from there: their whole blocks are exact when
    /// everything before them was.
    pub fn fed(&mut self, ids: &[u32]) {
        if self.exact == self.live.len() {
            self.exact += whole_blocks(ids.len());
        }
        self.live.extend_from_slice(ids);
    }

    /// Keeps the first `keep` live tokens.
    pub fn truncate(&mut self, keep: usize) {
        self.live.truncate(keep);
        self.exact = self.exact.min(keep);
    }

    pub fn enabled(&self) -> bool {
        self.budget > 0
    }

    /// Changes the budget, evicting what no longer fits.
    pub fn set_budget(&mut self, budget: usize) {
        self.budget = budget;
        self.evict(0);
    }

    /// Bytes held by saved states.
    pub fn used(&self) -> usize {
        self.used
    }

    pub fn saved_count(&self) -> usize {
        self.saved.len()
    }

    /// Where `prompt` should start. At least its last token is always left
    /// to process (its logits are the reply's first).
    pub fn plan(&self, prompt: &[u32]) -> Start {
        let most = prompt.len().saturating_sub(1);
        if !self.enabled() {
            return Start::Live(0);
        }
        let reusable = |tokens: &[u32], exact: usize| whole_blocks(common(tokens, prompt).min(most).min(exact));
        let live = reusable(&self.live, self.exact);
        let best =
            self.saved.iter().enumerate().map(|(i, s)| (i, reusable(&s.tokens, s.exact))).max_by_key(|&(i, n)| (n, i));
        match best {
            Some((index, keep)) if keep > live => Start::Restore { index, keep },
            _ => Start::Live(live),
        }
    }

    /// Whether keeping `keep` live tokens throws away enough to save them.
    pub fn worth_saving(&self, keep: usize) -> bool {
        self.enabled() && self.live.len() >= keep + SAVE_AT
    }

    /// Keeps `state` (the live state, holding `self.live`) if it fits the
    /// budget. A saved state whose tokens start this one is dropped: this
    /// one serves every prompt it did.
    pub fn save(&mut self, state: S, state_bytes: usize) {
        let bytes = state_bytes + self.live.len() * 4;
        if bytes > self.budget || self.saved.iter().any(|s| s.tokens.starts_with(&self.live)) {
            return;
        }
        let live = &self.live;
        let mut freed = 0;
        self.saved.retain(|s| {
            let dominated = live.starts_with(&s.tokens);
            if dominated {
                freed += s.bytes;
            }
            !dominated
        });
        self.used -= freed;
        self.evict(bytes);
        self.used += bytes;
        self.saved.push_back(Saved { tokens: self.live.clone(), exact: self.exact, state, bytes });
    }

    /// Saved state `index`, now the most recently used; its tokens become
    /// the live ones.
    pub fn take(&mut self, index: usize) -> Option<&S> {
        let entry = self.saved.remove(index)?;
        self.live.clone_from(&entry.tokens);
        self.exact = entry.exact;
        self.saved.push_back(entry);
        self.saved.back().map(|s| &s.state)
    }

    /// Drops least recently used states until `more` bytes fit.
    fn evict(&mut self, more: usize) {
        while self.used + more > self.budget {
            let Some(old) = self.saved.pop_front() else { break };
            self.used -= old.bytes;
        }
    }
}

/// `n` rounded down to whole blocks.
fn whole_blocks(n: usize) -> usize {
    n / BLOCK * BLOCK
}

/// The length of the common prefix.
pub fn common(a: &[u32], b: &[u32]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(range: std::ops::Range<u32>) -> Vec<u32> {
        range.collect()
    }

    #[test]
    fn the_live_prefix_is_kept_in_whole_blocks_and_the_last_token_always_processed() {
        let mut cache: PrefixCache<()> = PrefixCache::new(1 << 20);
        cache.fed(&tokens(0..100));
        let mut grown = tokens(0..90);
        grown.extend([7, 7, 7]);
        assert_eq!(cache.plan(&grown), Start::Live(64));
        assert_eq!(cache.plan(&tokens(0..100)), Start::Live(96));
        assert_eq!(cache.plan(&tokens(5..50)), Start::Live(0));
        assert_eq!(PrefixCache::<()>::new(0).plan(&tokens(0..10)), Start::Live(0), "budget 0: no reuse");
    }

    #[test]
    fn only_blocks_computed_from_a_block_start_are_exact() {
        let mut cache: PrefixCache<()> = PrefixCache::new(1 << 20);
        cache.fed(&tokens(0..40));
        cache.fed(&[900]); // a reply's token, decoded alone
        cache.fed(&tokens(41..120));
        assert_eq!(cache.exact, 32, "nothing after the partial block is exact");
        let mut prompt = cache.live().to_vec();
        prompt.push(1);
        assert_eq!(cache.plan(&prompt), Start::Live(32));
        cache.truncate(32);
        cache.fed(&prompt[32..100]);
        assert_eq!((cache.live().len(), cache.exact), (100, 96), "fed again from a block start");
    }

    #[test]
    fn a_saved_state_that_shares_more_is_restored_and_the_budget_holds() {
        let mut cache: PrefixCache<&str> = PrefixCache::new(2_000);
        cache.fed(&tokens(0..200));
        assert!(cache.worth_saving(0) && !cache.worth_saving(190));
        cache.save("a", 100); // 100 + 800 bytes
        cache.truncate(0);
        cache.fed(&tokens(1000..1150));
        cache.save("b", 100); // 100 + 600 bytes
        assert_eq!(cache.used(), 1_600);

        let mut a_again = tokens(0..150);
        a_again.push(5);
        assert_eq!(cache.plan(&a_again), Start::Restore { index: 0, keep: 128 });
        assert_eq!(cache.take(0), Some(&"a"));
        assert_eq!((cache.live(), cache.exact), (&tokens(0..200)[..], 192));

        // A third state evicts the least recently used one ("b").
        cache.truncate(0);
        cache.fed(&tokens(5000..5100));
        cache.save("c", 100);
        assert_eq!(cache.saved_count(), 2);
        assert!(cache.used() <= 2_000);
        assert_eq!(cache.plan(&tokens(1000..1100)), Start::Live(0), "b was evicted");

        // Too big for the budget alone: not kept.
        cache.truncate(0);
        cache.fed(&tokens(0..1000));
        cache.save("huge", 10);
        assert_eq!(cache.saved_count(), 2);
    }

    #[test]
    fn a_longer_state_replaces_the_one_it_extends() {
        let mut cache: PrefixCache<u8> = PrefixCache::new(1 << 20);
        cache.fed(&tokens(0..100));
        cache.save(1, 10);
        cache.fed(&tokens(100..200));
        cache.save(2, 10);
        assert_eq!(cache.saved_count(), 1);
        assert_eq!(cache.used(), 10 + 800);
        cache.truncate(150);
        cache.save(3, 10);
        assert_eq!(cache.saved_count(), 1, "a prefix of a saved state adds nothing");
    }
}
