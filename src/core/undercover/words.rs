//! Word pairs: the civilians' word and the undercover's, close but
//! different, grouped by theme and difficulty in
//! `data/undercover/<lang>/<theme>.toml`. Parsing and validation are pure
//! (from file texts); the binary embeds the bundled files and
//! `echoes check undercover` reads a directory.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::core::vocab::Difficulty;

use crate::core::text::{is_cjk, words};
use crate::core::vocab::Language;

/// Most English words in one side of a pair.
const MAX_EN_WORDS: usize = 3;
/// Most Chinese characters in one side of a pair.
const MAX_ZH_CHARS: usize = 4;

/// The other forms of each word that give it away if said (plurals,
/// synonyms, its translation).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Aliases {
    #[serde(default)]
    pub civilian: Vec<String>,
    #[serde(default)]
    pub undercover: Vec<String>,
}

/// One pair as written in a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WordPair {
    pub id: String,
    pub civilian: String,
    pub undercover: String,
    pub difficulty: Difficulty,
    #[serde(default)]
    pub aliases: Aliases,
}

/// A pair with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThemedPair {
    pub language: Language,
    pub theme: String,
    pub pair: WordPair,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PairFile {
    theme: String,
    #[serde(rename = "pair", default)]
    pairs: Vec<WordPair>,
}

/// One problem in a word file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordProblem {
    /// The file (`en/food.toml`) and, where it applies, the pair id.
    pub at: String,
    pub message: String,
}

impl std::fmt::Display for WordProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// Every playable pair.
#[derive(Debug, Clone, Default)]
pub struct WordLibrary {
    pairs: Vec<ThemedPair>,
}

impl WordLibrary {
    /// Reads files given as (path relative to the word directory, text):
    /// `en/food.toml`. A file with problems contributes no pairs; every
    /// problem is reported.
    pub fn from_sources(sources: &[(String, String)]) -> (WordLibrary, Vec<WordProblem>) {
        let mut problems = Vec::new();
        let mut pairs: Vec<ThemedPair> = Vec::new();
        for (path, text) in sources {
            match parse_file(path, text) {
                Ok(found) => pairs.extend(found),
                Err(mut p) => problems.append(&mut p),
            }
        }
        problems.extend(cross_file_problems(&pairs));
        let bad: BTreeSet<String> = problems.iter().map(|p| p.at.clone()).collect();
        pairs.retain(|p| !bad.contains(&p.pair.id));
        (WordLibrary { pairs }, problems)
    }

    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    pub fn pairs(&self) -> &[ThemedPair] {
        &self.pairs
    }

    pub fn get(&self, id: &str) -> Option<&ThemedPair> {
        self.pairs.iter().find(|p| p.pair.id == id)
    }

    /// Pairs of one language (and difficulty, if given).
    pub fn choices(&self, language: Language, difficulty: Option<Difficulty>) -> Vec<&ThemedPair> {
        self.pairs
            .iter()
            .filter(|p| p.language == language && difficulty.is_none_or(|d| p.pair.difficulty == d))
            .collect()
    }

    /// A pair picked by `seed` among the choices; `None` when there are none.
    pub fn pick(&self, language: Language, difficulty: Option<Difficulty>, seed: u64) -> Option<&ThemedPair> {
        let choices = self.choices(language, difficulty);
        let n = choices.len() as u64;
        (n > 0).then(|| choices[(seed % n) as usize])
    }

    /// Adds pairs (a server's own), checked like bundled ones.
    pub fn with(mut self, extra: Vec<ThemedPair>) -> WordLibrary {
        self.pairs.extend(extra);
        self
    }

    /// Counts per language, theme and difficulty, for `echoes check undercover`.
    pub fn summary(&self) -> String {
        let mut by: BTreeMap<(String, String), [usize; 3]> = BTreeMap::new();
        for p in &self.pairs {
            let row = by.entry((p.language.code().to_string(), p.theme.clone())).or_default();
            row[p.pair.difficulty as usize] += 1;
        }
        let mut out = String::new();
        for lang in [Language::En, Language::Zh] {
            let n = self.pairs.iter().filter(|p| p.language == lang).count();
            out.push_str(&format!("{}: {n} pairs\n", lang.code()));
            for ((l, theme), [easy, medium, hard]) in &by {
                if l == lang.code() {
                    out.push_str(&format!("  {theme}: {easy} easy, {medium} medium, {hard} hard\n"));
                }
            }
        }
        out
    }
}

/// The language a file's path names (`en/food.toml`).
fn language_of(path: &str) -> Option<Language> {
    let dir = path.replace('\\', "/");
    let first = dir.split('/').rev().nth(1)?;
    Language::parse(first).filter(|l| l.code() == first)
}

fn stem(path: &str) -> &str {
    let file = path.rsplit(['/', '\\']).next().unwrap_or(path);
    file.strip_suffix(".toml").unwrap_or(file)
}

fn parse_file(path: &str, text: &str) -> Result<Vec<ThemedPair>, Vec<WordProblem>> {
    let at = |what: &str| WordProblem { at: path.to_string(), message: what.to_string() };
    let Some(language) = language_of(path) else {
        return Err(vec![at("a word file lives in en/ or zh/")]);
    };
    let file: PairFile = toml::from_str(text).map_err(|e| vec![at(&format!("not a word file: {}", e.message()))])?;
    let mut problems = Vec::new();
    if file.theme != stem(path) {
        problems.push(at(&format!("theme {:?} differs from the file name", file.theme)));
    }
    if file.pairs.is_empty() {
        problems.push(at("no [[pair]]"));
    }
    let fixed = game_words(language).map_err(|e| vec![at(&e)])?;
    for pair in &file.pairs {
        let mut found = pair_problems(language, &pair_prefix(language, &file.theme), pair);
        found.extend(clashes(fixed, pair));
        for message in found {
            problems.push(WordProblem { at: pair.id.clone(), message: format!("{path}: {message}") });
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(file.pairs.into_iter().map(|pair| ThemedPair { language, theme: file.theme.clone(), pair }).collect())
}

/// The words of the game's own sentences and prompt frames (an error: a
/// built-in prompt template that does not render), read once per language:
/// both are compiled in.
fn game_words(language: Language) -> Result<&'static [String], String> {
    static WORDS: [OnceLock<Result<Vec<String>, String>>; 2] = [OnceLock::new(), OnceLock::new()];
    let cell = &WORDS[usize::from(language == Language::Zh)];
    let read = cell.get_or_init(|| {
        let frames = super::agents::prompt_frames(language).map_err(|e| e.to_string())?;
        Ok(words(&format!("{}\n{}", super::say::fixed_text(language), frames)))
    });
    read.as_deref().map_err(Clone::clone)
}

/// The pair's forms that the game's own text says: the gate would
/// withhold the game's sentences.
fn clashes(fixed: &[String], pair: &WordPair) -> Vec<String> {
    let forms =
        [&pair.civilian, &pair.undercover].into_iter().chain(&pair.aliases.civilian).chain(&pair.aliases.undercover);
    forms
        .filter(|form| {
            let wanted = words(form);
            !wanted.is_empty() && fixed.windows(wanted.len()).any(|run| run == wanted.as_slice())
        })
        .map(|form| format!("{form:?} is a word of the game's own sentences or prompts; it would be withheld"))
        .collect()
}

/// The theme of a server's own pairs.
pub const SERVER_THEME: &str = "server";

/// A pair a moderator typed as `civilian / undercover`, each side a word
/// and, after commas, its other forms (`coffee, coffees / tea, teas`),
/// checked like a bundled pair and against the bundled ones. The id is
/// made from the words, so the same pair added twice is a duplicate.
pub fn server_pair(language: Language, text: &str, bundled: &WordLibrary) -> Result<ThemedPair, Vec<String>> {
    let text = text.replace(['|', '／', '｜'], "/");
    let Some((civilian, undercover)) = text.split_once('/').filter(|(_, u)| !u.contains('/')) else {
        return Err(vec!["write the pair as `civilian word / undercover word`".into()]);
    };
    let side = |t: &str| -> (String, Vec<String>) {
        let mut forms = t.split([',', '，', '、']).map(|f| f.trim().to_string()).filter(|f| !f.is_empty());
        let word = forms.next().unwrap_or_default();
        (word, forms.take(8).collect())
    };
    let ((civilian, civilian_aliases), (undercover, undercover_aliases)) = (side(civilian), side(undercover));
    // FNV-1a over the folded words: an id that stays the same across
    // processes and releases (std's hasher does not promise that).
    let id = format!("{}/{}", fold(&civilian), fold(&undercover))
        .bytes()
        .fold(0x811c_9dc5_u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193));
    let prefix = pair_prefix(language, SERVER_THEME);
    let pair = WordPair {
        id: format!("{prefix}{id:08x}"),
        civilian,
        undercover,
        difficulty: Difficulty::Medium,
        aliases: Aliases { civilian: civilian_aliases, undercover: undercover_aliases },
    };
    let mut problems = pair_problems(language, &prefix, &pair);
    match game_words(language) {
        Ok(fixed) => problems.extend(clashes(fixed, &pair)),
        Err(e) => problems.push(e),
    }
    let key = |a: &str, b: &str| {
        let (a, b) = (fold(a), fold(b));
        if a <= b { (a, b) } else { (b, a) }
    };
    let mine = key(&pair.civilian, &pair.undercover);
    if let Some(same) =
        bundled.choices(language, None).iter().find(|p| key(&p.pair.civilian, &p.pair.undercover) == mine)
    {
        problems.push(format!("the bundled pair {} is the same", same.pair.id));
    }
    if problems.is_empty() { Ok(ThemedPair { language, theme: SERVER_THEME.to_string(), pair }) } else { Err(problems) }
}

fn pair_prefix(language: Language, theme: &str) -> String {
    format!("{}-{theme}-", language.code())
}

/// What is wrong with one pair.
pub fn pair_problems(language: Language, prefix: &str, pair: &WordPair) -> Vec<String> {
    let mut out = Vec::new();
    if !pair.id.starts_with(prefix) {
        out.push(format!("id {:?} should start with {prefix:?}", pair.id));
    }
    let (c, u) = (fold(&pair.civilian), fold(&pair.undercover));
    for (side, word) in [("civilian", &pair.civilian), ("undercover", &pair.undercover)] {
        if let Some(why) = word_problem(language, word) {
            out.push(format!("{side} word {word:?}: {why}"));
        }
    }
    if c.is_empty() || u.is_empty() {
        return out;
    }
    if c == u {
        out.push("the two words are the same".into());
    } else if c.contains(&u) || u.contains(&c) {
        out.push("one word contains the other".into());
    }
    let forms = |mut words: Vec<String>, main: &str| {
        words.push(main.to_string());
        words.into_iter().map(|w| fold(&w)).filter(|w| !w.is_empty()).collect::<BTreeSet<_>>()
    };
    let mine = forms(pair.aliases.civilian.clone(), &pair.civilian);
    let theirs = forms(pair.aliases.undercover.clone(), &pair.undercover);
    if let Some(shared) = mine.intersection(&theirs).next() {
        out.push(format!("{shared:?} is a form of both words"));
    }
    for alias in pair.aliases.civilian.iter().map(|a| fold(a)) {
        if !alias.is_empty() && (alias.contains(&u) || u.contains(&alias)) && alias != c {
            out.push(format!("the civilian alias {alias:?} overlaps the undercover word"));
        }
    }
    for alias in pair.aliases.undercover.iter().map(|a| fold(a)) {
        if !alias.is_empty() && (alias.contains(&c) || c.contains(&alias)) && alias != u {
            out.push(format!("the undercover alias {alias:?} overlaps the civilian word"));
        }
    }
    out
}

fn word_problem(language: Language, word: &str) -> Option<String> {
    let trimmed = word.trim();
    if trimmed.is_empty() {
        return Some("empty".into());
    }
    if trimmed != word {
        return Some("spaces around it".into());
    }
    match language {
        Language::En => {
            let words = trimmed.split_whitespace().count();
            if words > MAX_EN_WORDS {
                return Some(format!("{words} words; {MAX_EN_WORDS} at most"));
            }
            if trimmed.chars().any(is_cjk) {
                return Some("Chinese characters in an English pair".into());
            }
        }
        Language::Zh => {
            let chars = trimmed.chars().count();
            if chars > MAX_ZH_CHARS {
                return Some(format!("{chars} characters; {MAX_ZH_CHARS} at most"));
            }
            if !trimmed.chars().all(is_cjk) {
                return Some("a Chinese pair is written in Chinese characters".into());
            }
        }
    }
    None
}

/// Problems across files: ids and pairs seen twice.
fn cross_file_problems(pairs: &[ThemedPair]) -> Vec<WordProblem> {
    let mut out = Vec::new();
    let mut ids = BTreeSet::new();
    let mut seen: BTreeMap<(Language, String, String), String> = BTreeMap::new();
    for p in pairs {
        if !ids.insert(p.pair.id.clone()) {
            out.push(WordProblem { at: p.pair.id.clone(), message: "this id is used twice".into() });
        }
        let (a, b) = (fold(&p.pair.civilian), fold(&p.pair.undercover));
        let key = if a <= b { (p.language, a, b) } else { (p.language, b, a) };
        if let Some(first) = seen.insert(key, p.pair.id.clone()) {
            out.push(WordProblem { at: p.pair.id.clone(), message: format!("the same pair as {first}") });
        }
    }
    out
}

/// Lowercase letters and digits only: how words are compared.
pub fn fold(text: &str) -> String {
    text.chars().flat_map(char::to_lowercase).filter(|c| c.is_alphanumeric()).collect()
}
