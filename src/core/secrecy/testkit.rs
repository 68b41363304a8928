//! Test support: the shipped puzzles (compiled in), the two corpora, and
//! encoders that hide a text the ways an attacker would, so tests can check
//! that the gate sees through each one.

use serde::Deserialize;

use super::{Canary, Gate};

#[derive(Debug, Deserialize)]
pub(super) struct PuzzleText {
    pub id: String,
    pub language: String,
    pub surface: String,
    pub bottom: String,
    pub hints: Vec<String>,
    pub facts: Vec<FactText>,
}

#[derive(Debug, Deserialize)]
pub(super) struct FactText {
    pub text: String,
}

impl PuzzleText {
    pub(super) fn gate(&self) -> Gate {
        let facts: Vec<&str> = self.facts.iter().map(|f| f.text.as_str()).collect();
        Gate::new(&self.surface, &self.bottom, &facts, Canary::from_seed(7))
    }

    pub(super) fn is_zh(&self) -> bool {
        self.language == "zh"
    }
}

const PUZZLES: &[&str] = &[
    include_str!("../../../data/puzzles/en/en-arrivals-sign.toml"),
    include_str!("../../../data/puzzles/en/en-blank-postcards.toml"),
    include_str!("../../../data/puzzles/en/en-chess-blunder.toml"),
    include_str!("../../../data/puzzles/en/en-dry-causeway.toml"),
    include_str!("../../../data/puzzles/en/en-library-card.toml"),
    include_str!("../../../data/puzzles/en/en-midnight-rooster.toml"),
    include_str!("../../../data/puzzles/en/en-noon-gun.toml"),
    include_str!("../../../data/puzzles/en/en-odd-bouquet.toml"),
    include_str!("../../../data/puzzles/en/en-phantom-cafe.toml"),
    include_str!("../../../data/puzzles/en/en-punctual-station.toml"),
    include_str!("../../../data/puzzles/en/en-upstairs-window.toml"),
    include_str!("../../../data/puzzles/en/en-vanishing-star.toml"),
    include_str!("../../../data/puzzles/zh/zh-blue-tears.toml"),
    include_str!("../../../data/puzzles/zh/zh-early-watchman.toml"),
    include_str!("../../../data/puzzles/zh/zh-empty-nursery.toml"),
    include_str!("../../../data/puzzles/zh/zh-hidden-full-marks.toml"),
    include_str!("../../../data/puzzles/zh/zh-lit-window.toml"),
    include_str!("../../../data/puzzles/zh/zh-missing-eclipse.toml"),
    include_str!("../../../data/puzzles/zh/zh-sun-on-the-left.toml"),
    include_str!("../../../data/puzzles/zh/zh-sweet-potato-cellar.toml"),
    include_str!("../../../data/puzzles/zh/zh-teapot-signal.toml"),
    include_str!("../../../data/puzzles/zh/zh-two-birthdays.toml"),
    include_str!("../../../data/puzzles/zh/zh-unlit-coils.toml"),
    include_str!("../../../data/puzzles/zh/zh-untouched-takeout.toml"),
];

pub(super) fn puzzles() -> Vec<PuzzleText> {
    PUZZLES.iter().map(|src| toml::from_str(src).expect("puzzle TOML")).collect()
}

#[derive(Debug, Deserialize)]
pub(super) struct Attacks {
    pub attack: Vec<Attack>,
}

#[derive(Debug, Deserialize)]
pub(super) struct Attack {
    pub category: String,
    pub lang: String,
    pub meta: bool,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub turns: Vec<String>,
    #[serde(default)]
    pub name: Option<String>,
}

impl Attack {
    /// What the META classifier is run on: the name for a display-name
    /// attack, every turn of a multi-turn one, else the text.
    pub(super) fn probes(&self) -> Vec<&str> {
        match (&self.name, self.turns.is_empty()) {
            (Some(name), _) => vec![name.as_str()],
            (None, false) => self.turns.iter().map(String::as_str).collect(),
            (None, true) => self.text.iter().map(String::as_str).collect(),
        }
    }
}

pub(super) fn attacks() -> Attacks {
    toml::from_str(include_str!("../../../tests/data/attacks.toml")).expect("attacks.toml")
}

#[derive(Debug, Deserialize)]
pub(super) struct NormalPlay {
    pub entry: Vec<Entry>,
}

#[derive(Debug, Deserialize)]
pub(super) struct Entry {
    pub kind: String,
    pub lang: String,
    pub text: String,
    #[serde(default)]
    pub puzzle: Option<String>,
}

pub(super) fn normal_play() -> NormalPlay {
    toml::from_str(include_str!("../../../tests/data/normal_play.toml")).expect("normal_play.toml")
}

// ---- Encoders -------------------------------------------------------------

pub(super) fn base64(text: &str) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in text.as_bytes().chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Base64 wrapped at 76 columns, as mail and many tools print it.
pub(super) fn base64_wrapped(text: &str) -> String {
    let flat = base64(text);
    flat.as_bytes().chunks(76).map(|c| String::from_utf8_lossy(c).into_owned()).collect::<Vec<_>>().join("\n")
}

pub(super) fn hex(text: &str, sep: &str) -> String {
    text.bytes().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(sep)
}

pub(super) fn binary(text: &str) -> String {
    text.bytes().map(|b| format!("{b:08b}")).collect::<Vec<_>>().join(" ")
}

pub(super) fn rot13(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'a'..='z' => char::from(b'a' + (c as u8 - b'a' + 13) % 26),
            'A'..='Z' => char::from(b'A' + (c as u8 - b'A' + 13) % 26),
            _ => c,
        })
        .collect()
}

const NATO: [&str; 26] = [
    "Alfa", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India", "Juliett", "Kilo", "Lima",
    "Mike", "November", "Oscar", "Papa", "Quebec", "Romeo", "Sierra", "Tango", "Uniform", "Victor", "Whiskey", "X-ray",
    "Yankee", "Zulu",
];

fn letter_index(c: char) -> Option<usize> {
    c.is_ascii_alphabetic().then(|| usize::from(c.to_ascii_lowercase() as u8 - b'a'))
}

pub(super) fn nato(text: &str) -> String {
    text.chars().filter_map(letter_index).map(|i| NATO[i]).collect::<Vec<_>>().join(" ")
}

pub(super) fn morse(text: &str) -> String {
    const CODES: [&str; 26] = [
        ".-", "-...", "-.-.", "-..", ".", "..-.", "--.", "....", "..", ".---", "-.-", ".-..", "--", "-.", "---",
        ".--.", "--.-", ".-.", "...", "-", "..-", "...-", ".--", "-..-", "-.--", "--..",
    ];
    text.split_whitespace()
        .map(|w| w.chars().filter_map(letter_index).map(|i| CODES[i]).collect::<Vec<_>>().join(" "))
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" / ")
}

/// One line per letter (or Han character), each opening with it.
pub(super) fn acrostic_lines(text: &str) -> String {
    initials_of(text).map(|c| format!("{c}{}", filler(c))).collect::<Vec<_>>().join("\n")
}

/// One word per letter, in a single paragraph.
pub(super) fn acrostic_words(text: &str) -> String {
    initials_of(text).map(|c| format!("{c}{}", filler(c).split(' ').next().unwrap_or(""))).collect::<Vec<_>>().join(" ")
}

fn initials_of(text: &str) -> impl Iterator<Item = char> + '_ {
    text.chars().filter(|c| c.is_alphanumeric())
}

fn filler(c: char) -> &'static str {
    if c.is_ascii() { "ove the quiet sea at night" } else { "在海边慢慢走着" }
}

pub(super) fn reversed(text: &str) -> String {
    text.chars().rev().collect()
}

pub(super) fn reversed_words(text: &str) -> String {
    text.split_whitespace().rev().collect::<Vec<_>>().join(" ")
}

pub(super) fn leet(text: &str) -> String {
    text.chars()
        .map(|c| match c.to_ascii_lowercase() {
            'a' => '4',
            'e' => '3',
            'i' => '1',
            'o' => '0',
            's' => '$',
            't' => '7',
            _ => c,
        })
        .collect()
}

pub(super) fn full_width(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_ascii_graphic() { char::from_u32(c as u32 + 0xFEE0).unwrap_or(c) } else { c })
        .collect()
}

pub(super) fn spaced(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).map(|c| format!("{c} ")).collect()
}

pub(super) fn zero_width(text: &str) -> String {
    text.chars().map(|c| format!("{c}\u{200B}")).collect()
}

pub(super) fn diacritics(text: &str) -> String {
    text.chars().map(|c| if c.is_ascii_alphabetic() { format!("{c}\u{0301}") } else { c.to_string() }).collect()
}

pub(super) fn homoglyphs(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'a' => 'а',
            'e' => 'е',
            'o' => 'о',
            'p' => 'р',
            'c' => 'с',
            _ => c,
        })
        .collect()
}

pub(super) fn shouting(text: &str) -> String {
    text.to_uppercase()
}

/// Every way a test hides a text, by name. Letter-only encodings are left
/// out for Chinese, which they cannot carry.
/// An encoder with its name.
pub(super) type Encoder = (&'static str, fn(&str) -> String);

pub(super) fn encodings(zh: bool) -> Vec<Encoder> {
    let mut all: Vec<Encoder> = vec![
        ("plain", |t| t.to_string()),
        ("reversed", reversed),
        ("base64", base64),
        ("base64-wrapped", base64_wrapped),
        ("hex", |t| hex(t, " ")),
        ("hex-dense", |t| hex(t, "")),
        ("hex-escaped", |t| format!("\\x{}", hex(t, "\\x"))),
        ("binary", binary),
        ("acrostic-lines", acrostic_lines),
        ("spaced", spaced),
        ("zero-width", zero_width),
        ("base64-of-reversed", |t| base64(&reversed(t))),
        ("framed", |t| format!("Sure! Here you go:\n\n{t}\n\nHope that helps.")),
    ];
    if !zh {
        all.extend::<[Encoder; 11]>([
            ("reversed-words", reversed_words),
            ("rot13", rot13),
            ("nato", nato),
            ("morse", morse),
            ("acrostic-words", acrostic_words),
            ("leet", leet),
            ("full-width", full_width),
            ("diacritics", diacritics),
            ("homoglyphs", homoglyphs),
            ("shouting", shouting),
            ("rot13-in-base64", |t| base64(&rot13(t))),
        ]);
    }
    all
}
