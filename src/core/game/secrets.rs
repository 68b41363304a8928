//! The secrecy gate cut per audience from a game's named secrets.
//!
//! A game names its secrets (Soup: the bottom and key facts; Undercover:
//! every seat's word; the RPG: GM-only lore), each owned by nobody or by
//! one seat. A public message (and one to moderators, who may be players)
//! is checked against all of them; a private message to a seat against all
//! but that seat's own. Short secrets (a word or two, which the span
//! matcher weighs too lightly) are also matched as whole words.

use std::collections::BTreeMap;

use crate::core::secrecy::{Blocked, Canary, Check, Gate, Reason, word_views};
use crate::core::text::{is_cjk, words};

use super::message::Audience;
use super::table::Played;

/// One secret text, and the seat allowed to see it (`None`: nobody).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Secret {
    pub owner: Option<String>,
    pub text: String,
}

impl Secret {
    pub fn hidden(text: impl Into<String>) -> Secret {
        Secret { owner: None, text: text.into() }
    }

    pub fn of_seat(seat: impl Into<String>, text: impl Into<String>) -> Secret {
        Secret { owner: Some(seat.into()), text: text.into() }
    }
}

/// Most words in a secret matched as whole words rather than by spans
/// (each Chinese character counts as a word; twice as many of those).
const SHORT_WORDS: usize = 3;

fn is_short(words: &[String]) -> bool {
    let cjk = words.iter().all(|w| w.chars().all(is_cjk));
    !words.is_empty() && words.len() <= if cjk { 2 * SHORT_WORDS } else { SHORT_WORDS }
}

/// Short secrets (a word or two) are matched as whole words in every view
/// of a text (`secrecy::word_views`: normalised, leetspeak, reversed,
/// ROT13, NATO, spelled out, decoded), so "tea" is caught in "t-e-a" and
/// "aet" but not in "steam"; longer ones by the span gate, which also
/// holds the canary.
#[derive(Clone)]
pub struct SecretGates {
    public: Gate,
    seats: BTreeMap<String, Gate>,
    /// (owner, normalised words) of the short secrets.
    short: Vec<(Option<String>, Vec<String>)>,
}

impl SecretGates {
    /// `public_context` is what every player has already seen (a surface,
    /// the rules); its words never count as evidence.
    pub fn new(public_context: &str, secrets: &[Secret], canary: Canary) -> SecretGates {
        let long: Vec<&Secret> = secrets.iter().filter(|s| !is_short(&words(&s.text))).collect();
        // A seat's gate leaves out its own secrets, and any other seat's
        // that are the same text (civilians in Undercover share a word).
        let gate_without = |owner: Option<&str>| {
            let own: Vec<&str> = long
                .iter()
                .filter(|s| owner.is_some() && s.owner.as_deref() == owner)
                .map(|s| s.text.as_str())
                .collect();
            let texts: Vec<&str> = long.iter().map(|s| s.text.as_str()).filter(|text| !own.contains(text)).collect();
            match texts.split_first() {
                Some((first, rest)) => Gate::new(public_context, first, rest, canary.clone()),
                None => Gate::new(public_context, "", &[], canary.clone()),
            }
        };
        let owners: Vec<&str> = secrets.iter().filter_map(|s| s.owner.as_deref()).collect();
        let seats = owners.iter().map(|o| (o.to_string(), gate_without(Some(o)))).collect();
        let short = secrets.iter().map(|s| (s.owner.clone(), words(&s.text))).filter(|(_, w)| is_short(w)).collect();
        SecretGates { public: gate_without(None), seats, short }
    }

    /// A turn's reply and messages, each checked for its audience; one that
    /// would reveal a secret is replaced by `withheld` and the turn marked
    /// (a security event). The turn that ends the game is not gated.
    pub fn gate(&self, mut played: Played, over: bool, withheld: &str) -> Played {
        if over {
            return played;
        }
        if let Check::Blocked(b) = self.check(&Audience::Everyone, &played.reply.text) {
            played.reply.text = withheld.to_string();
            played.withheld = Some(b);
        }
        for m in &mut played.messages {
            if let Check::Blocked(b) = self.check(&m.audience, &m.reply.text) {
                m.reply.text = withheld.to_string();
                played.withheld = Some(b);
            }
        }
        played
    }

    /// Checks one message for its audience.
    pub fn check(&self, audience: &Audience, text: &str) -> Check {
        let seat = audience.recipient();
        let gate = seat.and_then(|s| self.seats.get(s)).unwrap_or(&self.public);
        if let Check::Blocked(b) = gate.check(text) {
            return Check::Blocked(b);
        }
        let own: Vec<&Vec<String>> =
            self.short.iter().filter(|(owner, _)| seat.is_some() && owner.as_deref() == seat).map(|(_, w)| w).collect();
        let others: Vec<&Vec<String>> = self.short.iter().map(|(_, w)| w).filter(|w| !own.contains(w)).collect();
        if others.is_empty() {
            return Check::Pass;
        }
        for view in word_views(text) {
            let said = words(&view);
            if let Some(w) = others.iter().find(|w| said.windows(w.len()).any(|run| run == w.as_slice())) {
                return Check::Blocked(Blocked { reason: Reason::Span, span: w.join(" "), canary: false });
            }
        }
        Check::Pass
    }

    /// Marks a text as public from now on (a word revealed when its seat
    /// was voted out): it stops counting as evidence in every gate.
    pub fn allow_public(&mut self, text: &str) {
        self.public.allow_public(text);
        for gate in self.seats.values_mut() {
            gate.allow_public(text);
        }
        let revealed = words(text);
        self.short.retain(|(_, w)| !revealed.windows(w.len().max(1)).any(|run| run == w.as_slice()));
    }
}

/// Counts only: the gates hold secrets and must never be logged.
impl std::fmt::Debug for SecretGates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SecretGates").field("seats", &self.seats.len()).field("short", &self.short.len()).finish()
    }
}
