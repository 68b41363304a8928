//! Secret spans: the distinctive pieces of a puzzle's answer, cut once per
//! game, and the evidence a text carries of them.
//!
//! A span is a skeleton string (see `normalize`) cut from the bottom or a key
//! fact. Spans leave out what the surface already says and what is too
//! common to mean anything, so a question that shares one word with the
//! answer is not evidence. Each span names the distinctive units it covers
//! (an English word or a Chinese character absent from the surface); the
//! evidence of a text is the weight of the distinct units its matched spans
//! cover, and a span marked `quote` (a verbatim run of the answer) is
//! conclusive on its own.

use std::collections::HashMap;

use super::lexicon::{is_common_word, is_function_char, is_stop_word};
use super::normalize::{clauses, clean, han_runs, skeleton, skeleton_of, words};

/// Weight of one distinctive English word; a Chinese character weighs 1.
const WORD_WEIGHT: u32 = 2;
/// Longest English window, in words, that is a phrase; windows of
/// `QUOTE_WORDS` are quotes.
const PHRASE_WORDS: usize = 4;
const QUOTE_WORDS: [usize; 2] = [5, 6];
/// A phrase's skeleton must be at least this long, so it cannot turn up by chance.
const MIN_PHRASE_BYTES: usize = 6;
/// A single English word counts only when it is at least this long.
const MIN_SINGLE_CHARS: usize = 7;
/// Chinese windows: character n-grams, and the run length that is a quote.
const HAN_GRAM: usize = 3;
const HAN_QUOTE: usize = 7;

#[derive(Clone)]
struct Span {
    skel: String,
    /// Distinctive units this span covers (indexes into `SpanSet::weights`).
    units: Vec<u16>,
    quote: bool,
    probes: [u16; 3],
}

/// The spans of one game's answer.
#[derive(Clone)]
pub(super) struct SpanSet {
    spans: Vec<Span>,
    weights: Vec<u32>,
}

/// What one text reveals: the weight of distinct units it covers, whether a
/// verbatim quote was among them, and the longest span matched (for logs).
#[derive(Debug, Default)]
pub(super) struct Evidence {
    pub weight: u32,
    pub quote: bool,
    pub longest: String,
}

impl SpanSet {
    /// Cuts spans from `secrets` (the bottom and key facts), leaving out
    /// whatever `surface` already shows.
    pub(super) fn build(surface: &str, secrets: &[&str]) -> SpanSet {
        let mut builder = Builder::new(surface);
        for secret in secrets {
            let chars = clean(secret);
            for clause in clauses(&chars) {
                builder.english(clause);
                for run in han_runs(clause) {
                    builder.han(&run);
                }
            }
        }
        SpanSet { spans: builder.spans, weights: builder.weights }
    }

    /// Drops spans that `public` text (a hint shown, a player's own words)
    /// already contains: repeating them reveals nothing new.
    pub(super) fn forget(&mut self, public: &str) {
        let skel = skeleton(public);
        self.spans.retain(|s| !skel.contains(&s.skel));
    }

    pub(super) fn len(&self) -> usize {
        self.spans.len()
    }

    /// The evidence `skel` (a skeleton) carries, leaving out spans that
    /// `already` (the plain text's skeleton, when `skel` is a decoding of
    /// it) shows openly: those were judged there, by the plain-text bar.
    pub(super) fn evidence(&self, skel: &str, already: Option<&str>) -> Evidence {
        let mut out = Evidence::default();
        if skel.len() < MIN_PHRASE_BYTES.min(HAN_GRAM * 3) {
            return out;
        }
        let grams = Grams::of(skel.as_bytes());
        let mut seen = vec![false; self.weights.len()];
        let new = |s: &&Span| {
            grams.may_hold(&s.probes) && skel.contains(&s.skel) && !already.is_some_and(|a| a.contains(&s.skel))
        };
        for span in self.spans.iter().filter(new) {
            for &unit in &span.units {
                let unit = usize::from(unit);
                if let Some(flag) = seen.get_mut(unit).filter(|f| !**f) {
                    *flag = true;
                    out.weight += self.weights.get(unit).copied().unwrap_or(0);
                }
            }
            out.quote |= span.quote;
            if span.skel.len() > out.longest.len() {
                out.longest.clone_from(&span.skel);
            }
        }
        out
    }
}

/// A 64 Kibit filter of the text's 4-byte windows: a span whose probe
/// windows are not all set cannot be in the text, so most spans are ruled
/// out without a substring search.
struct Grams {
    bits: Vec<u64>,
}

impl Grams {
    fn of(bytes: &[u8]) -> Grams {
        let mut bits = vec![0u64; 1024];
        for w in bytes.windows(4) {
            let h = usize::from(hash4(w));
            bits[h / 64] |= 1 << (h % 64);
        }
        Grams { bits }
    }

    fn may_hold(&self, probes: &[u16; 3]) -> bool {
        probes.iter().all(|&p| self.bits[usize::from(p) / 64] & (1 << (usize::from(p) % 64)) != 0)
    }
}

fn hash4(w: &[u8]) -> u16 {
    let v = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
    // Multiplicative hashing; the top 16 bits index the filter.
    (v.wrapping_mul(0x9E37_79B1) >> 16) as u16
}

/// First, middle and last 4-byte windows of a span of at least 4 bytes.
fn probes(skel: &str) -> [u16; 3] {
    let b = skel.as_bytes();
    let last = b.len().saturating_sub(4);
    [hash4(&b[..4]), hash4(&b[last / 2..last / 2 + 4]), hash4(&b[last..])]
}

/// One English word of a secret clause.
struct Token {
    skel: String,
    /// Not a stop word.
    content: bool,
    /// Content the surface does not already show; its unit id.
    unit: Option<u16>,
}

struct Builder {
    surface_skel: String,
    surface_words: Vec<String>,
    surface_chars: Vec<char>,
    lemmas: Vec<String>,
    han_units: HashMap<char, u16>,
    weights: Vec<u32>,
    spans: Vec<Span>,
    index: HashMap<String, usize>,
}

impl Builder {
    fn new(surface: &str) -> Builder {
        let chars = clean(surface);
        Builder {
            surface_skel: skeleton_of(&chars),
            surface_words: words(&chars),
            surface_chars: chars,
            lemmas: Vec::new(),
            han_units: HashMap::new(),
            weights: Vec::new(),
            spans: Vec::new(),
            index: HashMap::new(),
        }
    }

    fn english(&mut self, clause: &[char]) {
        let tokens: Vec<Token> = words(clause).into_iter().map(|w| self.token(&w)).collect();
        for (i, tok) in tokens.iter().enumerate() {
            let long = tok.skel.chars().count() >= MIN_SINGLE_CHARS;
            if let Some(unit) = tok.unit.filter(|_| long) {
                self.add(tok.skel.clone(), vec![unit], false);
            }
            for len in 2..=QUOTE_WORDS[1] {
                if let Some(window) = tokens.get(i..i + len) {
                    self.english_window(window);
                }
            }
        }
    }

    fn english_window(&mut self, window: &[Token]) {
        let quote = QUOTE_WORDS.contains(&window.len());
        let ends_on_content = window.first().is_some_and(|t| t.content) && window.last().is_some_and(|t| t.content);
        let content = window.iter().filter(|t| t.content).count();
        let units: Vec<u16> = window.iter().filter_map(|t| t.unit).collect();
        let phrase = ends_on_content && window.len() <= PHRASE_WORDS;
        // A quote must carry two distinctive words ("so Ana held up the" is
        // the surface retold), and a five-word one three content words
        // ("the picture on the front" is how anyone would put it).
        let quote = quote && units.len() >= 2 && (content >= 3 || window.len() > QUOTE_WORDS[0]);
        if units.is_empty() || content < 2 || !(quote || phrase) {
            return;
        }
        let skel: String = window.iter().map(|t| t.skel.as_str()).collect();
        if skel.len() >= MIN_PHRASE_BYTES {
            self.add(skel, units, quote);
        }
    }

    fn token(&mut self, word: &str) -> Token {
        let chars: Vec<char> = word.chars().collect();
        let skel = skeleton_of(&chars);
        let content = chars.len() >= 2 && !is_stop_word(word);
        let shown = self.surface_words.iter().any(|s| same_word(s, word))
            || (skel.len() >= 6 && self.surface_skel.contains(&skel));
        let unit = (content && !shown && !is_common_word(word)).then(|| self.lemma(word));
        Token { skel, content, unit }
    }

    /// The unit id of an English word; inflections share one.
    fn lemma(&mut self, word: &str) -> u16 {
        if let Some(i) = self.lemmas.iter().position(|l| same_word(l, word)) {
            return unit_id(i);
        }
        self.lemmas.push(word.to_string());
        self.weights.push(WORD_WEIGHT);
        unit_id(self.weights.len() - 1)
    }

    fn han(&mut self, run: &[char]) {
        for (i, gram) in run.windows(HAN_GRAM).enumerate() {
            if gram.iter().filter(|c| is_function_char(**c)).count() < 2 {
                self.han_window(gram, false);
            }
            if let Some(long) = run.get(i..i + HAN_QUOTE) {
                self.han_window(long, true);
            }
        }
    }

    fn han_window(&mut self, chars: &[char], quote: bool) {
        let skel: String = chars.iter().collect();
        if self.surface_skel.contains(&skel) {
            return;
        }
        let mut units: Vec<u16> = Vec::new();
        for &c in chars {
            if !is_function_char(c) && !self.surface_chars.contains(&c) {
                let unit = self.han_unit(c);
                if !units.contains(&unit) {
                    units.push(unit);
                }
            }
        }
        if !units.is_empty() && (!quote || units.len() >= 3) {
            self.add(skel, units, quote);
        }
    }

    fn han_unit(&mut self, c: char) -> u16 {
        let next = self.weights.len();
        let unit = *self.han_units.entry(c).or_insert_with(|| unit_id(next));
        if usize::from(unit) == next {
            self.weights.push(1);
        }
        unit
    }

    fn add(&mut self, skel: String, units: Vec<u16>, quote: bool) {
        if let Some(&i) = self.index.get(&skel) {
            self.spans[i].quote |= quote;
            return;
        }
        // Probes read 4 bytes; shorter spans could also turn up by chance.
        if skel.len() < 4 || self.surface_skel.contains(&skel) {
            return;
        }
        self.index.insert(skel.clone(), self.spans.len());
        let probes = probes(&skel);
        self.spans.push(Span { skel, units, quote, probes });
    }
}

/// Unit ids are small: a bottom has at most a few hundred words.
fn unit_id(i: usize) -> u16 {
    u16::try_from(i).unwrap_or(u16::MAX)
}

/// Whether two words are forms of one another ("adopted" / "adoption",
/// "recognise" / "recognize"): a shared prefix of at least four letters
/// that is most of both words.
pub(super) fn same_word(a: &str, b: &str) -> bool {
    let prefix = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let (la, lb) = (a.chars().count(), b.chars().count());
    let shorter = la.min(lb);
    prefix == la && prefix == lb || (prefix >= 4 && prefix + 2 >= shorter && prefix * 2 >= la.max(lb))
}

#[cfg(test)]
impl SpanSet {
    /// Every span as (skeleton, weight of its units, quote), for tests.
    pub(super) fn describe(&self) -> Vec<(String, u32, bool)> {
        let weight = |s: &Span| s.units.iter().map(|u| self.weights[usize::from(*u)]).sum();
        self.spans.iter().map(|s| (s.skel.clone(), weight(s), s.quote)).collect()
    }
}
