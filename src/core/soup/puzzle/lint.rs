//! Content lint for puzzles, by string checks alone (no model): a hint
//! that hands out a required fact word for word, a surface that already
//! states the answer, and a key fact the bottom does not support. Part of
//! `Puzzle::validate`, so `echoes puzzles check` and a moderator's
//! `puzzle add` both report them.

use std::collections::HashSet;

use super::{Problem, Puzzle, problem};

use crate::core::text::{distinct_runs, shares_run, tokens};
use crate::core::vocab::Language;

/// A hint may not repeat this many consecutive words (en) of a required
/// fact, unless the surface already shows them.
const FACT_RUN_WORDS: usize = 4;
/// ... or this many consecutive characters (zh).
const FACT_RUN_CHARS: usize = 6;
/// A surface that repeats this many consecutive words (en) or characters
/// (zh) of the bottom is telling the story, not setting the riddle.
const SURFACE_RUN_WORDS: usize = 9;
const SURFACE_RUN_CHARS: usize = 14;
/// A fact whose content words are less than this share in the bottom is
/// not supported by it. Low on purpose: facts paraphrase the bottom
/// ("wild animals kept triggering the light" for "a fox, cat or hedgehog
/// ... the lamp snapped on"); this catches a fact about another story.
const MIN_SUPPORT: f32 = 0.2;

/// English words that carry no content of their own.
const STOP_WORDS: [&str; 40] = [
    "that", "this", "with", "from", "they", "them", "their", "there", "were", "was", "have", "had", "been", "into",
    "because", "when", "what", "which", "would", "could", "should", "about", "after", "before", "then", "than", "only",
    "also", "just", "even", "some", "very", "much", "more", "most", "other", "every", "will", "being", "does",
];

/// Chinese function characters that carry no content of their own.
const FUNCTION_CHARS: &str = "的了是在他她它们有和与就也都不这那一个人着把被给对说到要会能所以因为为而且但是得地之其";

impl Puzzle {
    pub(super) fn lint(&self, out: &mut Vec<Problem>) {
        self.lint_hints(out);
        self.lint_surface(out);
        self.lint_facts(out);
        self.lint_known(out);
    }

    /// The known answers: none repeats the bottom word for word, none is
    /// listed twice, no two near-identical questions get different
    /// verdicts, and none answers NO to what a key fact states.
    fn lint_known(&self, out: &mut Vec<Problem>) {
        use super::known::{Known, features};
        let run = match self.language {
            Language::En => SURFACE_RUN_WORDS,
            Language::Zh => SURFACE_RUN_CHARS,
        };
        let bottom = distinct_runs(&self.bottom, self.language, run);
        let known = Known::new(self);
        // The first known answer with each question's features.
        let mut first: std::collections::HashMap<_, usize> = std::collections::HashMap::new();
        for (i, k) in self.known.iter().enumerate() {
            let at = format!("known[{i}].question");
            if shares_run(&k.question, self.language, run, &bottom) {
                out.push(problem(&at, "repeats the bottom word for word; ask it as a player would"));
            }
            let j = *first.entry(features(&k.question, self.language)).or_insert(i);
            if j != i {
                out.push(problem(&at, format!("is known[{j}] again")));
                continue;
            }
            if let Some(twin) = known.twin_of(i) {
                let reason = format!(
                    "says {} where the near-identical known[{}] says {}",
                    k.verdict.as_str(),
                    twin.0,
                    twin.1.as_str()
                );
                out.push(problem(&at, reason));
            }
            if k.verdict == crate::core::game::record::Verdict::No
                && let Some(fact) = known.fact_stated_by(&k.question)
            {
                out.push(problem(&at, format!("says NO to what the key fact {fact} states")));
            }
        }
    }

    fn lint_hints(&self, out: &mut Vec<Problem>) {
        let run = match self.language {
            Language::En => FACT_RUN_WORDS,
            Language::Zh => FACT_RUN_CHARS,
        };
        let shown = distinct_runs(&self.surface, self.language, run);
        for fact in self.facts.iter().filter(|f| f.required) {
            let runs: HashSet<String> =
                distinct_runs(&fact.text, self.language, run).difference(&shown).cloned().collect();
            for (i, hint) in self.hints.iter().enumerate() {
                if shares_run(hint, self.language, run, &runs) {
                    let reason = format!("gives away the required fact {} word for word; hint at it instead", fact.id);
                    out.push(problem(&format!("hints[{i}]"), reason));
                }
            }
        }
    }

    fn lint_surface(&self, out: &mut Vec<Problem>) {
        let run = match self.language {
            Language::En => SURFACE_RUN_WORDS,
            Language::Zh => SURFACE_RUN_CHARS,
        };
        let bottom = distinct_runs(&self.bottom, self.language, run);
        if shares_run(&self.surface, self.language, run, &bottom) {
            out.push(problem("surface", "already tells part of the bottom word for word; keep the answer out of it"));
        }
    }

    fn lint_facts(&self, out: &mut Vec<Problem>) {
        let bottom = tokens(&self.bottom, self.language);
        for (i, fact) in self.facts.iter().enumerate() {
            let words = content_tokens(&fact.text, self.language);
            if words.len() < 2 {
                continue;
            }
            let found = words.iter().filter(|w| supported(w, &bottom, self.language)).count();
            if (found as f32) < MIN_SUPPORT * words.len() as f32 {
                let missing: Vec<&str> = words
                    .iter()
                    .filter(|w| !supported(w, &bottom, self.language))
                    .map(String::as_str)
                    .take(6)
                    .collect();
                let reason = format!("is not supported by the bottom (it never mentions: {})", missing.join(", "));
                out.push(problem(&format!("facts[{i}].text"), reason));
            }
        }
    }
}

/// The words (en) or characters (zh) of `text` that carry content.
fn content_tokens(text: &str, language: Language) -> Vec<String> {
    let mut seen = HashSet::new();
    tokens(text, language)
        .into_iter()
        .filter(|t| match language {
            Language::En => t.chars().count() >= 4 && !STOP_WORDS.contains(&t.as_str()),
            Language::Zh => t.chars().all(crate::core::text::is_cjk) && !FUNCTION_CHARS.contains(t.as_str()),
        })
        .filter(|t| seen.insert(t.clone()))
        .collect()
}

/// Whether the bottom has this word: the same word, one sharing its first
/// five letters ("drowned" / "drowning") or one containing it
/// ("light" / "floodlight").
fn supported(word: &str, bottom: &[String], language: Language) -> bool {
    match language {
        Language::Zh => bottom.iter().any(|b| b == word),
        Language::En => {
            let stem: String = word.chars().take(5).collect();
            let long = stem.chars().count() == 5;
            bottom.iter().any(|b| b == word || (long && (b.starts_with(&stem) || b.contains(word))))
        }
    }
}
