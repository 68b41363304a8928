//! Normalisation for leak matching: every way of writing the same words
//! should land on one "skeleton" string.
//!
//! Two stages. `clean` keeps the text's shape (separators, word breaks) but
//! folds case, width (NFKD), diacritics, look-alike letters and traditional
//! Chinese; the encoders in `decode` and the tokenisers in `spans` work on
//! it. `skeleton` then drops everything that is not a letter or digit and
//! maps leetspeak, so "B.i.r.t.h  f4th3r" and "birth father" compare equal.
//! The secret spans are folded by the same functions, so both sides always
//! agree; the folding is lossy on purpose (l, 1 and i become one letter).

use std::borrow::Cow;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Han ideographs and kana: one token per character.
pub(super) fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x2FA1F)
}

/// Traditional Chinese characters become simplified ones, so a leak written
/// in either script meets spans built from the other.
fn to_simplified(text: &str) -> Cow<'_, str> {
    if text.chars().any(is_cjk) { Cow::Owned(fast2s::convert(text)) } else { Cow::Borrowed(text) }
}

/// Lower case, compatibility-decomposed (full width becomes ASCII), marks
/// dropped, look-alike letters mapped, simplified Chinese; punctuation and
/// line breaks are kept so words and lines can still be found.
pub(super) fn clean(text: &str) -> Vec<char> {
    let simplified = to_simplified(text);
    let mut out = Vec::with_capacity(simplified.len());
    for c in simplified.nfkd().filter(|c| !is_combining_mark(*c) && !is_invisible(*c)) {
        for lower in c.to_lowercase() {
            out.push(confusable(lower));
        }
    }
    out
}

/// Zero-width and bidi control characters, a common way to split a word so
/// that exact matching misses it.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{00AD}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}')
}

/// Cyrillic and Greek letters that look like Latin ones.
fn confusable(c: char) -> char {
    match c {
        'а' | 'α' => 'a',
        'в' | 'β' | 'ь' => 'b',
        'с' | 'ϲ' => 'c',
        'ԁ' => 'd',
        'е' | 'ε' => 'e',
        'һ' | 'н' => 'h',
        'і' | 'ι' | 'ı' => 'i',
        'ј' => 'j',
        'к' | 'κ' => 'k',
        'м' => 'm',
        'о' | 'ο' | 'σ' => 'o',
        'р' | 'ρ' => 'p',
        'ѕ' => 's',
        'т' | 'τ' => 't',
        'υ' => 'u',
        'ν' => 'v',
        'ш' | 'ω' => 'w',
        'х' | 'χ' => 'x',
        'у' | 'γ' => 'y',
        _ => c,
    }
}

/// One character of `clean` text in the skeleton alphabet, or `None` for a
/// separator. `joined` says whether letters stand on both sides, which is
/// when "!", "|" and "+" are leetspeak rather than punctuation.
fn fold(c: char, joined: bool) -> Option<char> {
    let folded = match c {
        'l' | '1' => 'i',
        '0' => 'o',
        '2' => 'z',
        '3' => 'e',
        '4' | '@' => 'a',
        '5' | '$' => 's',
        '6' | '8' => 'b',
        '7' => 't',
        '9' => 'g',
        '!' | '|' if joined => 'i',
        '+' if joined => 't',
        c if c.is_alphanumeric() => c,
        _ => return None,
    };
    Some(folded)
}

/// The skeleton of already-cleaned characters: letters and digits only,
/// leetspeak folded.
pub(super) fn skeleton_of(chars: &[char]) -> String {
    let mut out = String::with_capacity(chars.len());
    for (i, &c) in chars.iter().enumerate() {
        let before = i > 0 && chars[i - 1].is_alphanumeric();
        let after = chars.get(i + 1).is_some_and(|n| n.is_alphanumeric());
        if let Some(f) = fold(c, before && after) {
            out.push(f);
        }
    }
    out
}

/// `clean` then `skeleton_of`.
pub(super) fn skeleton(text: &str) -> String {
    skeleton_of(&clean(text))
}

/// The same skeleton read backwards.
pub(super) fn reversed(skel: &str) -> String {
    skel.chars().rev().collect()
}

/// Words of cleaned text: runs of letters and digits (apostrophes split, so
/// "camera's" gives "camera" and "s"). Han characters are never part of a
/// word here; `han_runs` handles them.
pub(super) fn words(chars: &[char]) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for &c in chars {
        if c.is_alphanumeric() && !is_cjk(c) {
            current.push(c);
        } else if !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// Maximal runs of Han characters (simplified), split at anything else.
pub(super) fn han_runs(chars: &[char]) -> Vec<Vec<char>> {
    chars.split(|c| !is_cjk(*c)).filter(|run| !run.is_empty()).map(<[char]>::to_vec).collect()
}

/// Splits cleaned text into clauses at punctuation and line breaks, the
/// units within which secret spans are cut.
pub(super) fn clauses(chars: &[char]) -> Vec<&[char]> {
    chars.split(|c| is_clause_break(*c)).filter(|clause| !clause.is_empty()).collect()
}

fn is_clause_break(c: char) -> bool {
    matches!(
        c,
        '.' | ',' | ';' | ':' | '!' | '?' | '(' | ')' | '"' | '\n' | '\u{201C}' | '\u{201D}' | '\u{2014}' | '\u{2013}'
    ) || matches!(c, '\u{3001}' | '\u{3002}' | '\u{FF0C}' | '\u{FF1B}' | '\u{FF1A}' | '\u{FF01}' | '\u{FF1F}')
}
