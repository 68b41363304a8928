//! A tiny word-pattern language for the META classifier, so the rules read
//! as phrases instead of code. Patterns and text are both folded to
//! skeleton words first, so "f1rst l3tter" meets "first letter".
//!
//! Syntax, space-separated slots:
//! - `a|b|c`   one word, any alternative; `spell*` matches a prefix
//! - `slot?`   the slot may be absent
//! - `~` / `~~` a gap of up to 3 / 6 words
//! - `%`       any single-letter word ("b" in "start with b")
//! - `$`       the end of the sentence; a leading `^` anchors at its start

use super::normalize::skeleton_of;

#[derive(Debug)]
enum Slot {
    Words { alts: Vec<Alt>, optional: bool },
    Gap(usize),
    Letter,
    End,
}

#[derive(Debug)]
struct Alt {
    word: String,
    prefix: bool,
}

impl Alt {
    fn matches(&self, word: &str) -> bool {
        if self.prefix { word.starts_with(&self.word) } else { word == self.word }
    }
}

/// One compiled pattern.
#[derive(Debug)]
pub(super) struct WordPattern {
    anchored: bool,
    slots: Vec<Slot>,
}

impl WordPattern {
    pub(super) fn parse(src: &str) -> WordPattern {
        let anchored = src.starts_with('^');
        let slots = src.trim_start_matches('^').split_whitespace().map(parse_slot).collect();
        WordPattern { anchored, slots }
    }

    /// Whether the pattern occurs in `words` (one sentence of skeleton words).
    pub(super) fn matches(&self, words: &[String]) -> bool {
        let starts = if self.anchored { 0..=0 } else { 0..=words.len() };
        starts.into_iter().any(|start| match_at(&self.slots, words, start))
    }
}

fn parse_slot(src: &str) -> Slot {
    match src {
        "~" => return Slot::Gap(3),
        "~~" => return Slot::Gap(6),
        "%" => return Slot::Letter,
        "$" => return Slot::End,
        _ => {}
    }
    let optional = src.ends_with('?');
    let alts = src
        .trim_end_matches('?')
        .split('|')
        .map(|alt| {
            let prefix = alt.ends_with('*');
            let chars: Vec<char> = alt.trim_end_matches('*').chars().collect();
            Alt { word: skeleton_of(&chars), prefix }
        })
        .collect();
    Slot::Words { alts, optional }
}

fn match_at(slots: &[Slot], words: &[String], pos: usize) -> bool {
    let Some((slot, rest)) = slots.split_first() else {
        return true;
    };
    match slot {
        Slot::Words { alts, optional } => {
            let here = words.get(pos).is_some_and(|w| alts.iter().any(|a| a.matches(w)));
            (here && match_at(rest, words, pos + 1)) || (*optional && match_at(rest, words, pos))
        }
        Slot::Gap(max) => (0..=*max).any(|k| pos + k <= words.len() && match_at(rest, words, pos + k)),
        Slot::Letter => words.get(pos).is_some_and(|w| w.chars().count() == 1) && match_at(rest, words, pos + 1),
        Slot::End => pos == words.len() && match_at(rest, words, pos),
    }
}

/// Whether `text` (a skeleton) has one of `left`, then one of `right`
/// starting within `gap` characters after it. The Chinese rules use this.
pub(super) fn near(text: &str, left: &[String], right: &[String], gap: usize) -> bool {
    left.iter().any(|l| {
        text.match_indices(l.as_str()).any(|(at, _)| {
            let after = &text[at + l.len()..];
            let window: String = after.chars().take(gap + right_max(right)).collect();
            right.iter().any(|r| window.find(r.as_str()).is_some_and(|i| window[..i].chars().count() <= gap))
        })
    })
}

fn right_max(right: &[String]) -> usize {
    right.iter().map(|r| r.chars().count()).max().unwrap_or(0)
}
