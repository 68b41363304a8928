//! Hidden channels: the ways a text can carry words without showing them.
//! Each function here finds one kind of encoding in a message and returns
//! what it decodes to; the gate then checks that text like any other.
//!
//! The decoders are lenient and never fail: a run that is not really
//! encoded decodes to noise, and noise matches no secret span.

use super::normalize::{is_cjk, skeleton_of, words};

/// Shortest base64 run worth decoding (12 bytes of payload).
const MIN_BASE64: usize = 16;
/// Shortest hex run worth decoding (8 bytes).
const MIN_HEX_DIGITS: usize = 16;
/// Fewest code words in a row (NATO, Morse) that make a spelling.
const MIN_CODE_WORDS: usize = 4;

/// Base64 runs (standard or URL alphabet, padding optional, wrapped over
/// lines) decoded as UTF-8.
pub(super) fn base64_texts(raw: &str) -> Vec<String> {
    let is_b64 = |c: char| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=' | '-' | '_');
    let mut out = Vec::new();
    // A block chopped into short groups ("QW5h IGhh ZCBi") reads as one run
    // once the spacing is gone.
    let runs: Vec<&str> = raw.split_whitespace().collect();
    let chopped = runs.len() > 1 && runs[..runs.len() - 1].iter().all(|r| r.len() % 4 == 0);
    if chopped && runs.iter().all(|r| r.chars().all(is_b64)) {
        flush_base64(&mut runs.concat(), &mut out);
    }
    let mut group = String::new();
    for run in raw.split(|c: char| !is_b64(c)).filter(|r| !r.is_empty()) {
        group.push_str(run);
        // A wrapped block continues only after a full-length line.
        if run.len() < MIN_BASE64 {
            flush_base64(&mut group, &mut out);
        }
    }
    flush_base64(&mut group, &mut out);
    out
}

/// Single words that are whole base64 (`Y29mZmVl`): too short for the
/// run finder above, which would otherwise read ordinary words as code;
/// kept only when they decode to letters and spaces.
pub(super) fn base64_words(raw: &str) -> Vec<String> {
    raw.split_whitespace()
        .map(|t| t.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '='))
        .filter(|t| t.len() >= 4 && t.len() % 4 == 0 && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '='))
        .filter_map(|t| String::from_utf8(base64_bytes(t)).ok())
        .filter(|w| !w.is_empty() && w.chars().all(|c| c.is_alphabetic() || c == ' '))
        .collect()
}

fn flush_base64(group: &mut String, out: &mut Vec<String>) {
    let text = std::mem::take(group);
    if text.len() >= MIN_BASE64 {
        let bytes = base64_bytes(&text);
        if !bytes.is_empty() {
            out.push(String::from_utf8_lossy(&bytes).into_owned());
        }
    }
}

/// Decodes base64 leniently: padding and unknown characters are skipped and
/// a trailing partial byte is dropped.
fn base64_bytes(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for b in text.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => continue,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((acc >> bits) & 0xFF) as u8);
        }
    }
    out
}

/// Hex runs ("41 6e 61", "0x41,0x6e", "\x41\x6e", "%41%6E") decoded as UTF-8.
pub(super) fn hex_texts(raw: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut digits = String::new();
    for token in raw.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
        let stripped = token.replace("\\x", "").replace("0x", "").replace("0X", "").replace(['%', ':', '-'], "");
        if !stripped.is_empty() && stripped.chars().all(|c| c.is_ascii_hexdigit()) {
            digits.push_str(&stripped);
        } else {
            flush_hex(&mut digits, &mut out);
        }
    }
    flush_hex(&mut digits, &mut out);
    out
}

fn flush_hex(digits: &mut String, out: &mut Vec<String>) {
    let text = std::mem::take(digits);
    if text.len() >= MIN_HEX_DIGITS {
        let bytes: Vec<u8> = text
            .as_bytes()
            .chunks_exact(2)
            .filter_map(|pair| std::str::from_utf8(pair).ok().and_then(|p| u8::from_str_radix(p, 16).ok()))
            .collect();
        out.push(String::from_utf8_lossy(&bytes).into_owned());
    }
}

/// Runs of 8-bit binary groups ("01000001 01101110") decoded as UTF-8.
pub(super) fn binary_texts(raw: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut bits = String::new();
    for token in raw.split(|c: char| c.is_whitespace() || c == ',') {
        if !token.is_empty() && token.len() % 8 == 0 && token.bytes().all(|b| b == b'0' || b == b'1') {
            bits.push_str(token);
        } else {
            flush_binary(&mut bits, &mut out);
        }
    }
    flush_binary(&mut bits, &mut out);
    out
}

fn flush_binary(bits: &mut String, out: &mut Vec<String>) {
    let text = std::mem::take(bits);
    if text.len() >= 8 * MIN_CODE_WORDS {
        let bytes: Vec<u8> = text
            .as_bytes()
            .chunks_exact(8)
            .map(|byte| byte.iter().fold(0u8, |acc, b| (acc << 1) | (b - b'0')))
            .collect();
        out.push(String::from_utf8_lossy(&bytes).into_owned());
    }
}

/// Morse code ("-... .. .-. - ....", words split by "/") decoded to letters.
pub(super) fn morse_texts(raw: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut count = 0;
    for token in raw.split_whitespace() {
        let token: String = token.chars().map(morse_symbol).collect();
        match morse_letter(&token) {
            Some(letter) => {
                current.push(letter);
                count += 1;
            }
            None if token.chars().all(|c| c == '/' || c == '|') => current.push(' '),
            None => flush_code(&mut current, &mut count, &mut out),
        }
    }
    flush_code(&mut current, &mut count, &mut out);
    out
}

fn flush_code(current: &mut String, count: &mut usize, out: &mut Vec<String>) {
    if *count >= MIN_CODE_WORDS {
        out.push(current.clone());
    }
    current.clear();
    *count = 0;
}

/// Typographic dots and dashes as '.' and '-'.
fn morse_symbol(c: char) -> char {
    match c {
        '·' | '•' | '∙' => '.',
        '–' | '—' | '−' | '_' => '-',
        c => c,
    }
}

fn morse_letter(code: &str) -> Option<char> {
    const TABLE: [(&str, char); 36] = [
        (".-", 'a'),
        ("-...", 'b'),
        ("-.-.", 'c'),
        ("-..", 'd'),
        (".", 'e'),
        ("..-.", 'f'),
        ("--.", 'g'),
        ("....", 'h'),
        ("..", 'i'),
        (".---", 'j'),
        ("-.-", 'k'),
        (".-..", 'l'),
        ("--", 'm'),
        ("-.", 'n'),
        ("---", 'o'),
        (".--.", 'p'),
        ("--.-", 'q'),
        (".-.", 'r'),
        ("...", 's'),
        ("-", 't'),
        ("..-", 'u'),
        ("...-", 'v'),
        (".--", 'w'),
        ("-..-", 'x'),
        ("-.--", 'y'),
        ("--..", 'z'),
        ("-----", '0'),
        (".----", '1'),
        ("..---", '2'),
        ("...--", '3'),
        ("....-", '4'),
        (".....", '5'),
        ("-....", '6'),
        ("--...", '7'),
        ("---..", '8'),
        ("----.", '9'),
    ];
    TABLE.iter().find(|(c, _)| *c == code).map(|(_, l)| *l)
}

/// NATO phonetic spelling ("bravo india romeo tango hotel") as letters;
/// filler words ("space", "stop", "break") may stand between code words.
pub(super) fn nato_text(words: &[String]) -> Option<String> {
    let mut out = String::new();
    let mut current = String::new();
    let mut count = 0;
    let mut i = 0;
    while i < words.len() {
        let word = words[i].as_str();
        let x_ray = word == "x" && words.get(i + 1).is_some_and(|w| w == "ray");
        if let Some(letter) = if x_ray { Some('x') } else { nato_letter(word) } {
            current.push(letter);
            count += 1;
            i += if x_ray { 2 } else { 1 };
            continue;
        }
        if !matches!(word, "space" | "stop" | "break" | "dash" | "then") {
            let mut taken = Vec::new();
            flush_code(&mut current, &mut count, &mut taken);
            out.extend(taken);
        }
        i += 1;
    }
    let mut taken = Vec::new();
    flush_code(&mut current, &mut count, &mut taken);
    out.extend(taken);
    (!out.is_empty()).then_some(out)
}

fn nato_letter(word: &str) -> Option<char> {
    const CODES: [&str; 26] = [
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima",
        "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey",
        "xray", "yankee", "zulu",
    ];
    let word = match word {
        "alfa" => "alpha",
        "juliett" => "juliet",
        "whisky" => "whiskey",
        w => w,
    };
    let i = CODES.iter().position(|c| *c == word)?;
    char::from_u32(u32::from(b'a') + u32::try_from(i).ok()?)
}

/// ROT13 of cleaned characters (lower case already).
pub(super) fn rot13(chars: &[char]) -> Vec<char> {
    chars
        .iter()
        .map(|&c| match c {
            'a'..='z' => char::from(b'a' + (c as u8 - b'a' + 13) % 26),
            _ => c,
        })
        .collect()
}

/// The words in reverse order, as a skeleton ("father birth" for "birth father").
pub(super) fn reversed_words(chars: &[char]) -> String {
    let mut out = String::new();
    for word in words(chars).iter().rev() {
        out.push_str(&skeleton_of(&word.chars().collect::<Vec<_>>()));
    }
    out
}

/// First letters of lines, of sentences (and Chinese clauses), and of words.
pub(super) fn acrostic_lines(chars: &[char]) -> String {
    initials(chars.split(|c| *c == '\n'))
}

pub(super) fn acrostic_sentences(chars: &[char]) -> String {
    let is_break = |c: &char| {
        matches!(c, '.' | '!' | '?' | ';' | '\n' | ',')
            || matches!(c, '\u{3001}' | '\u{3002}' | '\u{FF01}' | '\u{FF1F}')
    };
    initials(chars.split(is_break))
}

pub(super) fn acrostic_words(chars: &[char]) -> String {
    let initials: Vec<char> = words(chars).iter().filter_map(|w| w.chars().next()).collect();
    skeleton_of(&initials)
}

/// The first letter, digit or Han character of each piece.
fn initials<'a>(pieces: impl Iterator<Item = &'a [char]>) -> String {
    let firsts: Vec<char> =
        pieces.filter_map(|p| p.iter().copied().find(|c| c.is_alphanumeric() || is_cjk(*c))).collect();
    if firsts.len() < 3 { String::new() } else { skeleton_of(&firsts) }
}
