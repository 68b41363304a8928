//! The per-game canary: a random token placed in the Judge's prompt and
//! nowhere else. If any part of it appears in outbound text, the Judge's
//! prompt is leaking, whatever the text around it says.

use std::fmt;

/// A per-game random marker for the Judge prompt; seeing it in output
/// proves a leak.
pub fn new_canary() -> String {
    Canary::from_seed(uuid::Uuid::new_v4().as_u64_pair().0).to_string()
}

/// Letters that survive normalisation unchanged (no vowels, no `l`/`i`/`o`
/// look-alikes), so the token reads the same after any folding and never
/// spells a word.
const ALPHABET: &[u8] = b"bcdfghjkmnpqrstvwxz";
const GROUPS: usize = 3;
const GROUP_LEN: usize = 4;
/// A run this long of the canary's skeleton is already a leak.
const PART_LEN: usize = 8;

/// A game's canary token, e.g. `zq-kdxq-vbmz-tprw`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Canary {
    token: String,
    /// Every `PART_LEN` run of the token's skeleton.
    parts: Vec<String>,
}

impl Canary {
    /// A canary from a seed; the caller draws the seed from the game's RNG,
    /// so a replayed game gets the same canary.
    pub fn from_seed(seed: u64) -> Canary {
        let mut state = seed;
        let mut token = String::from("zq");
        for _ in 0..GROUPS {
            token.push('-');
            for _ in 0..GROUP_LEN {
                let r = splitmix64(&mut state);
                token.push(char::from(ALPHABET[(r % ALPHABET.len() as u64) as usize]));
            }
        }
        Canary::from_token(token)
    }

    /// A canary from random bytes (e.g. `rng.random::<[u8; 8]>()`).
    pub fn from_bytes(bytes: [u8; 8]) -> Canary {
        Canary::from_seed(u64::from_le_bytes(bytes))
    }

    /// The canary a stored game was given (`as_str` of an earlier one).
    pub fn parse(token: &str) -> Canary {
        Canary::from_token(token.trim().to_lowercase())
    }

    fn from_token(token: String) -> Canary {
        let skel: Vec<char> = token.chars().filter(char::is_ascii_alphanumeric).collect();
        let parts = skel.windows(PART_LEN).map(|w| w.iter().collect()).collect();
        Canary { token, parts }
    }

    /// The token to put in the Judge prompt.
    pub fn as_str(&self) -> &str {
        &self.token
    }

    /// The first part of the canary found in `skel` (a skeleton), if any.
    pub(super) fn found_in(&self, skel: &str) -> Option<&str> {
        self.parts.iter().find(|p| skel.contains(p.as_str())).map(String::as_str)
    }
}

impl fmt::Display for Canary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.token)
    }
}

/// SplitMix64: a tiny, well-mixed generator; enough to spread a seed over
/// twelve letters.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
