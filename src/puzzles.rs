//! The puzzle library: finds puzzle files (`<dir>/<lang>/<id>.toml`, or the
//! copies embedded in the binary), parses and validates them through
//! `core::puzzle`, and reports problems with the file they came from.
//! A malformed file is skipped and reported; it never stops the others.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rand::seq::IndexedRandom;

use crate::core::soup::puzzle::{Problem, Puzzle};
use crate::core::vocab::Difficulty;
use crate::core::vocab::Language;

/// A problem in one puzzle file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileProblem {
    pub file: String,
    pub problem: Problem,
}

impl fmt::Display for FileProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.problem)
    }
}

#[derive(Debug, Clone, Default)]
pub struct PuzzleLibrary {
    puzzles: Vec<Arc<Puzzle>>,
}

/// A puzzle file's text and where it came from.
struct Source {
    file: String,
    /// The file's text, or why it could not be read.
    text: Result<String, String>,
    id: Option<String>,
    language: Option<Language>,
}

impl PuzzleLibrary {
    /// Loads every puzzle under `dir`, or the embedded set when `dir` is
    /// `None` or does not exist. Returns the problems of skipped files.
    pub fn load(dir: Option<&Path>) -> (PuzzleLibrary, Vec<FileProblem>) {
        let sources = match dir.filter(|d| d.is_dir()) {
            Some(dir) => disk_sources(dir),
            None => embedded_sources(),
        };
        let mut problems = Vec::new();
        let mut puzzles: Vec<Arc<Puzzle>> = Vec::new();
        for source in sources {
            match parse(&source) {
                Ok(p) if puzzles.iter().any(|q| q.id == p.id) => problems.push(FileProblem {
                    file: source.file,
                    problem: Problem { field: "id".into(), reason: format!("{:?} is used by another file", p.id) },
                }),
                Ok(p) => puzzles.push(Arc::new(p)),
                Err(mut ps) => problems.append(&mut ps),
            }
        }
        puzzles.sort_by(|a, b| (a.language, &a.id).cmp(&(b.language, &b.id)));
        (PuzzleLibrary { puzzles }, problems)
    }

    pub fn get(&self, id: &str) -> Option<Arc<Puzzle>> {
        self.puzzles.iter().find(|p| p.id == id).cloned()
    }

    pub fn all(&self) -> &[Arc<Puzzle>] {
        &self.puzzles
    }

    pub fn len(&self) -> usize {
        self.puzzles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.puzzles.is_empty()
    }

    /// A random puzzle matching the filters.
    pub fn pick(&self, language: Option<Language>, difficulty: Option<Difficulty>) -> Option<Arc<Puzzle>> {
        let matching: Vec<&Arc<Puzzle>> = self
            .puzzles
            .iter()
            .filter(|p| language.is_none_or(|l| p.language == l))
            .filter(|p| difficulty.is_none_or(|d| p.difficulty == d))
            .collect();
        matching.choose(&mut rand::rng()).map(|p| Arc::clone(p))
    }

    /// Ids close to `wanted`, for "did you mean" messages.
    pub fn suggest(&self, wanted: &str) -> Vec<&str> {
        let wanted = wanted.to_ascii_lowercase();
        self.puzzles
            .iter()
            .map(|p| p.id.as_str())
            .filter(|id| id.contains(&wanted) || wanted.split('-').any(|part| part.len() > 2 && id.contains(part)))
            .take(5)
            .collect()
    }
}

/// Checks the given files or directories (recursively); empty = the
/// embedded set. Returns the number of files checked and their problems.
pub fn check(paths: &[PathBuf]) -> (usize, Vec<FileProblem>) {
    let sources: Vec<Source> = if paths.is_empty() {
        embedded_sources()
    } else {
        paths.iter().flat_map(|p| if p.is_dir() { disk_sources(p) } else { vec![file_source(p)] }).collect()
    };
    let count = sources.len();
    let problems = sources.iter().filter_map(|s| parse(s).err()).flatten().collect();
    (count, problems)
}

fn parse(source: &Source) -> Result<Puzzle, Vec<FileProblem>> {
    let text = source.text.as_deref().map_err(|reason| {
        vec![FileProblem {
            file: source.file.clone(),
            problem: Problem { field: "(file)".into(), reason: reason.to_string() },
        }]
    })?;
    Puzzle::from_toml(text, source.id.as_deref(), source.language).map_err(|problems| {
        problems.into_iter().map(|problem| FileProblem { file: source.file.clone(), problem }).collect()
    })
}

fn embedded_sources() -> Vec<Source> {
    let mut out = Vec::new();
    for dir in crate::assets::folder("puzzles").dirs() {
        for file in dir.files() {
            let path = file.path();
            if path.extension().is_some_and(|e| e == "toml") {
                out.push(Source {
                    file: format!("(built-in) {}", path.display()),
                    text: String::from_utf8(file.contents().to_vec()).map_err(|_| "is not UTF-8 text".to_string()),
                    id: stem(path),
                    language: dir_language(path),
                });
            }
        }
    }
    out
}

/// Every `*.toml` under `dir`, recursively.
fn disk_sources(dir: &Path) -> Vec<Source> {
    let mut files = Vec::new();
    collect_toml(dir, &mut files);
    files.sort();
    files.iter().map(|p| file_source(p)).collect()
}

fn collect_toml(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for path in entries.flatten().map(|e| e.path()) {
        if path.is_dir() {
            collect_toml(&path, out);
        } else if path.extension().is_some_and(|e| e == "toml") {
            out.push(path);
        }
    }
}

fn file_source(path: &Path) -> Source {
    let text = std::fs::read(path)
        .map_err(|e| format!("cannot be read: {e}"))
        .and_then(|bytes| String::from_utf8(bytes).map_err(|_| "is not UTF-8 text".to_string()));
    Source { file: path.display().to_string(), text, id: stem(path), language: dir_language(path) }
}

fn stem(path: &Path) -> Option<String> {
    path.file_stem().and_then(|s| s.to_str()).map(str::to_string)
}

/// The language named by the file's parent directory (`en/`, `zh/`).
fn dir_language(path: &Path) -> Option<Language> {
    path.parent()?.file_name()?.to_str().and_then(Language::parse)
}

#[cfg(test)]
mod tests;
