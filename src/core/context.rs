//! Layered context for long sessions (seed 004), for every game that
//! keeps a running story: what a model is given each turn is fitted to a
//! token budget from layers instead of the whole history.
//!
//! - **frozen**: the world's rules, the persona, the game's fixed text;
//!   built by the game, never trimmed;
//! - **cold**: the summary, in chapters: every `summary_every` turns
//!   (seed 004's `memory_interval`) the turns that left the hot window
//!   become one chapter (by a model; an extract when the model fails);
//!   the newest chapters that fit the summary's share are kept;
//! - **hot**: every turn not yet in a chapter, verbatim: at least
//!   `hot_turns`, at most `hot_turns + summary_every - 1`;
//! - **flags**: named booleans the table set ("gate_opened"), kept apart
//!   from the prose and shown whole with the frozen text;
//! - **facts** (seed 004's structured state, "WORLD STATE"): what the
//!   table established that later turns may need (where a thing was
//!   left, a name, a number, a promise, a debt), one line per subject,
//!   written by the referee in its structured ruling (no call of its
//!   own) and replaced when the subject changes; always injected, those
//!   that come up first, then the newest, within its share;
//! - **glossary** ("auto-bible"): names and terms the table coined
//!   (capitalised runs, 「quoted」 Chinese terms) that are not in the
//!   frozen text, each with the sentence that coined it, always injected:
//!   those that come up first, then the newest, within its share;
//! - **recalled**: older turns found again by similarity (the game keeps
//!   them searchable in the memory index) when the current input is about
//!   them;
//! - **per-role memory**: GM-only notes (a referee's rulings) reach the
//!   GM's view only; players' views are built from public entries.
//!
//! **No blind spot**: every turn is in exactly one tier (`Book::tier`):
//! hot (verbatim), summary (a kept chapter), or recall (older than the
//! kept chapters, in the search index). Recall also searches turns the
//! summary holds, since a summary is lossy.
//!
//! The `Book` is what a session keeps between turns (serde, inside the
//! game's snapshot); `Shares` splits a model's context window into the
//! layers' budgets (the seed's shares by default); `Layers::fit_shares`
//! assembles one role's block.

use serde::{Deserialize, Serialize};

use crate::core::text::is_cjk;
use crate::core::vocab::Language;

/// Tokens in `text` when the model has no tokenizer at hand: one per
/// Chinese character, one per four other characters.
pub fn estimate_tokens(text: &str) -> usize {
    let cjk = text.chars().filter(|c| is_cjk(*c)).count();
    let other = text.chars().filter(|c| !is_cjk(*c)).count();
    cjk + other.div_ceil(4)
}

/// How a context counts tokens (the model's own tokenizer where it has one).
pub type Counter<'a> = &'a (dyn Fn(&str) -> usize + Send + Sync);

/// One turn as the story remembers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub turn: u32,
    pub speaker: String,
    pub text: String,
}

impl Entry {
    pub fn line(&self) -> String {
        format!("[{}] {}: {}", self.turn, self.speaker, self.text)
    }
}

/// A coined name or term and the sentence that coined it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Term {
    pub term: String,
    pub note: String,
    pub turn: u32,
}

/// One thing the table established: its subject ("Ada's mule") and what
/// is true of it now ("Pepper Quill, tied at the chapel well").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fact {
    pub subject: String,
    pub text: String,
    pub turn: u32,
}

impl Fact {
    /// Longest subject, in characters.
    pub const SUBJECT_CHARS: usize = 60;
    /// Longest text, in characters.
    pub const TEXT_CHARS: usize = 160;

    pub fn line(&self) -> String {
        format!("{}: {}", self.subject, self.text)
    }
}

/// How a book grows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookRules {
    /// Public entries kept verbatim in the book (the hot layer and a pool
    /// for the recap; older ones live in the summary and the search
    /// index). Entries not yet summarised are never dropped below twice
    /// this bound.
    pub keep: usize,
    /// Turns the hot window always shows verbatim.
    pub hot_turns: usize,
    /// Turns folded into one chapter at a time (seed 004's
    /// `memory_interval`): the hot window holds up to `hot_turns +
    /// summary_every - 1` turns.
    pub summary_every: usize,
    /// Longest chapter, in words (Chinese: characters / 2).
    pub summary_words: usize,
    /// Tokens (estimated) the kept chapters may take: older chapters
    /// leave the summary for the recall index.
    pub summary_tokens: usize,
    /// GM notes kept.
    pub gm_notes: usize,
    /// Glossary terms kept (the oldest first to go).
    pub terms: usize,
    /// Established facts kept (the least recently set first to go).
    pub facts: usize,
}

impl Default for BookRules {
    fn default() -> Self {
        BookRules {
            keep: 40,
            hot_turns: 6,
            summary_every: 4,
            summary_words: 60,
            summary_tokens: 400,
            gm_notes: 8,
            terms: 120,
            facts: 80,
        }
    }
}

/// One chapter of the summary: the turns it covers and its prose.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chapter {
    pub from: u32,
    pub upto: u32,
    pub text: String,
}

/// Where a turn is found (`Book::tier`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    /// Verbatim in the hot window.
    Hot,
    /// In a chapter the summary keeps.
    Summary,
    /// Only in the search index.
    Recall,
}

/// What a session keeps between turns.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Book {
    /// The cold layer: the kept chapters' text (turns `summary_from` to
    /// `summary_upto`).
    pub summary: String,
    pub summary_upto: u32,
    /// Whether anything was summarised (turn 0, the opening, is a turn).
    #[serde(default)]
    pub folded: bool,
    #[serde(default)]
    pub chapters: Vec<Chapter>,
    /// The oldest turn the kept chapters cover.
    #[serde(default)]
    pub summary_from: u32,
    /// Named booleans the table set, kept apart from the prose.
    #[serde(default)]
    pub flags: std::collections::BTreeMap<String, bool>,
    /// Public entries, newest last (at most `keep`).
    pub recent: Vec<Entry>,
    /// GM-only notes, newest last.
    pub gm_notes: Vec<Entry>,
    pub glossary: Vec<Term>,
    /// What the table established, least recently set first.
    #[serde(default)]
    pub facts: Vec<Fact>,
    /// Entries up to this turn are in the search index (once `indexed`).
    pub archived_upto: u32,
    /// Whether anything is in the search index (turn 0 is a turn).
    #[serde(default)]
    pub indexed: bool,
}

/// Whose view a block is built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// What players may know: public entries only.
    Public,
    /// The game master (the referee): public entries and GM notes.
    Gm,
}

impl Book {
    /// Adds a public entry, with the terms it coined (those not in
    /// `known`, the frozen text every prompt has already).
    pub fn record(&mut self, entry: Entry, known: &str, rules: &BookRules) {
        let known = known.to_lowercase();
        for (term, note) in coined(&entry.text) {
            let lower = term.to_lowercase();
            if known.contains(&lower) || self.glossary.iter().any(|t| t.term.to_lowercase() == lower) {
                continue;
            }
            self.glossary.push(Term { term, note, turn: entry.turn });
        }
        if self.glossary.len() > rules.terms {
            let extra = self.glossary.len() - rules.terms;
            self.glossary.drain(..extra);
        }
        self.recent.push(entry);
        // Room for the whole hot window (a turn is two entries or more).
        let keep = rules.keep.max(4 * (rules.hot_turns + rules.summary_every));
        if self.recent.len() > keep {
            // Entries the summary has not taken in yet stay, up to twice
            // the bound (a summary that keeps failing cannot grow it more).
            let extra = self.recent.len() - keep;
            let summarised = self.recent.iter().take(extra).take_while(|e| self.is_summarised(e.turn)).count();
            let drop = if self.recent.len() > 2 * keep { extra } else { summarised };
            self.recent.drain(..drop);
        }
    }

    /// Whether `turn` is in the summary's span (kept or not).
    pub fn is_summarised(&self, turn: u32) -> bool {
        (self.folded || self.summary_upto > 0) && turn <= self.summary_upto
    }

    /// Where `turn` is found; `None` is a blind spot (never, while the
    /// game indexes what leaves the summary).
    pub fn tier(&self, turn: u32) -> Option<Tier> {
        if !self.is_summarised(turn) {
            return self.recent.iter().any(|e| e.turn == turn).then_some(Tier::Hot);
        }
        if turn >= self.summary_from {
            return Some(Tier::Summary);
        }
        (self.indexed && turn <= self.archived_upto).then_some(Tier::Recall)
    }

    /// Sets a named flag.
    pub fn flag(&mut self, name: &str, value: bool) {
        let name: String =
            name.trim().to_lowercase().chars().map(|c| if c.is_alphanumeric() { c } else { '_' }).take(40).collect();
        if !name.is_empty() {
            self.flags.insert(name, value);
        }
    }

    /// Sets what is true of `subject` now (replacing what was), or
    /// forgets it when `text` is empty; both are cut to their lengths.
    pub fn establish(&mut self, subject: &str, text: &str, turn: u32, rules: &BookRules) {
        let subject: String = subject.trim().chars().take(Fact::SUBJECT_CHARS).collect();
        let text: String = text.trim().chars().take(Fact::TEXT_CHARS).collect();
        if subject.is_empty() {
            return;
        }
        let key = subject.to_lowercase();
        self.facts.retain(|f| f.subject.to_lowercase() != key);
        if text.is_empty() {
            return;
        }
        self.facts.push(Fact { subject, text, turn });
        if self.facts.len() > rules.facts {
            let extra = self.facts.len() - rules.facts;
            self.facts.drain(..extra);
        }
    }

    /// Adds a GM-only note (a ruling).
    pub fn note(&mut self, entry: Entry, rules: &BookRules) {
        self.gm_notes.push(entry);
        if self.gm_notes.len() > rules.gm_notes {
            let extra = self.gm_notes.len() - rules.gm_notes;
            self.gm_notes.drain(..extra);
        }
    }

    /// The entries the hot window shows: every turn not yet summarised.
    pub fn hot(&self, _rules: &BookRules) -> &[Entry] {
        let start = self.recent.iter().position(|e| !self.is_summarised(e.turn)).unwrap_or(self.recent.len());
        &self.recent[start..]
    }

    /// The entries the next chapter takes: the hot window less its last
    /// `hot_turns` turns.
    pub fn unsummarised(&self, rules: &BookRules) -> Vec<&Entry> {
        let hot = self.hot(rules);
        let turns: std::collections::BTreeSet<u32> = hot.iter().map(|e| e.turn).collect();
        let keep_from = turns.iter().rev().nth(rules.hot_turns.saturating_sub(1)).copied().unwrap_or(0);
        hot.iter().filter(|e| e.turn < keep_from).collect()
    }

    /// Whether a chapter is due: the hot window holds `hot_turns +
    /// summary_every` turns.
    pub fn summary_due(&self, rules: &BookRules) -> bool {
        let distinct = self.hot(rules).iter().map(|e| e.turn).collect::<std::collections::BTreeSet<_>>().len();
        distinct >= rules.hot_turns + rules.summary_every.max(1)
    }

    /// Takes a new chapter covering the turns after the last one up to
    /// `upto`; the oldest chapters leave the summary (for the recall
    /// index) once the kept ones exceed `rules.summary_tokens`.
    pub fn fold(&mut self, text: String, upto: u32, rules: &BookRules) {
        let from = if self.is_summarised(self.summary_upto) { self.summary_upto + 1 } else { 0 };
        if self.chapters.is_empty() && !self.summary.trim().is_empty() {
            // A book from before chapters: its summary is the first one.
            self.chapters.push(Chapter { from: 0, upto: self.summary_upto, text: self.summary.clone() });
        }
        self.chapters.push(Chapter { from, upto, text });
        self.folded = true;
        self.summary_upto = self.summary_upto.max(upto);
        let tokens = |cs: &[Chapter]| cs.iter().map(|c| estimate_tokens(&c.text) + 1).sum::<usize>();
        while self.chapters.len() > 1 && tokens(&self.chapters) > rules.summary_tokens {
            self.chapters.remove(0);
        }
        self.summary_from = self.chapters.first().map_or(0, |c| c.from);
        self.summary = self.chapters.iter().map(|c| c.text.trim()).collect::<Vec<_>>().join("\n");
    }

    /// Entries not yet in the search index.
    pub fn to_archive(&self) -> Vec<&Entry> {
        self.recent.iter().filter(|e| !self.indexed || e.turn > self.archived_upto).collect()
    }

    /// Terms that come up in `text`.
    pub fn terms_in(&self, text: &str) -> Vec<&Term> {
        let lower = text.to_lowercase();
        self.glossary.iter().filter(|t| lower.contains(&t.term.to_lowercase())).collect()
    }
}

/// The summary without a model: the previous one and the first sentence
/// of each turn, cut to `words` from the newest backwards.
pub fn extract_summary(previous: &str, entries: &[&Entry], words: usize, lang: Language) -> String {
    let mut parts: Vec<String> = Vec::new();
    if !previous.trim().is_empty() {
        parts.push(previous.trim().to_string());
    }
    for e in entries {
        let first = first_sentence(&e.text);
        parts.push(format!("{}: {first}", e.speaker));
    }
    let joined = parts.join(if lang == Language::Zh { "；" } else { " " });
    keep_last_words(&joined, words, lang)
}

/// The last `words` words (Chinese: `2 × words` characters) of `text`.
pub fn keep_last_words(text: &str, words: usize, lang: Language) -> String {
    match lang {
        Language::Zh => {
            let chars: Vec<char> = text.chars().collect();
            chars[chars.len().saturating_sub(words * 2)..].iter().collect()
        }
        Language::En => {
            let all: Vec<&str> = text.split_whitespace().collect();
            all[all.len().saturating_sub(words)..].join(" ")
        }
    }
}

/// The first `words` words (Chinese: `2 × words` characters) of `text`,
/// lines kept.
pub fn keep_first_words(text: &str, words: usize, lang: Language) -> String {
    match lang {
        Language::Zh => text.chars().take(words * 2).collect(),
        Language::En => {
            let mut left = words;
            let mut out: Vec<String> = Vec::new();
            for line in text.lines() {
                let taken: Vec<&str> = line.split_whitespace().take(left).collect();
                left -= taken.len();
                out.push(taken.join(" "));
                if left == 0 {
                    break;
                }
            }
            out.join("\n")
        }
    }
}

fn first_sentence(text: &str) -> String {
    let end = text
        .find(['.', '!', '?', '。', '！', '？'])
        .map_or(text.len(), |i| i + text[i..].chars().next().map_or(0, char::len_utf8));
    text[..end].trim().chars().take(200).collect()
}

/// Names and terms a text coins: runs of capitalised words (two or more,
/// or one that does not open a sentence), and Chinese terms in quotes,
/// each with its sentence.
pub fn coined(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let sentences = split_sentences(text);
    for sentence in &sentences {
        let note: String = sentence.trim().chars().take(200).collect();
        let words: Vec<&str> = sentence.split_whitespace().collect();
        let mut run: Vec<String> = Vec::new();
        let mut run_start = 0;
        let flush = |run: &mut Vec<String>, start: usize, out: &mut Vec<(String, String)>| {
            let skip = ["I", "The", "A", "An", "We", "You", "He", "She", "They", "It", "My", "Our"];
            while run.first().is_some_and(|w| skip.contains(&w.as_str())) {
                run.remove(0);
            }
            let opens = start == 0 && run.len() == 1;
            if !run.is_empty() && !opens && run.iter().all(|w| w.chars().count() >= 2) {
                let term = run.join(" ");
                if !out.iter().any(|(t, _)| *t == term) {
                    out.push((term, String::new()));
                }
            }
            run.clear();
        };
        for (i, raw) in words.iter().enumerate() {
            let word: String = raw.trim_matches(|c: char| !c.is_alphanumeric() && c != '-' && c != '\'').to_string();
            let word = word.trim_end_matches("'s").to_string();
            let capital = word.chars().next().is_some_and(char::is_uppercase) && word.chars().any(char::is_lowercase);
            if capital {
                if run.is_empty() {
                    run_start = i;
                }
                run.push(word);
                // Punctuation after a word ends the run.
                if raw.ends_with([',', '.', ';', ':', '!', '?', ')', '"']) {
                    flush(&mut run, run_start, &mut out);
                }
            } else {
                flush(&mut run, run_start, &mut out);
            }
        }
        flush(&mut run, run_start, &mut out);
        for (open, close) in [('「', '」'), ('『', '』'), ('“', '”'), ('《', '》')] {
            let mut rest = sentence.as_str();
            while let Some(a) = rest.find(open) {
                let after = &rest[a + open.len_utf8()..];
                let Some(b) = after.find(close) else { break };
                let term = after[..b].trim();
                let n = term.chars().count();
                if (2..=10).contains(&n) && term.chars().any(is_cjk) && !out.iter().any(|(t, _)| t == term) {
                    out.push((term.to_string(), String::new()));
                }
                rest = &after[b + close.len_utf8()..];
            }
        }
        for (_, n) in out.iter_mut().filter(|(_, n)| n.is_empty()) {
            *n = note.clone();
        }
    }
    out
}

fn split_sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        current.push(c);
        if matches!(c, '.' | '!' | '?' | '。' | '！' | '？' | '\n') {
            if !current.trim().is_empty() {
                out.push(std::mem::take(&mut current));
            } else {
                current.clear();
            }
        }
    }
    if !current.trim().is_empty() {
        out.push(current);
    }
    out
}

/// Older lines folded into one bounded line: the newest that fit in
/// `budget` tokens, the oldest dropped first (Turtle Soup's cold layer:
/// the answers given before the hot window).
pub fn fold_older(lines: &[String], budget: usize, count: Counter<'_>) -> Option<String> {
    let kept = newest_within(lines, budget, count);
    (kept > 0).then(|| lines[lines.len() - kept..].join("; "))
}

/// How many of the newest `lines` fit whole in `room` tokens (a line
/// costs its tokens and one for its separator).
fn newest_within(lines: &[String], room: usize, count: &dyn Fn(&str) -> usize) -> usize {
    let mut used = 0;
    lines
        .iter()
        .rev()
        .take_while(|line| {
            used += count(line) + 1;
            used <= room
        })
        .count()
}

/// A record's marker for the `n` older lines a fitted record leaves out.
pub fn left_out(lang: Language, n: usize) -> String {
    match lang {
        Language::En => format!("({n} earlier lines left out)"),
        Language::Zh => format!("（省略了更早的 {n} 行）"),
    }
}

/// A game's whole public record (`lines`, oldest first) within `budget`
/// tokens, for the games whose record is short enough to keep whole (an
/// Undercover game, an Arena game): all of it when it fits, else the
/// newest lines that fit whole after one line saying how many older ones
/// are left out.
pub fn fit_record(lang: Language, lines: &[String], budget: usize, count: &dyn Fn(&str) -> usize) -> String {
    let total: usize = lines.iter().map(|l| count(l) + 1).sum();
    if total <= budget {
        return lines.join("\n");
    }
    let marker = count(&left_out(lang, lines.len())) + 1;
    let start = lines.len() - newest_within(lines, budget.saturating_sub(marker), count);
    std::iter::once(left_out(lang, start)).chain(lines[start..].iter().cloned()).collect::<Vec<_>>().join("\n")
}

/// A role's context budget in tokens, per layer. The default is seed
/// 004's split at the top of its ranges; `for_window` fits it to a
/// model's context window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shares {
    /// The frozen text: rules, premise, opening hook, the party, flags.
    pub frozen: usize,
    /// The summary's kept chapters and the GM notes.
    pub summary: usize,
    /// The hot window.
    pub recent: usize,
    pub glossary: usize,
    /// Older turns recalled by search.
    pub recall: usize,
    /// What the table established (seed 004 gives no share for its
    /// structured state; about 30 facts of a dozen tokens at the top).
    pub facts: usize,
}

impl Shares {
    /// Seed 004's shares, at the top of its ranges.
    pub const TOP: Shares =
        Shares { frozen: 1_000, summary: 400, recent: 1_200, glossary: 200, recall: 300, facts: 500 };
    /// The bottom of its ranges.
    pub const LOW: Shares = Shares { frozen: 500, summary: 200, recent: 800, glossary: 100, recall: 150, facts: 250 };

    pub fn total(&self) -> usize {
        self.frozen + self.summary + self.recent + self.glossary + self.recall + self.facts
    }

    /// The history's part (all but the frozen text).
    pub fn history(&self) -> usize {
        self.total() - self.frozen
    }

    /// The shares for a model with `window` tokens of context, of which
    /// `reserved` go to the rest of the prompt (lore passages, the task)
    /// and the reply: the seed's top shares when they fit, between its
    /// bottom and top when the room is between theirs, the bottom scaled
    /// down below that.
    pub fn for_window(window: usize, reserved: usize) -> Shares {
        let room = window.saturating_sub(reserved);
        let (low, top) = (Self::LOW, Self::TOP);
        if room >= top.total() {
            return top;
        }
        let scale = |l: usize, t: usize| -> usize {
            if room >= low.total() {
                l + (t - l) * (room - low.total()) / (top.total() - low.total())
            } else {
                l * room / low.total()
            }
        };
        Shares {
            frozen: scale(low.frozen, top.frozen),
            summary: scale(low.summary, top.summary),
            recent: scale(low.recent, top.recent),
            glossary: scale(low.glossary, top.glossary),
            recall: scale(low.recall, top.recall),
            facts: scale(low.facts, top.facts),
        }
    }
}

/// One role's history block, before fitting.
#[derive(Debug, Clone, Default)]
pub struct Layers {
    /// Named flags, shown whole.
    pub flags: Vec<String>,
    /// Established facts, in the order they are kept within the share.
    pub facts: Vec<String>,
    pub summary: String,
    /// GM notes (rulings), for the GM's view only.
    pub gm: Vec<String>,
    pub glossary: Vec<String>,
    pub recalled: Vec<String>,
    /// Oldest first.
    pub hot: Vec<String>,
}

/// What a fitted block holds, in tokens per layer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Fitted {
    pub cold: usize,
    pub facts: usize,
    pub glossary: usize,
    pub recalled: usize,
    pub hot: usize,
    /// Hot turns dropped for the budget.
    pub dropped: usize,
}

impl Layers {
    /// The layers for `view` from a book: the summary, GM notes (GM view),
    /// the glossary terms that come up in `now` or the hot window, and the
    /// hot window. `recalled` lines come from the game's search.
    pub fn from_book(book: &Book, rules: &BookRules, view: View, now: &str, recalled: Vec<String>) -> Layers {
        let hot: Vec<&Entry> = book.hot(rules).iter().collect();
        let mut seen_text = now.to_string();
        for e in &hot {
            seen_text.push('\n');
            seen_text.push_str(&e.text);
        }
        // The terms that come up first, then the rest newest first: the
        // glossary is always injected (seed 004), its share bounds it.
        let mut terms = book.terms_in(&seen_text);
        for t in book.glossary.iter().rev() {
            if !terms.iter().any(|k| k.term == t.term) {
                terms.push(t);
            }
        }
        let glossary = terms.iter().map(|t| format!("{} — {}", t.term, t.note)).collect();
        // The facts whose subject comes up first, then the rest newest first.
        let lower = seen_text.to_lowercase();
        let (mut facts, rest): (Vec<&Fact>, Vec<&Fact>) = book.facts.iter().rev().partition(|f| {
            crate::core::text::words(&f.subject).iter().any(|w| w.chars().count() >= 4 && lower.contains(w.as_str()))
        });
        facts.extend(rest);
        Layers {
            flags: book.flags.iter().map(|(k, v)| format!("{k} = {v}")).collect(),
            facts: facts.iter().map(|f| f.line()).collect(),
            summary: book.summary.clone(),
            gm: if view == View::Gm { book.gm_notes.iter().map(Entry::line).collect() } else { Vec::new() },
            glossary,
            recalled,
            hot: hot.iter().map(|e| e.line()).collect(),
        }
    }

    /// The block within `budget` tokens: the summary and GM notes whole
    /// (they are bounded), facts, glossary and recalled lines up to a quarter of
    /// the budget each, and the hot window newest first in what is left.
    pub fn fit(&self, lang: Language, budget: usize, count: Counter<'_>) -> (String, Fitted) {
        let heads = headings(lang);
        let mut fitted = Fitted::default();
        let mut parts: Vec<String> = Vec::new();
        let mut used = 0;
        if !self.flags.is_empty() {
            parts.push(format!("{}\n{}", heads[5], self.flags.join("\n")));
        }
        if !self.summary.trim().is_empty() {
            let block = format!("{}\n{}", heads[0], self.summary.trim());
            fitted.cold = count(&block);
            used += fitted.cold;
            parts.push(block);
        }
        if !self.gm.is_empty() {
            let block = format!("{}\n{}", heads[1], self.gm.join("\n"));
            let n = count(&block);
            fitted.cold += n;
            used += n;
            parts.push(block);
        }
        let quarter = budget / 4;
        let take = |lines: &[String], head: &str, cap: usize| -> (Option<String>, usize) {
            let mut kept: Vec<&str> = Vec::new();
            let mut n = count(head);
            for line in lines {
                let c = count(line) + 1;
                if n + c > cap {
                    break;
                }
                n += c;
                kept.push(line);
            }
            if kept.is_empty() { (None, 0) } else { (Some(format!("{head}\n{}", kept.join("\n"))), n) }
        };
        let (facts, n) = take(&self.facts, heads[6], quarter);
        fitted.facts = n;
        used += n;
        parts.extend(facts);
        let (glossary, n) = take(&self.glossary, heads[2], quarter);
        fitted.glossary = n;
        used += n;
        parts.extend(glossary);
        let (recalled, n) = take(&self.recalled, heads[3], quarter);
        fitted.recalled = n;
        used += n;
        parts.extend(recalled);
        let left = budget.saturating_sub(used);
        let mut hot: Vec<&str> = Vec::new();
        let mut n = count(heads[4]);
        for line in self.hot.iter().rev() {
            let c = count(line) + 1;
            if n + c > left {
                break;
            }
            n += c;
            hot.push(line);
        }
        fitted.dropped = self.hot.len() - hot.len();
        if !hot.is_empty() {
            hot.reverse();
            fitted.hot = n;
            parts.push(format!("{}\n{}", heads[4], hot.join("\n")));
        }
        (parts.join("\n\n"), fitted)
    }

    /// The block within `shares`: the flags whole (they are few), the
    /// facts within their share, the summary's newest lines then the GM notes within the summary's
    /// share, glossary and recalled lines within theirs, and the hot
    /// window newest first within the recent share (the oldest hot turn
    /// dropped first). A layer's unused share is not lent to another, so
    /// what one role sees does not shift with another layer's size.
    pub fn fit_shares(&self, lang: Language, shares: &Shares, count: Counter<'_>) -> (String, Fitted) {
        let heads = headings(lang);
        let mut fitted = Fitted::default();
        let mut parts: Vec<String> = Vec::new();
        // Lines of one layer within `cap`, newest (`rev`) or first first.
        let take = |lines: &[String], head: &str, cap: usize, newest: bool| -> (Option<String>, usize, usize) {
            let mut kept: Vec<&str> = Vec::new();
            let mut n = count(head);
            let order: Vec<&String> = if newest { lines.iter().rev().collect() } else { lines.iter().collect() };
            for line in order {
                let c = count(line) + 1;
                if n + c > cap {
                    break;
                }
                n += c;
                kept.push(line);
            }
            if newest {
                kept.reverse();
            }
            let dropped = lines.len() - kept.len();
            if kept.is_empty() {
                (None, 0, dropped)
            } else {
                (Some(format!("{head}\n{}", kept.join("\n"))), n, dropped)
            }
        };
        if !self.flags.is_empty() {
            parts.push(format!("{}\n{}", heads[5], self.flags.join("\n")));
        }
        let (block, n, _) = take(&self.facts, heads[6], shares.facts, false);
        fitted.facts = n;
        parts.extend(block);
        let summary: Vec<String> =
            self.summary.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_string).collect();
        let (block, n, _) = take(&summary, heads[0], shares.summary, true);
        fitted.cold = n;
        parts.extend(block);
        let (block, n, _) =
            take(&self.gm, heads[1], shares.summary.saturating_sub(fitted.cold).max(shares.summary / 4), true);
        fitted.cold += n;
        parts.extend(block);
        let (block, n, _) = take(&self.glossary, heads[2], shares.glossary, false);
        fitted.glossary = n;
        parts.extend(block);
        let (block, n, _) = take(&self.recalled, heads[3], shares.recall, false);
        fitted.recalled = n;
        parts.extend(block);
        let (block, n, dropped) = take(&self.hot, heads[4], shares.recent, true);
        fitted.hot = n;
        fitted.dropped = dropped;
        parts.extend(block);
        (parts.join("\n\n"), fitted)
    }
}

fn headings(lang: Language) -> [&'static str; 7] {
    match lang {
        Language::En => [
            "The story so far:",
            "Your rulings so far (GM only):",
            "Names and terms coined at this table:",
            "Earlier turns that bear on this:",
            "The latest turns:",
            "Flags set at this table:",
            "What this table has established:",
        ],
        Language::Zh => [
            "前情提要：",
            "你此前的裁定（仅主持人可见）：",
            "本局新出现的名字和说法：",
            "与此相关的早先回合：",
            "最近的回合：",
            "本局已设定的标记：",
            "本局已确定的事实：",
        ],
    }
}

#[cfg(test)]
mod tests;
