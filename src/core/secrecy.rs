//! The secrecy gate: the last check on every text the bot sends while a
//! game is on, run in ordinary code after any model has spoken.
//!
//! A `Gate` is built once per game from the puzzle's surface, its secret
//! texts (bottom and key facts) and a random `Canary` that only the Judge's
//! prompt contains. `Gate::check` blocks a text that
//! - contains any part of the canary (the Judge's prompt is leaking), or
//! - carries enough of the answer's distinctive spans (see `spans`): a
//!   verbatim run of the answer, or phrases and rare words that together
//!   cover several words the surface does not show,
//!
//! after normalising case, width, diacritics, look-alike letters,
//! leetspeak and traditional Chinese, and again after undoing reversal,
//! base64, hex, binary, Morse, ROT13, NATO spelling and acrostics. Decoded
//! text needs less evidence than plain text, since ordinary remarks are
//! never encoded.
//!
//! `is_meta_question` is the input-side companion: it spots questions about
//! the answer's wording and attempts to take over the host.
//!
//! Nothing here does I/O or logs; the caller logs `Blocked` and sends a
//! fixed text instead.

mod canary;
mod decode;
mod instruction;
mod lexicon;
mod meta;
mod meta_zh;
mod normalize;
mod pattern;
mod spans;

pub use canary::{Canary, new_canary};
pub use instruction::is_instruction;
pub use meta::is_meta_question;

use normalize::{clean, reversed, skeleton_of, words};
use spans::SpanSet;

/// Evidence weight that blocks plain text: three distinctive English words
/// of the answer, or six distinctive Chinese characters.
const PLAIN_BLOCK: u32 = 6;
/// Evidence weight that blocks decoded or reversed text.
const DECODED_BLOCK: u32 = 4;
/// How many times decoded text is itself decoded again (base64 of hex...).
const MAX_DEPTH: usize = 1;

/// A text as it may hide a short secret, each view for whole-word
/// matching: normalised (case, width, diacritics, look-alikes, traditional
/// Chinese), leetspeak folded word by word, each word reversed, the words
/// in reverse order, ROT13, NATO spelling, letters spelled out one by one,
/// and whatever base64, hex, binary or Morse in it decodes to.
pub fn word_views(text: &str) -> Vec<String> {
    let chars = clean(text);
    let plain: String = chars.iter().collect();
    let word_list = words(&chars);
    let leet: Vec<String> = word_list.iter().map(|w| skeleton_of(&w.chars().collect::<Vec<_>>())).collect();
    let each_reversed: Vec<String> = word_list.iter().map(|w| w.chars().rev().collect()).collect();
    let spelled: String = word_list.iter().filter(|w| w.chars().count() == 1).map(String::as_str).collect();
    let mut views = vec![
        plain,
        leet.join(" "),
        each_reversed.join(" "),
        decode::reversed_words(&chars),
        decode::rot13(&chars).into_iter().collect(),
        decode::nato_text(&word_list).unwrap_or_default(),
        spelled,
    ];
    for (_, decoder) in DECODERS {
        views.extend(decoder(text).iter().map(|t| clean(t).into_iter().collect::<String>()));
    }
    views.extend(decode::base64_words(text));
    views.retain(|v| !v.is_empty());
    views
}

/// A decoder: every decoded text it finds in a raw message.
type Decoder = fn(&str) -> Vec<String>;

const DECODERS: [(Encoding, Decoder); 4] = [
    (Encoding::Base64, decode::base64_texts),
    (Encoding::Hex, decode::hex_texts),
    (Encoding::Binary, decode::binary_texts),
    (Encoding::Morse, decode::morse_texts),
];

/// A hidden channel the gate undoes before matching.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// Characters or words in reverse order.
    Reversed,
    Base64,
    Hex,
    Binary,
    Morse,
    Rot13,
    /// NATO phonetic spelling ("bravo india ...").
    Nato,
}

/// Which initials an acrostic is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AcrosticKind {
    Lines,
    /// Sentences and clauses (Chinese 藏头 lines split by commas too).
    Sentences,
    Words,
}

/// Why a text was blocked: where the secret was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The canary, in plain text.
    Canary,
    /// Spans of the answer, in plain text.
    Span,
    /// The canary or spans, after decoding.
    Encoded { kind: Encoding },
    /// The canary or spans, spelled by initials.
    Acrostic { kind: AcrosticKind },
}

/// A blocked text: the reason, the matched span (normalised) for the log,
/// and whether it was the canary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocked {
    pub reason: Reason,
    pub span: String,
    pub canary: bool,
}

/// The result of checking one outbound text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    Pass,
    Blocked(Blocked),
}

impl Check {
    pub fn is_blocked(&self) -> bool {
        matches!(self, Check::Blocked(_))
    }
}

/// Where a view of the text came from.
#[derive(Debug, Clone, Copy)]
enum Channel {
    Plain,
    Encoded(Encoding),
    Acrostic(AcrosticKind),
}

/// One game's secrecy gate. It holds the answer's spans, so it has no
/// `Debug`: it must never end up in a log line.
#[derive(Clone)]
pub struct Gate {
    spans: SpanSet,
    canary: Canary,
}

impl Gate {
    /// Builds the gate from the puzzle's public surface and its secret
    /// texts: the bottom and the key facts (add Judge-only lore to `facts`).
    pub fn new(surface: &str, bottom: &str, facts: &[&str], canary: Canary) -> Gate {
        let secrets: Vec<&str> = std::iter::once(bottom).chain(facts.iter().copied()).collect();
        Gate { spans: SpanSet::build(surface, &secrets), canary }
    }

    /// The canary to place in the Judge's prompt.
    pub fn canary(&self) -> &Canary {
        &self.canary
    }

    /// How many secret spans the gate watches for (for logs and tests).
    pub fn span_count(&self) -> usize {
        self.spans.len()
    }

    /// Marks `text` as public (a hint once shown): spans it contains stop
    /// counting as evidence.
    pub fn allow_public(&mut self, text: &str) {
        self.spans.forget(text);
    }

    /// Checks one outbound text.
    pub fn check(&self, text: &str) -> Check {
        let chars = clean(text);
        let skel = skeleton_of(&chars);
        match self.judge(&skel, Channel::Plain, None).or_else(|| self.transforms(text, &chars, &skel, &skel, 0)) {
            Some(blocked) => Check::Blocked(blocked),
            None => Check::Pass,
        }
    }

    /// Undoes each hidden channel in turn and judges what comes out.
    /// `plain` is the skeleton of the message as sent.
    fn transforms(&self, raw: &str, chars: &[char], skel: &str, plain: &str, depth: usize) -> Option<Blocked> {
        let views = [
            (Channel::Encoded(Encoding::Reversed), reversed(skel)),
            (Channel::Encoded(Encoding::Reversed), decode::reversed_words(chars)),
            (Channel::Encoded(Encoding::Rot13), skeleton_of(&decode::rot13(chars))),
            (Channel::Encoded(Encoding::Nato), decode::nato_text(&words(chars)).unwrap_or_default()),
            (Channel::Acrostic(AcrosticKind::Lines), decode::acrostic_lines(chars)),
            (Channel::Acrostic(AcrosticKind::Sentences), decode::acrostic_sentences(chars)),
            (Channel::Acrostic(AcrosticKind::Words), decode::acrostic_words(chars)),
        ];
        if let Some(b) = views.iter().find_map(|(channel, view)| self.judge(view, *channel, Some(plain))) {
            return Some(b);
        }
        DECODERS
            .iter()
            .find_map(|(kind, decoder)| decoder(raw).iter().find_map(|text| self.decoded(text, *kind, plain, depth)))
    }

    /// Judges decoded text, and decodes it once more while depth allows
    /// (base64 of reversed text, hex of base64...).
    fn decoded(&self, text: &str, kind: Encoding, plain: &str, depth: usize) -> Option<Blocked> {
        let chars = clean(text);
        let skel = skeleton_of(&chars);
        self.judge(&skel, Channel::Encoded(kind), Some(plain))
            .or_else(|| if depth < MAX_DEPTH { self.transforms(text, &chars, &skel, plain, depth + 1) } else { None })
    }

    /// The verdict on one view of the text; `plain` is the message as sent
    /// when the view is a decoding of it.
    fn judge(&self, skel: &str, channel: Channel, plain: Option<&str>) -> Option<Blocked> {
        if skel.is_empty() {
            return None;
        }
        if let Some(part) = self.canary.found_in(skel) {
            return Some(Blocked { reason: reason(channel, true), span: part.to_string(), canary: true });
        }
        let evidence = self.spans.evidence(skel, plain);
        let bar = if matches!(channel, Channel::Plain) { PLAIN_BLOCK } else { DECODED_BLOCK };
        (evidence.quote || evidence.weight >= bar).then(|| Blocked {
            reason: reason(channel, false),
            span: evidence.longest,
            canary: false,
        })
    }
}

fn reason(channel: Channel, canary: bool) -> Reason {
    match channel {
        Channel::Plain if canary => Reason::Canary,
        Channel::Plain => Reason::Span,
        Channel::Encoded(kind) => Reason::Encoded { kind },
        Channel::Acrostic(kind) => Reason::Acrostic { kind },
    }
}

#[cfg(test)]
mod corpus_tests;
#[cfg(test)]
mod testkit;
#[cfg(test)]
mod tests;
