//! `echoes eval judge FILE.jsonl`: the Judge measured on labelled lines.
//! Each line is a puzzle (a bundled or custom id, or an inline `surface`
//! and `bottom`), a player's question or guess, and what the Judge should
//! say. Every line runs through the real turn path (`Pipeline::run`: input
//! cleaning, the META rule, the ledger, the Judge's prompt, parser and
//! fallbacks) on a fresh game; lines that share a `group` share one game,
//! in file order. Prints accuracy, a confusion matrix, the parse rate and
//! seconds per judgement, as a table and as JSON.

pub mod referee;

use crate::core::soup::verbs::SoupVerb;
use std::collections::BTreeMap;
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use anyhow::Context as _;
use futures::stream::{self, StreamExt as _};
use serde::Deserialize;
use serde_json::json;

use crate::core::game::TurnInput;
use crate::core::prompts::PublicTurn;
use crate::core::services::{Pipeline, Progress};
use crate::core::soup::pipeline::{GameGate, SessionView};
use crate::core::soup::puzzle::Puzzle;
use crate::core::soup::verdict::Verdict;
use crate::core::soup::{SoupEvent, SoupGame};
use crate::core::text::is_cjk;
use crate::core::vocab::Difficulty;
use crate::core::vocab::Language;
use crate::core::vocab::Player;
use crate::puzzles::PuzzleLibrary;

/// One labelled line as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Line {
    #[serde(default)]
    pub puzzle: Option<String>,
    #[serde(default)]
    pub surface: Option<String>,
    #[serde(default)]
    pub bottom: Option<String>,
    pub kind: Kind,
    pub input: String,
    pub expected: Expected,
    /// Lines with the same group play one game, in file order.
    #[serde(default)]
    pub group: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Question,
    Guess,
}

/// A verdict for a question, the key facts stated for a guess.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum Expected {
    Verdict(String),
    Facts(Vec<String>),
}

/// What the Judge said about one line.
#[derive(Debug, Clone)]
pub struct Judged {
    pub line: usize,
    pub kind: Kind,
    pub expected: String,
    pub got: String,
    pub correct: bool,
    /// A guess: the required facts found are the ones it states (what
    /// decides the game); a question: the same as `correct`.
    pub graded_right: bool,
    /// clean, salvaged, fallback, ledger, meta, known, cant_tell, facts,
    /// or "" (no Judge call).
    pub parse: &'static str,
    pub seconds: f64,
    /// Its puzzle's first line in the run: it pays for preparing the
    /// puzzle's known answers (embedding them), once per puzzle and process.
    pub first: bool,
}

/// Reads a JSONL file: each problem is reported with its line number.
pub fn read_lines(text: &str) -> anyhow::Result<Vec<(usize, Line)>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() || raw.trim_start().starts_with("//") {
            continue;
        }
        let line: Line = serde_json::from_str(raw).with_context(|| format!("line {}: not an eval line", i + 1))?;
        if line.puzzle.is_none() && (line.surface.is_none() || line.bottom.is_none()) {
            anyhow::bail!("line {}: name a `puzzle`, or give a `surface` and a `bottom`", i + 1);
        }
        match (&line.kind, &line.expected) {
            (Kind::Question, Expected::Verdict(v)) if Verdict::parse(v).is_some() => {}
            (Kind::Question, _) => {
                anyhow::bail!("line {}: a question expects YES, NO, YES_AND_NO or IRRELEVANT", i + 1)
            }
            (Kind::Guess, Expected::Facts(_)) => {}
            (Kind::Guess, _) => anyhow::bail!("line {}: a guess expects a list of fact ids", i + 1),
        }
        out.push((i + 1, line));
    }
    if out.is_empty() {
        anyhow::bail!("no lines to evaluate");
    }
    Ok(out)
}

fn inline_puzzle(n: usize, surface: &str, bottom: &str) -> Puzzle {
    let zh = surface.chars().filter(|c| is_cjk(*c)).count() * 2 > surface.chars().count();
    Puzzle {
        id: format!("inline-{n}"),
        title: format!("inline {n}"),
        language: if zh { Language::Zh } else { Language::En },
        difficulty: Difficulty::Medium,
        tags: Vec::new(),
        author: String::new(),
        license: String::new(),
        surface: surface.to_string(),
        bottom: bottom.to_string(),
        hints: Vec::new(),
        facts: Vec::new(),
        lore: Vec::new(),
        known: Vec::new(),
    }
}

/// One game's lines, judged in order on one state.
/// `seen`: the puzzles an earlier line has played (their known answers are
/// prepared).
async fn judge_group(
    pipeline: &Pipeline,
    puzzle: Arc<Puzzle>,
    lines: Vec<(usize, Line)>,
    seen: &Mutex<HashSet<String>>,
) -> Vec<Judged> {
    let player = Player { id: "eval".into(), name: "eval".into() };
    let canary = crate::core::actor::new_canary();
    let mut game = SoupGame::new(&puzzle, 3);
    if let Ok(started) = game.apply(&SoupEvent::Start, &puzzle) {
        game = started;
    }
    let mut history: Vec<PublicTurn> = Vec::new();
    let mut gate = GameGate::new(&puzzle, &canary);
    let noop = |_: Progress| {};
    let mut out = Vec::new();
    for (n, line) in lines {
        gate.catch_up(&puzzle, &game, &history);
        let view =
            SessionView { puzzle: &puzzle, game: &game, history: &history, canary: &canary, gate: &gate, ledger: &[] };
        let input = match line.kind {
            Kind::Question => TurnInput::from(SoupVerb::Ask(line.input.clone())),
            Kind::Guess => TurnInput::from(SoupVerb::Guess(line.input.clone())),
        };
        let first = seen.lock().unwrap_or_else(PoisonError::into_inner).insert(puzzle.id.clone());
        let started = Instant::now();
        let outcome = pipeline.run(&view, &player, &input, &noop).await;
        let seconds = started.elapsed().as_secs_f64();
        let (expected, got, correct) = match &line.expected {
            Expected::Verdict(v) => {
                let want = Verdict::parse(v).map_or("?", Verdict::as_str);
                let got = outcome
                    .reply
                    .verdict
                    .map_or_else(|| format!("{:?}", outcome.reply.kind).to_lowercase(), |v| v.as_str().to_string());
                (want.to_string(), got.clone(), got == want)
            }
            Expected::Facts(facts) => {
                let mut want = facts.clone();
                want.sort();
                let mut found = outcome.facts.clone();
                found.sort();
                (want.join(","), found.join(","), found == want)
            }
        };
        let required = |ids: &[String]| -> Vec<String> {
            let mut r: Vec<String> =
                ids.iter().filter(|id| puzzle.facts.iter().any(|f| f.required && &f.id == *id)).cloned().collect();
            r.sort();
            r
        };
        let graded_right = match &line.expected {
            Expected::Facts(facts) => required(facts) == required(&outcome.facts),
            Expected::Verdict(_) => correct,
        };
        let parse = match outcome.usage.judge_parse {
            "" if outcome.reply.verdict == Some(Verdict::Meta) => "meta",
            p => p,
        };
        out.push(Judged { line: n, kind: line.kind, expected, got, correct, graded_right, parse, seconds, first });
        if let Some(next) = outcome.next {
            game = next;
        }
        history.extend(outcome.public);
    }
    out
}

/// One game's puzzle and its numbered lines.
type Group = (Arc<Puzzle>, Vec<(usize, Line)>);

/// Runs every line, at most `parallel` games at once.
pub async fn run(
    pipeline: &Pipeline,
    library: &PuzzleLibrary,
    lines: Vec<(usize, Line)>,
    parallel: usize,
) -> anyhow::Result<Vec<Judged>> {
    let mut groups: Vec<Group> = Vec::new();
    let mut named: BTreeMap<String, usize> = BTreeMap::new();
    for (n, line) in lines {
        let puzzle = match (&line.puzzle, &line.surface, &line.bottom) {
            (Some(id), _, _) => library.get(id).with_context(|| format!("line {n}: no puzzle {id:?}"))?,
            (None, Some(surface), Some(bottom)) => Arc::new(inline_puzzle(n, surface, bottom)),
            _ => anyhow::bail!("line {n}: no puzzle"),
        };
        match line.group.clone() {
            Some(g) => match named.get(&g) {
                Some(&i) => groups[i].1.push((n, line)),
                None => {
                    named.insert(g, groups.len());
                    groups.push((puzzle, vec![(n, line)]));
                }
            },
            None => groups.push((puzzle, vec![(n, line)])),
        }
    }
    let seen = Mutex::new(HashSet::new());
    let mut judged: Vec<Judged> = stream::iter(groups)
        .map(|(puzzle, lines)| judge_group(pipeline, puzzle, lines, &seen))
        .buffer_unordered(parallel.max(1))
        .collect::<Vec<_>>()
        .await
        .into_iter()
        .flatten()
        .collect();
    judged.sort_by_key(|j| j.line);
    Ok(judged)
}

/// For each question line, its puzzle's known answers (the closest first,
/// by the combined score) with their word and vector similarities and whether
/// the verdict would be right; for each guess, every key fact's word and
/// vector similarity to it and whether the line expects it: what
/// `known`'s thresholds are calibrated on.
pub async fn known_scores(
    pipeline: &Pipeline,
    library: &PuzzleLibrary,
    lines: &[(usize, Line)],
) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    for (n, line) in lines {
        let Some(puzzle) = line.puzzle.as_deref().and_then(|id| library.get(id)) else { continue };
        let known =
            crate::core::soup::known::prepared(&puzzle, pipeline.embedder.as_ref(), pipeline.vector_cache.as_ref())
                .await;
        if let Expected::Facts(expected) = &line.expected {
            out.push(fact_scores(pipeline, &puzzle, &known, *n, &line.input, expected).await);
            continue;
        }
        let key = crate::core::text::normalize_question(&line.input);
        let vector = match &pipeline.embedder {
            Some(e) => e.embed(std::slice::from_ref(&key)).await.ok().and_then(|mut v| v.pop()),
            None => None,
        };
        let expected = match &line.expected {
            Expected::Verdict(v) => Verdict::parse(v).map_or("?", Verdict::as_str).to_string(),
            Expected::Facts(_) => continue,
        };
        let top: Vec<serde_json::Value> = known
            .scores(&line.input, vector.as_deref())
            .into_iter()
            .map(|(r, lexical, semantic)| {
                let (asked_in_known, known_in_asked) = known.word_cover(&line.input, &r.question);
                json!({"score": r.score, "lexical": lexical, "semantic": semantic, "verdict": r.verdict.as_str(),
                       "flipped": r.flipped, "right": r.verdict.as_str() == expected, "known": r.question,
                       "asked_in_known": asked_in_known, "known_in_asked": known_in_asked})
            })
            .collect();
        out.push(json!({"line": n, "puzzle": puzzle.id, "language": puzzle.language.code(), "input": line.input, "expected": expected, "top": top}));
    }
    out
}

/// A guess's row for `known_scores`: each key fact, as the pipeline
/// matches it (the guess and its sentences embedded).
async fn fact_scores(
    pipeline: &Pipeline,
    puzzle: &crate::core::soup::puzzle::Puzzle,
    known: &crate::core::soup::known::Known,
    n: usize,
    input: &str,
    expected: &[String],
) -> serde_json::Value {
    let mut parts = vec![input.to_string()];
    parts.extend(crate::core::soup::known::sentences(input));
    let vectors = match &pipeline.embedder {
        Some(e) => e.embed(&parts).await.unwrap_or_default(),
        None => Vec::new(),
    };
    let facts: Vec<serde_json::Value> = known
        .fact_scores(input, &vectors)
        .into_iter()
        .map(|f| {
            let required = puzzle.facts.iter().any(|p| p.id == f.id && p.required);
            json!({"id": f.id, "lexical": f.lexical, "semantic": f.semantic, "required": required,
                   "expected": expected.contains(&f.id)})
        })
        .collect();
    json!({"line": n, "puzzle": puzzle.id, "language": puzzle.language.code(), "input": input, "kind": "guess",
           "facts": facts})
}

/// The report: accuracy per kind, the questions' confusion matrix, parse
/// rate and seconds per judgement; as text and as JSON.
pub fn report(judged: &[Judged]) -> (String, serde_json::Value) {
    let count = |f: &dyn Fn(&Judged) -> bool| judged.iter().filter(|j| f(j)).count();
    let pct = |a: usize, b: usize| if b == 0 { 0.0 } else { 100.0 * a as f64 / b as f64 };
    let questions = count(&|j| j.kind == Kind::Question);
    let guesses = count(&|j| j.kind == Kind::Guess);
    let q_right = count(&|j| j.kind == Kind::Question && j.correct);
    let q_cant = count(&|j| j.kind == Kind::Question && j.got == "unclear");
    let q_wrong = questions - q_right - q_cant;
    let g_right = count(&|j| j.kind == Kind::Guess && j.correct);
    let g_graded = count(&|j| j.kind == Kind::Guess && j.graded_right);
    let matrix = confusion(judged);
    let parses = ["clean", "salvaged", "fallback", "ledger", "meta", "known", "cant_tell", "facts", ""];
    let parse_counts: Vec<(&str, usize)> = parses.iter().map(|p| (*p, count(&|j| j.parse == *p))).collect();
    let seconds: f64 = judged.iter().map(|j| j.seconds).sum();
    let mean = if judged.is_empty() { 0.0 } else { seconds / judged.len() as f64 };
    let mut text = format!(
        "{} lines · questions {q_right}/{questions} right ({:.1}%) · guesses {g_right}/{guesses} exactly right ({:.1}%)\n",
        judged.len(),
        pct(q_right, questions),
        pct(g_right, guesses)
    );
    text.push_str(&format!(
        "questions: right {:.1}% · can't tell {:.1}% · wrong {:.1}% · guesses graded right (required facts) {g_graded}/{guesses} ({:.1}%)\n",
        pct(q_right, questions),
        pct(q_cant, questions),
        pct(q_wrong, questions),
        pct(g_graded, guesses)
    ));
    text.push_str(&confusion_text(&matrix));
    let calls = judged.iter().filter(|j| matches!(j.parse, "clean" | "salvaged" | "fallback")).count();
    text.push_str(&format!(
        "\nparse: clean {} · salvaged {} · fallback {} (of {calls} Judge calls) · ledger {} · meta {} · known answers {} · can't tell {} · guesses by key facts {}\n",
        parse_counts[0].1, parse_counts[1].1, parse_counts[2].1, parse_counts[3].1, parse_counts[4].1, parse_counts[5].1, parse_counts[6].1, parse_counts[7].1
    ));
    text.push_str(&format!("{mean:.2} s per judgement ({seconds:.1} s in all)\n"));
    let latency = latency(judged);
    let shown: Vec<String> =
        latency.iter().map(|(what, n, p50, p95)| format!("{what} {p50:.3} / {p95:.3} s ({n})")).collect();
    text.push_str(&format!("seconds per turn, median / 95th percentile: {}\n", shown.join(" · ")));
    let wrong: Vec<String> = judged
        .iter()
        .filter(|j| !j.correct)
        .take(20)
        .map(|j| format!("  line {}: expected {} · judged {}", j.line, j.expected, j.got))
        .collect();
    if !wrong.is_empty() {
        text.push_str(&format!("\nfirst misses:\n{}\n", wrong.join("\n")));
    }
    let json = json!({
        "lines": judged.len(),
        "questions": {"total": questions, "right": q_right, "cant_tell": q_cant, "wrong": q_wrong, "accuracy": pct(q_right, questions) / 100.0},
        "guesses": {"total": guesses, "exact": g_right, "accuracy": pct(g_right, guesses) / 100.0, "graded_right": g_graded},
        "confusion": matrix.iter().map(|((e, g), n)| json!({"expected": e, "judged": g, "count": n})).collect::<Vec<_>>(),
        "parse": parse_counts.iter().filter(|(p, _)| !p.is_empty()).map(|(p, n)| ((*p).to_string(), json!(n))).collect::<serde_json::Map<_, _>>(),
        "seconds_per_judgement": mean,
        "seconds_per_turn": latency
            .iter()
            .map(|(what, n, p50, p95)| ((*what).to_string(), json!({"turns": n, "p50": p50, "p95": p95})))
            .collect::<serde_json::Map<_, _>>(),
        "misses": judged.iter().filter(|j| !j.correct).map(|j| json!({"line": j.line, "expected": j.expected, "judged": j.got})).collect::<Vec<_>>(),
    });
    (text, json)
}

/// The verdicts a question may expect, in the confusion matrix's order.
const VERDICTS: [&str; 4] = ["YES", "NO", "YES_AND_NO", "IRRELEVANT"];

/// The questions' confusion matrix: (expected, judged) → how many.
fn confusion(judged: &[Judged]) -> BTreeMap<(String, String), usize> {
    let mut matrix: BTreeMap<(String, String), usize> = BTreeMap::new();
    for j in judged.iter().filter(|j| j.kind == Kind::Question) {
        *matrix.entry((j.expected.clone(), j.got.clone())).or_default() += 1;
    }
    matrix
}

/// The confusion matrix as a table: a row per expected verdict, a column
/// per verdict judged (the four, then any other the Judge gave).
fn confusion_text(matrix: &BTreeMap<(String, String), usize>) -> String {
    let mut got_labels: Vec<String> = VERDICTS.iter().map(|l| l.to_string()).collect();
    for (_, got) in matrix.keys() {
        if !got_labels.contains(got) {
            got_labels.push(got.clone());
        }
    }
    let mut text = String::from("\nexpected \\ judged");
    for g in &got_labels {
        text.push_str(&format!(" {g:>11}"));
    }
    text.push('\n');
    for want in VERDICTS {
        text.push_str(&format!("{want:<17}"));
        for g in &got_labels {
            text.push_str(&format!(" {:>11}", matrix.get(&(want.to_string(), g.clone())).copied().unwrap_or(0)));
        }
        text.push('\n');
    }
    text
}

/// Seconds per turn by how it was answered: a puzzle's first turn (which
/// prepares its known answers), then the later ones answered from
/// the known answers, answered "can't tell", graded by key facts, or by a
/// Judge call. Each: its name, turns, median and 95th percentile. With
/// `--parallel` above 1 they include waiting for the other games.
fn latency(judged: &[Judged]) -> Vec<(&'static str, usize, f64, f64)> {
    type Pick = dyn Fn(&Judged) -> bool;
    let groups: [(&'static str, &Pick); 5] = [
        ("first turn of a puzzle", &|j| j.first),
        ("known answer", &|j| !j.first && j.parse == "known"),
        ("can't tell", &|j| !j.first && j.parse == "cant_tell"),
        ("guess by key facts", &|j| !j.first && j.parse == "facts"),
        ("Judge call", &|j| !j.first && matches!(j.parse, "clean" | "salvaged" | "fallback")),
    ];
    groups
        .iter()
        .filter_map(|(what, pick)| {
            let mut seconds: Vec<f64> = judged.iter().filter(|j| pick(j)).map(|j| j.seconds).collect();
            seconds.sort_by(f64::total_cmp);
            let at = |q: f64| seconds[((seconds.len() - 1) as f64 * q).round() as usize];
            (!seconds.is_empty()).then(|| (*what, seconds.len(), at(0.5), at(0.95)))
        })
        .collect()
}

#[cfg(test)]
mod tests;
