//! Text rules shared by the game: cleaning player input, normalising a
//! question for the consistency ledger, and word / character runs used to
//! spot a phrase of the answer in other text.

use std::collections::HashSet;
use unicode_normalization::UnicodeNormalization;

use crate::core::vocab::Language;

/// Longest player message accepted, in characters. Longer text is refused
/// with a message rather than cut, so nothing is silently lost.
pub const MAX_INPUT_CHARS: usize = 600;

/// Why a player's text was refused before it reached the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputProblem {
    Empty,
    TooLong { chars: usize, max: usize },
}

/// Cleans raw player text: NFKC, control characters dropped (line breaks
/// become spaces), whitespace collapsed, trimmed; refuses empty and
/// over-long text.
pub fn clean_input(raw: &str, max_chars: usize) -> Result<String, InputProblem> {
    let mut out = String::with_capacity(raw.len().min(max_chars.saturating_mul(4)));
    let mut last_space = true;
    for c in raw.nfkc() {
        let c = if c.is_whitespace() { ' ' } else { c };
        if c.is_control() || is_invisible(c) {
            continue;
        }
        if c == ' ' {
            if !last_space {
                out.push(' ');
            }
            last_space = true;
        } else {
            out.push(c);
            last_space = false;
        }
    }
    let cleaned = out.trim().to_string();
    let chars = cleaned.chars().count();
    if chars == 0 {
        Err(InputProblem::Empty)
    } else if chars > max_chars {
        Err(InputProblem::TooLong { chars, max: max_chars })
    } else {
        Ok(cleaned)
    }
}

/// Zero-width and bidi control characters: invisible, and a common way to
/// dodge exact matching.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}')
}

/// The ledger key for a question: case, width, punctuation and spacing
/// removed, so "Was he alone?" and "was he  ALONE" are the same question.
pub fn normalize_question(text: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    for c in text.nfkc().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            if is_cjk(c) {
                flush(&mut current, &mut words);
                words.push(c.to_string());
            } else {
                current.push(c);
            }
        } else {
            flush(&mut current, &mut words);
        }
    }
    flush(&mut current, &mut words);
    words.join(" ")
}

/// Words and characters whose swap can flip a yes/no answer while barely
/// moving a sentence embedding: negation, polarity particles, gender, life
/// and death, time order. ("t" is what is left of "wasn't".)
const CONTRAST_TOKENS: &[&str] = &[
    "not",
    "no",
    "t",
    "never",
    "nobody",
    "nothing",
    "none",
    "nor",
    "without",
    "with",
    "on",
    "off",
    "in",
    "out",
    "up",
    "down",
    "open",
    "closed",
    "before",
    "after",
    "afterwards",
    "earlier",
    "later",
    "first",
    "last",
    "he",
    "she",
    "him",
    "her",
    "his",
    "hers",
    "man",
    "woman",
    "men",
    "women",
    "boy",
    "girl",
    "male",
    "female",
    "dead",
    "alive",
    "more",
    "less",
    "same",
    "different",
    "old",
    "young",
    "day",
    "night",
    "morning",
    "evening",
    "不",
    "没",
    "未",
    "非",
    "无",
    "别",
    "男",
    "女",
    "他",
    "她",
    "前",
    "后",
    "生",
    "死",
    "开",
    "关",
    "多",
    "少",
];

/// Whether two ledger keys (`normalize_question`) differ by a contrast
/// token: such questions are never treated as paraphrases, however close
/// their embeddings ("was the lamp switched off" / "... on").
pub fn differ_by_contrast(a: &str, b: &str) -> bool {
    let (ta, tb): (Vec<&str>, Vec<&str>) = (a.split(' ').collect(), b.split(' ').collect());
    let only_one = |x: &[&str], y: &[&str]| x.iter().any(|t| !y.contains(t) && CONTRAST_TOKENS.contains(t));
    only_one(&ta, &tb) || only_one(&tb, &ta)
}

fn flush(current: &mut String, words: &mut Vec<String>) {
    if !current.is_empty() {
        words.push(std::mem::take(current));
    }
}

/// CJK ideographs and kana: each one is a token of its own.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x2FA1F)
}

/// Tokens for phrase matching: lowercase words for English, single
/// characters for Chinese (which has no spaces between words).
pub fn tokens(text: &str, language: Language) -> Vec<String> {
    let normalized = normalize_question(text);
    match language {
        Language::En => normalized.split(' ').filter(|t| !t.is_empty()).map(str::to_string).collect(),
        Language::Zh => normalized.chars().filter(|c| *c != ' ').map(|c| c.to_string()).collect(),
    }
}

/// Every run of `n` consecutive tokens in `text`.
pub fn distinct_runs(text: &str, language: Language, n: usize) -> HashSet<String> {
    let toks = tokens(text, language);
    if n == 0 || toks.len() < n {
        return HashSet::new();
    }
    toks.windows(n).map(|w| w.join(" ")).collect()
}

/// Whether `text` contains any of `runs` (built with the same `n`).
pub fn shares_run(text: &str, language: Language, n: usize, runs: &HashSet<String>) -> bool {
    let toks = tokens(text, language);
    toks.len() >= n && toks.windows(n).any(|w| runs.contains(&w.join(" ")))
}

/// Cuts `text` to at most `max_chars` characters at a word boundary where
/// one is near, adding an ellipsis.
pub fn truncate_chars(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_string();
    }
    let cut: String = text.chars().take(max_chars.saturating_sub(1)).collect();
    let at = cut.rfind(' ').filter(|i| *i > cut.len() * 2 / 3).unwrap_or(cut.len());
    format!("{}…", cut[..at].trim_end())
}

/// Lowercased words, each Chinese character a word of its own: how the
/// per-audience gates (`game::secrets`) and the word-pair check read text.
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if is_cjk(c) {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            out.push(c.to_string());
        } else if c.is_alphanumeric() {
            word.push(c);
        } else if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// What a player's free text is by its form alone, where the form is clear.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Question,
    Guess,
}

const INTERROGATIVES: &[&str] = &[
    "is", "was", "are", "were", "am", "do", "does", "did", "can", "could", "has", "have", "had", "will", "would",
    "should", "shall", "may", "might", "must", "isn't", "wasn't", "aren't", "weren't", "don't", "doesn't", "didn't",
    "can't", "couldn't", "hasn't", "haven't", "hadn't", "won't", "wouldn't", "who", "whom", "whose", "what", "when",
    "where", "why", "how", "which",
];
const CLAUSE_LINKS: &[&str] =
    &["so", "because", "since", "but", "then", "which", "therefore", "after", "when", "while"];
const ZH_QUESTION_MARKS: &[&str] =
    &["是不是", "有没有", "是否", "会不会", "能不能", "对不对", "难道", "是谁", "为什么", "怎么"];
const ZH_LINKS: &[&str] = &["因为", "所以", "于是", "但是", "结果", "原来", "然后", "其实"];
const GUESS_OPENERS: &[&str] =
    &["i think", "my guess", "i guess", "the answer is", "the truth is", "here's what happened"];
const ZH_GUESS_OPENERS: &[&str] = &["我猜", "我觉得", "我认为", "答案是", "真相是", "汤底是", "我的推理"];

/// A question or a guess told by form, without a model: a question mark
/// or question particle, an interrogative opening; a long declarative
/// story (a guess opener, clauses linked into a story, or simply long).
/// `None` when the form leaves it open: the Judge decides.
pub fn form_of(text: &str) -> Option<Form> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    let last = t.trim_end_matches(['.', '。', '!', '！', '…', ' ', '"', '”', ')', '）']);
    if last.ends_with(['?', '？', '吗', '呢', '么']) || t.contains(['?', '？']) {
        return Some(Form::Question);
    }
    let cjk = t.chars().filter(|c| is_cjk(*c)).count();
    if cjk * 2 >= t.chars().filter(|c| !c.is_whitespace()).count() {
        if ZH_QUESTION_MARKS.iter().any(|m| t.contains(m)) {
            return Some(Form::Question);
        }
        let opener = ZH_GUESS_OPENERS.iter().any(|o| t.starts_with(o));
        let linked = ZH_LINKS.iter().any(|l| t.contains(l));
        return ((opener && cjk >= 8) || (linked && cjk >= 20) || cjk >= 30).then_some(Form::Guess);
    }
    let lower = t.to_lowercase();
    let words: Vec<&str> =
        lower.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':')).filter(|w| !w.is_empty()).collect();
    let first = words.first().map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')).unwrap_or_default();
    if INTERROGATIVES.contains(&first) {
        return Some(Form::Question);
    }
    let opener = GUESS_OPENERS.iter().any(|o| lower.starts_with(o));
    let sentences = t.split(['.', '!', ';']).filter(|s| s.split_whitespace().count() >= 3).count();
    let linked = words.iter().any(|w| CLAUSE_LINKS.contains(&w.trim_matches(|c: char| !c.is_alphanumeric())));
    let n = words.len();
    ((opener && n >= 6) || (linked && n >= 12) || sentences >= 2 && n >= 12 || n >= 20).then_some(Form::Guess)
}

#[cfg(test)]
mod tests;
