//! The Judge's memory: a puzzle's known answers (questions players ask,
//! each with its verdict, written with the puzzle) matched against a
//! player's question, so what the bundled content already knows is
//! answered without a model. Matching is by words (English: content words,
//! lightly stemmed, and their letter trigrams for typos; Chinese: pairs of
//! characters) and, where an embedder is at hand, by sentence vectors. A
//! question whose negation differs from the known one's takes the opposite
//! verdict ("Did nobody die?" against "Did someone die?").
//!
//! Also here: key facts found in a guess by the same means, for a Judge
//! too small to grade one.

use std::collections::HashMap;

use std::sync::{Arc, Mutex};

use tokio::sync::OnceCell;

use crate::core::embed::{Embedder, VectorCache, cosine};
use crate::core::game::record::Verdict;
use crate::core::text::{is_cjk, normalize_question};
use crate::core::vocab::Language;

use super::{Fact, Puzzle};

/// How a language's similarity is made and trusted: the weight of word
/// overlap against the sentence vectors, the similarity at or above which
/// a known answer is the verdict, and how far it must lead the closest
/// known answer with another verdict. In English the words carry nearly
/// all of it (a cosine barely moves between "was he her father" and "was
/// he her grandfather"; the vectors break near-ties); in Chinese, which
/// all-MiniLM-L6-v2 reads poorly, the character pairs carry 0.7 and the
/// lead over another verdict decides more than the threshold. Calibrated
/// with `echoes eval judge --scores` and `scripts/calibrate-known.py` on
/// `tests/data/judge_eval.jsonl` and on known answers each matched
/// against the rest of its puzzle's (`--leave-one-out`): at most 5% wrong
/// verdicts on both, the most right on both, the middle of the plateau
/// (not on the held-out set the figures are reported on).
#[derive(Debug, Clone, Copy)]
pub struct Tuning {
    pub lexical_weight: f32,
    pub threshold: f32,
    /// The threshold by words alone, with no sentence vectors at hand.
    pub lexical_threshold: f32,
    pub margin: f32,
}

pub const TUNING_EN: Tuning = Tuning { lexical_weight: 0.9, threshold: 0.5, lexical_threshold: 0.5, margin: 0.2 };
pub const TUNING_ZH: Tuning = Tuning { lexical_weight: 0.7, threshold: 0.34, lexical_threshold: 0.42, margin: 0.15 };

fn tuning(language: Language) -> Tuning {
    language.pick(TUNING_EN, TUNING_ZH)
}
/// Two known questions this alike (by words) are the same question.
const TWIN: f32 = 0.95;
/// A flipped verdict needs at least this word overlap (rarity-weighted in
/// Chinese) between the question and the known one.
const FLIP_MIN_WORDS: f32 = 0.7;
/// A key fact counts as stated when the mean of its word coverage and
/// its sentence vectors' best cosine reaches the language's threshold
/// (with no vectors at hand: its word coverage alone reaches the lexical
/// one). Calibrated on `judge_eval.jsonl`'s guesses with
/// `scripts/calibrate-known.py` (the most graded right, ties to the
/// setting whose neighbours grade the most right), not on the held-out set.
pub const FACT_THRESHOLD_EN: f32 = 0.6;
pub const FACT_THRESHOLD_ZH: f32 = 0.55;
/// The weight of word coverage against the vectors' cosine.
const FACT_LEXICAL_WEIGHT: f32 = 0.5;
pub const FACT_LEXICAL_THRESHOLD_EN: f32 = 0.7;
pub const FACT_LEXICAL_THRESHOLD_ZH: f32 = 0.6;

/// One known question, ready to match.
#[derive(Debug, Clone)]
struct Entry {
    question: String,
    verdict: Verdict,
    features: Features,
    vector: Option<Vec<f32>>,
}

/// What a text is matched by.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Features {
    /// Content words (English, stemmed) or character pairs (Chinese).
    grams: Vec<String>,
    /// Each gram's letter trigrams (`Trigrams::of`), when `fuzzy`: made
    /// once, as every known answer is compared with every other one when
    /// a puzzle is checked.
    trigrams: Vec<Trigrams>,
    /// English: a word may differ by a typo (letter trigrams).
    fuzzy: bool,
    /// Whether the sentence is negated (an odd number of negations).
    negated: bool,
}

/// A known answer recalled for a question.
#[derive(Debug, Clone, PartialEq)]
pub struct Recall {
    pub verdict: Verdict,
    pub score: f32,
    /// The known question it matched.
    pub question: String,
    /// The question's negation differs from the known one's: the verdict
    /// was flipped.
    pub flipped: bool,
}

/// A puzzle's known answers, matched as a whole.
#[derive(Debug, Clone)]
pub struct Known {
    language: Language,
    entries: Vec<Entry>,
    facts: Vec<FactEntry>,
    /// Chinese: each character pair's weight in word overlap, by how rare
    /// it is among the known questions (a pair of the hero's name, in half
    /// of them, tells two questions apart less than "毒药" does).
    rarity: Option<Rarity>,
}

/// Inverse document frequency of the grams of a puzzle's known questions.
#[derive(Debug, Clone)]
struct Rarity {
    weights: HashMap<String, f32>,
    /// The weight of a gram no known question has.
    unseen: f32,
}

impl Rarity {
    fn of(entries: &[Entry]) -> Rarity {
        let n = entries.len() as f32;
        let mut df: HashMap<&str, usize> = HashMap::new();
        for e in entries {
            for g in &e.features.grams {
                *df.entry(g.as_str()).or_default() += 1;
            }
        }
        let idf = |count: usize| ((n + 1.0) / (count as f32 + 1.0)).ln() + 1.0;
        Rarity { weights: df.into_iter().map(|(g, c)| (g.to_string(), idf(c))).collect(), unseen: idf(0) }
    }

    fn weight(&self, gram: &str) -> f32 {
        self.weights.get(gram).copied().unwrap_or(self.unseen)
    }
}

/// A key fact as matched: its id and each statement of it (its text, then
/// its `also`), each with its features and, when embedded, its vector.
#[derive(Debug, Clone)]
struct FactEntry {
    id: String,
    statements: Vec<(Features, Option<Vec<f32>>)>,
}

impl Known {
    /// The puzzle's known answers and key facts, without vectors.
    pub fn new(puzzle: &Puzzle) -> Known {
        let language = puzzle.language;
        let entries: Vec<Entry> = puzzle
            .known
            .iter()
            .map(|k| Entry {
                question: k.question.clone(),
                verdict: k.verdict,
                features: features(&k.question, language),
                vector: None,
            })
            .collect();
        let facts = puzzle
            .facts
            .iter()
            .map(|f: &Fact| FactEntry {
                id: f.id.clone(),
                statements: f.statements().map(|s| (features(s, language), None)).collect(),
            })
            .collect();
        let rarity = (language == Language::Zh).then(|| Rarity::of(&entries));
        Known { language, entries, facts, rarity }
    }

    /// Word overlap as matching weighs it: by rarity where there is one.
    fn lexical(&self, a: &Features, b: &Features) -> f32 {
        match &self.rarity {
            Some(r) => dice_by(a, b, &|g| r.weight(g)),
            None => dice(a, b),
        }
    }

    /// Every text a prepared `Known` embeds, in order: the known
    /// questions (normalised as the pipeline normalises a question before
    /// embedding it), then every key fact's statements.
    fn texts(puzzle: &Puzzle) -> Vec<String> {
        let questions = puzzle.known.iter().map(|k| normalize_question(&k.question));
        questions.chain(puzzle.facts.iter().flat_map(Fact::statements).map(str::to_string)).collect()
    }

    /// Attaches `vectors`, one for each of `Known::texts`, in order.
    fn with_vectors(mut self, vectors: Vec<Vec<f32>>) -> Known {
        let mut vectors = vectors.into_iter();
        for entry in &mut self.entries {
            entry.vector = vectors.next();
        }
        for statement in self.facts.iter_mut().flat_map(|f| f.statements.iter_mut()) {
            statement.1 = vectors.next();
        }
        self
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// An earlier known question nearly identical to the `i`th whose
    /// verdict (after negation) differs: its index and verdict.
    pub fn twin_of(&self, i: usize) -> Option<(usize, Verdict)> {
        let entry = self.entries.get(i)?;
        self.entries[..i].iter().enumerate().find_map(|(j, e)| {
            let close = dice(&entry.features, &e.features) >= TWIN;
            let verdict = if entry.features.negated != e.features.negated { opposite(e.verdict) } else { e.verdict };
            (close && verdict != entry.verdict).then_some((j, e.verdict))
        })
    }

    /// The key fact a known question states nearly in full, if one.
    pub fn fact_stated_by(&self, question: &str) -> Option<String> {
        let asked = features(question, self.language);
        // "Was it not …?" against "It was …": a NO there agrees with the fact.
        self.facts
            .iter()
            .find(|f| {
                f.statements.iter().any(|(fact, _)| {
                    fact.negated == asked.negated && coverage(fact, &asked) >= 0.85 && fact.grams.len() >= 3
                })
            })
            .map(|f| f.id.clone())
    }

    /// The closest known answer and its similarity, whatever it is.
    pub fn closest(&self, question: &str, vector: Option<&[f32]>) -> Option<Recall> {
        self.ranked(question, vector).into_iter().next()
    }

    /// Every known answer for `question`, the most similar first.
    fn ranked(&self, question: &str, vector: Option<&[f32]>) -> Vec<Recall> {
        self.scores(question, vector).into_iter().map(|(recall, ..)| recall).collect()
    }

    /// Each known answer's word and vector similarity to `question`, the
    /// closest first (for calibrating the threshold: `echoes eval judge
    /// --scores`).
    pub fn scores(&self, question: &str, vector: Option<&[f32]>) -> Vec<(Recall, f32, Option<f32>)> {
        let asked = features(question, self.language);
        let weight = tuning(self.language).lexical_weight;
        let mut out: Vec<(Recall, f32, Option<f32>)> = self
            .entries
            .iter()
            .map(|e| {
                let flipped = asked.negated != e.features.negated;
                let verdict = if flipped { opposite(e.verdict) } else { e.verdict };
                let lexical = self.lexical(&asked, &e.features);
                let semantic = vector.zip(e.vector.as_deref()).map(|(a, b)| cosine(a, b));
                let score = match semantic {
                    Some(cos) => weight * lexical + (1.0 - weight) * cos,
                    None => lexical,
                };
                (Recall { verdict, score, question: e.question.clone(), flipped }, lexical, semantic)
            })
            .collect();
        out.sort_by(|a, b| b.0.score.total_cmp(&a.0.score));
        out
    }

    /// How much of `question`'s words `known` has, and how much of
    /// `known`'s the question has (each a share, as `coverage`): for
    /// calibrating (`echoes eval judge --scores`).
    pub fn word_cover(&self, question: &str, known: &str) -> (f32, f32) {
        let (q, k) = (features(question, self.language), features(known, self.language));
        (coverage(&q, &k), coverage(&k, &q))
    }

    /// The known answer for `question`, when one is close enough to trust.
    /// Not when it is below the threshold, nor when a known answer with
    /// another verdict is nearly as close (a question between two), nor a
    /// question that asks two things ("…, and …", "…而且…") from a known
    /// one that asks one. A known answer whose verdict the negation would
    /// flip counts only when the two questions differ by little more than
    /// the negation ("was there no mistake" against "was there a
    /// mistake", not "is his family not well off" against "is his family
    /// poor"); the others are passed over, neither answering nor standing
    /// in the way of a plain match ("男生家里穷吗": "男生家里很穷吗", not
    /// "男生家里没钱吗" read as its negation).
    pub fn recall(&self, question: &str, vector: Option<&[f32]>) -> Option<Recall> {
        let Tuning { threshold, lexical_threshold, margin, .. } = tuning(self.language);
        let threshold = if vector.is_some() { threshold } else { lexical_threshold };
        let ranked: Vec<Recall> = self
            .scores(question, vector)
            .into_iter()
            .filter(|(recall, words, _)| !recall.flipped || *words >= FLIP_MIN_WORDS)
            .map(|(recall, ..)| recall)
            .collect();
        let best = ranked.first()?;
        let rival = ranked.iter().find(|r| r.verdict != best.verdict);
        let clear = rival.is_none_or(|r| best.score - r.score >= margin);
        let one_ask = !asks_two(question) || asks_two(&best.question);
        (best.score >= threshold && clear && one_ask).then(|| best.clone())
    }

    /// A question that asks two things (`two_asks`), answered from each
    /// part's known answer (`recall`, each part with its own vector) and
    /// `joined`; none unless both parts are recalled.
    pub fn recall_two(&self, first: (&str, Option<&[f32]>), second: (&str, Option<&[f32]>)) -> Option<Verdict> {
        let a = self.recall(first.0, first.1)?;
        let b = self.recall(second.0, second.1)?;
        joined(a.verdict, b.verdict)
    }

    /// The key facts a guess states, each fact's best similarity to the
    /// whole guess or one of its sentences at or above the threshold.
    pub fn facts_stated(&self, guess: &str, vectors: &[Vec<f32>]) -> Vec<String> {
        let semantic = !vectors.is_empty() && self.facts.iter().any(|f| f.statements.iter().any(|(_, v)| v.is_some()));
        let (mixed, lexical) = match self.language {
            Language::En => (FACT_THRESHOLD_EN, FACT_LEXICAL_THRESHOLD_EN),
            Language::Zh => (FACT_THRESHOLD_ZH, FACT_LEXICAL_THRESHOLD_ZH),
        };
        let stated = |f: &FactScore| {
            if semantic {
                FACT_LEXICAL_WEIGHT * f.lexical + (1.0 - FACT_LEXICAL_WEIGHT) * f.semantic >= mixed
            } else {
                f.lexical >= lexical
            }
        };
        self.fact_scores(guess, vectors).into_iter().filter(stated).map(|f| f.id).collect()
    }

    /// Each key fact's best word coverage and sentence-vector similarity
    /// (over its statements and the guess's sentences): what the fact
    /// thresholds are calibrated on (`echoes eval judge --scores`).
    /// `vectors`: the guess's, then each of its `sentences`.
    pub fn fact_scores(&self, guess: &str, vectors: &[Vec<f32>]) -> Vec<FactScore> {
        let parts: Vec<Features> =
            std::iter::once(guess.to_string()).chain(sentences(guess)).map(|s| features(&s, self.language)).collect();
        self.facts
            .iter()
            .map(|f| {
                let mut best = FactScore { id: f.id.clone(), lexical: 0.0, semantic: 0.0 };
                for (fact, vector) in &f.statements {
                    let lexical = parts.iter().map(|p| coverage(fact, p)).fold(0.0, f32::max);
                    let semantic = vector
                        .as_deref()
                        .map(|v| vectors.iter().map(|g| cosine(g, v)).fold(0.0, f32::max))
                        .unwrap_or(0.0);
                    best.lexical = best.lexical.max(lexical);
                    best.semantic = best.semantic.max(semantic);
                }
                best
            })
            .collect()
    }
}

/// One key fact's similarity to a guess.
#[derive(Debug, Clone, PartialEq)]
pub struct FactScore {
    pub id: String,
    /// The share of the fact's words the guess (or one sentence of it) has.
    pub lexical: f32,
    /// The best cosine between a statement of the fact and the guess or one
    /// of its sentences.
    pub semantic: f32,
}

/// Whether a question joins two asks, each of which a known answer may
/// settle differently (`YES AND NO` when they disagree).
pub fn asks_two(question: &str) -> bool {
    two_asks(question).is_some()
}

/// Words that open an English yes/no question: after "and", they start a
/// second one ("was he ill and did he lose on purpose").
const ASK_WORDS_EN: &[&str] =
    &["did", "was", "is", "were", "are", "does", "do", "has", "had", "have", "could", "can", "will", "would"];

/// A question that joins two asks ("…, and …", "… and did …", "…而且…"),
/// split at its first joint, lower case, each part trimmed. An English
/// second part with no question word of its own borrows the first's
/// ("was he awake, and in bed" asks "was … in bed").
pub fn two_asks(question: &str) -> Option<(String, String)> {
    let q = question.to_lowercase();
    let fixed = ["而且", "并且", ", and also ", " and also ", ", and ", " as well as "];
    let at_fixed = fixed.iter().filter_map(|j| q.find(j).map(|i| (i, i + j.len())));
    let at_ask = ASK_WORDS_EN.iter().filter_map(|w| {
        let joint = format!(" and {w} ");
        q.find(&joint).map(|i| (i, i + " and ".len()))
    });
    // The earliest joint; of two there, the longer (", and also ").
    let (start, end) = at_fixed.chain(at_ask).min_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)))?;
    let trim = |s: &str| s.trim_matches(|c: char| c.is_whitespace() || ",，、?？。.!！".contains(c)).to_string();
    let (first, mut second) = (trim(&q[..start]), trim(&q[end..]));
    if first.is_empty() || second.is_empty() {
        return None;
    }
    let opener = |s: &str| s.split_whitespace().next().filter(|w| ASK_WORDS_EN.contains(w)).map(str::to_string);
    if !second.chars().any(is_cjk)
        && opener(&second).is_none()
        && let Some(word) = opener(&first)
    {
        second = format!("{word} {second}");
    }
    Some((first, second))
}

/// A two-part question's verdict from its parts': YES when both hold, NO
/// when neither does, YES AND NO when they differ (or either part is
/// half true); none when a part does not bear on the story.
pub fn joined(first: Verdict, second: Verdict) -> Option<Verdict> {
    let bears = |v: Verdict| matches!(v, Verdict::Yes | Verdict::No | Verdict::YesAndNo);
    match (first, second) {
        (Verdict::Yes, Verdict::Yes) => Some(Verdict::Yes),
        (Verdict::No, Verdict::No) => Some(Verdict::No),
        (a, b) if bears(a) && bears(b) => Some(Verdict::YesAndNo),
        _ => None,
    }
}

/// The guess's sentences (split at full stops, semicolons and commas that
/// join clauses), for matching facts one by one.
pub fn sentences(text: &str) -> Vec<String> {
    text.split(['.', '!', ';', '。', '！', '；', '，', ','])
        .map(str::trim)
        .filter(|s| s.chars().count() >= 4)
        .map(str::to_string)
        .collect()
}

/// The verdict a negated question gets from a known one.
fn opposite(verdict: Verdict) -> Verdict {
    match verdict {
        Verdict::Yes => Verdict::No,
        Verdict::No => Verdict::Yes,
        other => other,
    }
}

/// The share of `fact`'s words (three letters or more, or Chinese pairs)
/// that `text` has.
fn coverage(fact: &Features, text: &Features) -> f32 {
    let words: Vec<usize> =
        (0..fact.grams.len()).filter(|i| fact.grams[*i].chars().count() >= 3 || !fact.fuzzy).collect();
    if words.is_empty() {
        return 0.0;
    }
    let fuzzy = fact.fuzzy;
    let found = words.iter().filter(|i| (0..text.grams.len()).any(|j| same(fact, **i, text, j, fuzzy))).count();
    found as f32 / words.len() as f32
}

/// Dice over words, a word matching its typo.
fn dice(a: &Features, b: &Features) -> f32 {
    dice_by(a, b, &|_| 1.0)
}

/// Dice over words, each word counting `weight`.
fn dice_by(a: &Features, b: &Features, weight: &dyn Fn(&str) -> f32) -> f32 {
    if a.grams.is_empty() || b.grams.is_empty() {
        return 0.0;
    }
    let fuzzy = a.fuzzy && b.fuzzy;
    let in_a: f32 = (0..a.grams.len())
        .filter(|i| (0..b.grams.len()).any(|j| same(a, *i, b, j, fuzzy)))
        .map(|i| weight(&a.grams[i]))
        .sum();
    let in_b: f32 = (0..b.grams.len())
        .filter(|j| (0..a.grams.len()).any(|i| same(a, i, b, *j, fuzzy)))
        .map(|j| weight(&b.grams[j]))
        .sum();
    let all: f32 = a.grams.iter().chain(&b.grams).map(|g| weight(g)).sum();
    if all > 0.0 { (in_a + in_b) / all } else { 0.0 }
}

/// `a`'s gram `i` and `b`'s gram `j` are the same word, or (English, four
/// letters or more) one typo away by letter trigrams. A word that is the
/// other with letters put in front is another word, often its opposite
/// ("unconscious", "anticlockwise", "dishonest"), not a typo of it.
fn same(a: &Features, i: usize, b: &Features, j: usize, fuzzy: bool) -> bool {
    let (x, y) = (&a.grams[i], &b.grams[j]);
    x == y
        || (fuzzy
            && x.len() >= 4
            && y.len() >= 4
            && !prefixed(x, y)
            && !prefixed(y, x)
            && matches!((a.trigrams.get(i), b.trigrams.get(j)), (Some(p), Some(q)) if p.dice(q) >= 0.6))
}

/// `word` is `root` with two letters or more put in front.
fn prefixed(word: &str, root: &str) -> bool {
    word.len() >= root.len() + 2 && word.ends_with(root)
}

/// A word's letter trigrams (the word padded with a space each side),
/// each packed in a `u64`, sorted and distinct.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
struct Trigrams(Box<[u64]>);

impl Trigrams {
    fn of(word: &str) -> Trigrams {
        let padded: Vec<char> = std::iter::once(' ').chain(word.chars()).chain(std::iter::once(' ')).collect();
        let mut packed: Vec<u64> =
            padded.windows(3).map(|t| (u64::from(t[0]) << 42) | (u64::from(t[1]) << 21) | u64::from(t[2])).collect();
        packed.sort_unstable();
        packed.dedup();
        Trigrams(packed.into_boxed_slice())
    }

    /// Dice over the two sets.
    fn dice(&self, other: &Trigrams) -> f32 {
        let (a, b) = (&self.0, &other.0);
        let (mut i, mut j, mut shared) = (0, 0, 0usize);
        while i < a.len() && j < b.len() {
            match a[i].cmp(&b[j]) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    shared += 1;
                    i += 1;
                    j += 1;
                }
            }
        }
        2.0 * shared as f32 / (a.len() + b.len()).max(1) as f32
    }
}

/// The stop words a typo may stand for (six letters or more), with
/// their trigrams.
static LONG_STOPS: std::sync::LazyLock<Vec<Trigrams>> =
    std::sync::LazyLock::new(|| STOP_EN.iter().filter(|s| s.len() >= 6).map(|s| Trigrams::of(s)).collect());

/// Words that carry no content in a yes/no question.
const STOP_EN: &[&str] = &[
    "a",
    "an",
    "the",
    "is",
    "was",
    "are",
    "were",
    "be",
    "been",
    "being",
    "am",
    "did",
    "do",
    "does",
    "done",
    "to",
    "of",
    "and",
    "or",
    "at",
    "by",
    "for",
    "that",
    "this",
    "these",
    "those",
    "it",
    "its",
    "s",
    "d",
    "ll",
    "re",
    "ve",
    "m",
    "there",
    "any",
    "some",
    "so",
    "just",
    "really",
    "actually",
    "very",
    "has",
    "have",
    "had",
    "can",
    "could",
    "would",
    "will",
    "should",
    "as",
    "from",
    "into",
    "about",
    "like",
    "then",
    "than",
    "also",
    "still",
    "yes",
    "ok",
    "okay",
    "hmm",
    "um",
    "uh",
    "lol",
    "pls",
    "please",
    "question",
    "q",
    "because",
    "since",
    "which",
    "with",
    "i",
    "me",
    "my",
    "we",
    "us",
    "our",
    "you",
    "your",
    "thing",
    "something",
    "anything",
    "somebody",
    "someone",
    "anyone",
    "anybody",
    "get",
    "got",
    "go",
    "went",
    "what",
    "who",
    // Chat around an ask ("ok so maybe …", "omg was it …").
    "maybe",
    "perhaps",
    "probably",
    "basically",
    "literally",
    "kinda",
    "sorta",
    "yeah",
    "yep",
    "oh",
    "ah",
    "huh",
    "idk",
    "omg",
    "guys",
    "hm",
    "hmmm",
];
/// Negations, counted for a sentence's polarity ("t" is what is left of "didn't").
const NEGATIONS_EN: &[&str] =
    &["not", "no", "never", "nobody", "nothing", "none", "neither", "nor", "t", "without", "noone"];
/// Chinese question forms that contain a negation but ask plainly.
const ZH_PLAIN_ASKS: &[&str] =
    &["是不是", "有没有", "会不会", "能不能", "对不对", "是否", "可不可以", "要不要", "好不好"];
const ZH_NEGATIONS: &[char] = &['不', '没', '未', '无', '别', '非'];
/// Words with a negation character that negate nothing ("特别好吗" asks
/// whether it is good, "别人" is someone else): read as plain words.
const ZH_NOT_NEGATIONS: &[&str] = &[
    "特别",
    "区别",
    "分别",
    "差别",
    "辨别",
    "告别",
    "离别",
    "别人",
    "别的",
    "性别",
    "级别",
    "类别",
    "个别",
    "差不多",
    "不一定",
    "不得不",
    "无论",
    "无数",
    "无意",
    "没收",
    "非常",
    "未来",
    "莫非",
    "不错",
];
/// Chat around a Chinese ask: openers and tags that ask nothing themselves
/// ("等等，所以说…", "难道…", "…了对吧"; not the 对 of "猜对吧"). "难道不是…"
/// asks "wasn't it …" plainly: its 不 negates nothing.
const ZH_CHATTER: &[&str] = &[
    "所以说",
    "也就是说",
    "就是说",
    "等等",
    "难道不",
    "难道",
    "，对吧",
    ",对吧",
    "了对吧",
    "的对吧",
    "，对吗",
    ",对吗",
];
/// Characters that only make a Chinese sentence a question or soften it.
const ZH_FILLER: &[char] =
    &['吗', '呢', '吧', '啊', '呀', '么', '嘛', '的', '了', '是', '有', '个', '这', '那', '请', '问', '嗯', '哦', '呃'];

/// A text's matching features in its language.
pub fn features(text: &str, language: Language) -> Features {
    match language {
        Language::Zh if text.chars().any(is_cjk) => zh_features(text),
        _ => en_features(text),
    }
}

fn en_features(text: &str) -> Features {
    // "free of snow" says "no snow": a negation too.
    let lower = text.to_lowercase().replace("n't", " not").replace("no one", "noone").replace("free of", "no");
    let normalized = normalize_question(&lower);
    let words: Vec<&str> = normalized.split(' ').filter(|w| !w.is_empty()).collect();
    let negations = words.iter().filter(|w| NEGATIONS_EN.contains(w)).count();
    let mut grams: Vec<String> = Vec::new();
    for w in words.iter().filter(|w| !NEGATIONS_EN.contains(w) && !is_stop(w)) {
        let stemmed = stem(w);
        if !grams.contains(&stemmed) {
            grams.push(stemmed);
        }
    }
    let trigrams = grams.iter().map(|g| Trigrams::of(g)).collect();
    Features { grams, trigrams, fuzzy: true, negated: negations % 2 == 1 }
}

/// A stop word, or a typo of a long one ("somone").
fn is_stop(word: &str) -> bool {
    if STOP_EN.contains(&word) {
        return true;
    }
    if word.len() < 5 {
        return false;
    }
    let own = Trigrams::of(word);
    LONG_STOPS.iter().any(|s| own.dice(s) >= 0.6)
}

/// A light English stem: plurals and common endings, so "died", "dies"
/// and "die" meet.
fn stem(word: &str) -> String {
    let w = word.to_lowercase();
    for suffix in ["ing", "ed", "es", "s", "ly"] {
        if w.len() >= suffix.len() + 2 && w.ends_with(suffix) && !w.ends_with("ss") {
            let base = &w[..w.len() - suffix.len()];
            return base.trim_end_matches('e').to_string();
        }
    }
    w.trim_end_matches('e').to_string()
}

fn zh_features(text: &str) -> Features {
    // "他死了马": 吗 typed as its homophone after 了.
    let mut plain = match text.trim_end_matches(|c: char| !is_cjk(c)).strip_suffix("了马") {
        Some(head) => format!("{head}了吗"),
        None => text.to_string(),
    };
    for ask in ZH_PLAIN_ASKS.iter().chain(ZH_CHATTER) {
        plain = plain.replace(ask, " ");
    }
    let negations = ZH_NOT_NEGATIONS
        .iter()
        .fold(plain.clone(), |t, word| t.replace(word, " "))
        .chars()
        .filter(|c| ZH_NEGATIONS.contains(c))
        .count();
    let chars: Vec<char> =
        plain.chars().filter(|c| is_cjk(*c) && !ZH_FILLER.contains(c) && !ZH_NEGATIONS.contains(c)).collect();
    let mut grams: Vec<String> = Vec::new();
    let mut add = |g: String| {
        if !grams.contains(&g) {
            grams.push(g);
        }
    };
    chars.windows(2).for_each(|w| add(w.iter().collect()));
    if chars.len() < 3 {
        chars.iter().for_each(|c| add(c.to_string()));
    }
    // Latin words inside a Chinese question (names, numbers) count whole.
    normalize_question(text)
        .split(' ')
        .filter(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric()))
        .for_each(|w| add(w.to_string()));
    Features { grams, trigrams: Vec::new(), fuzzy: false, negated: negations % 2 == 1 }
}

/// Whether two questions ask the same thing by their words, negated or
/// not (the puzzle lint's twins): a server's correction replaces them.
pub fn same_question(a: &str, b: &str, language: Language) -> bool {
    dice(&features(a, language), &features(b, language)) >= TWIN
}

/// A question's words (content words or character pairs), sorted: the
/// same for "Did he die?" and "did he die".
pub fn words_key(text: &str, language: Language) -> String {
    let mut grams = features(text, language).grams;
    grams.sort();
    grams.dedup();
    grams.join(" ")
}

/// FNV-1a over `parts`, each ended by a zero byte: the same in every
/// process and every Rust release.
pub fn fingerprint<'a>(parts: impl IntoIterator<Item = &'a str>) -> u64 {
    let bytes = parts.into_iter().flat_map(|p| p.bytes().chain([0]));
    bytes.fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// Each puzzle's prepared known answers, built once per process (and again
/// when a puzzle's known answers change). A cell per key, so a game's
/// warm-up and its first question share one preparation.
static PREPARED: Mutex<Option<Memo>> = Mutex::new(None);

type Memo = HashMap<String, Arc<OnceCell<Arc<Known>>>>;

/// The puzzle's known answers and facts, with vectors when `embedder` is
/// at hand; prepared once per process and kept, the vectors read from
/// `cache` when an earlier process stored them.
pub async fn prepared(
    puzzle: &Puzzle,
    embedder: Option<&Arc<dyn Embedder>>,
    cache: Option<&Arc<dyn VectorCache>>,
) -> Arc<Known> {
    // A server's corrections change a question's verdict, not always its
    // count or length: the key reads every question and verdict.
    let known = puzzle.known.iter().flat_map(|k| [k.question.as_str(), k.verdict.as_str()]);
    let key = format!(
        "{}#{:x}#{:x}#{}",
        puzzle.id,
        fingerprint(known),
        fingerprint(puzzle.facts.iter().flat_map(Fact::statements)),
        embedder.map(|e| e.describe()).unwrap_or_default()
    );
    let cell = PREPARED
        .lock()
        .map(|mut memo| memo.get_or_insert_with(HashMap::new).entry(key).or_default().clone())
        .unwrap_or_default();
    let prepare = || async {
        let known = Known::new(puzzle);
        let Some(embedder) = embedder else { return Arc::new(known) };
        let texts = Known::texts(puzzle);
        match vectors_for(&puzzle.id, &texts, embedder.as_ref(), cache.map(Arc::as_ref)).await {
            Some(vectors) => Arc::new(known.with_vectors(vectors)),
            None => Arc::new(known),
        }
    };
    cell.get_or_init(prepare).await.clone()
}

/// One vector for each of `texts` by `embedder`: read from `cache` when
/// it holds them all, else embedded and stored there. Keyed by the
/// embedder and the texts themselves, so an edited puzzle, a changed
/// normalisation or another model never reads old vectors.
async fn vectors_for(
    puzzle_id: &str,
    texts: &[String],
    embedder: &dyn Embedder,
    cache: Option<&dyn VectorCache>,
) -> Option<Vec<Vec<f32>>> {
    let key = format!(
        "known:{puzzle_id}:{:016x}",
        fingerprint([embedder.describe().as_str()].into_iter().chain(texts.iter().map(String::as_str)))
    );
    let fits =
        |vectors: &[Vec<f32>]| vectors.len() == texts.len() && vectors.iter().all(|v| v.len() == embedder.dimensions());
    if let Some(cache) = cache
        && let Some(vectors) = cache.load(&key).await
        && fits(&vectors)
    {
        return Some(vectors);
    }
    let vectors = embedder.embed(texts).await.ok().filter(|v| fits(v))?;
    if let Some(cache) = cache {
        cache.save(&key, &vectors).await;
    }
    Some(vectors)
}

#[cfg(test)]
mod tests;
