//! Files compiled into the binary so `echoes` runs from anywhere: prompt
//! templates, the command catalogue, the bundled puzzles and the default
//! config. A directory named in config replaces the embedded copy.

use std::path::Path;

use anyhow::Context;
use include_dir::{Dir, include_dir};

use crate::core::arena::{ArenaHost, Roster};
use crate::core::catalogue::Catalogue;
use crate::core::game::HostedGame;
use crate::core::lore::{LoreHost, Worlds};
use crate::core::prompts::Prompts;
use crate::core::undercover::{UndercoverHost, WordLibrary};

static PROMPTS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/prompts");
pub static PUZZLES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/data/puzzles");
static WORDS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/data/undercover");
static ARENA: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/data/arena");
static WORLDS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/data/worlds");
pub const CATALOGUE: &str = include_str!("../commands/catalogue.toml");
pub const DEFAULT_CONFIG: &str = include_str!("../config/default.toml");

/// Loads prompt templates: every `*.j2` file, named by its stem
/// (`judge.system.j2` → `judge.system`), from `dir` or the embedded set.
pub fn load_prompts(dir: Option<&Path>) -> anyhow::Result<Prompts> {
    let sources: Vec<(String, String)> = match dir {
        Some(dir) => read_templates(dir)?,
        None => PROMPTS
            .files()
            .filter_map(|f| {
                let name = template_name(f.path())?;
                Some((name, f.contents_utf8()?.to_string()))
            })
            .collect(),
    };
    Prompts::from_sources(sources).context("loading prompt templates")
}

fn read_templates(dir: &Path) -> anyhow::Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading prompt directory {}", dir.display()))? {
        let path = entry?.path();
        if let Some(name) = template_name(&path) {
            let source = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
            out.push((name, source));
        }
    }
    Ok(out)
}

fn template_name(path: &Path) -> Option<String> {
    let file = path.file_name()?.to_str()?;
    file.strip_suffix(".j2").map(str::to_string)
}

/// Undercover's word files as (path under the word directory, text):
/// from `dir` (files `en/*.toml`, `zh/*.toml`) or the embedded set.
pub fn word_sources(dir: Option<&Path>) -> anyhow::Result<Vec<(String, String)>> {
    language_files(&WORDS, dir)
}

/// The Arena's personas, narrators and topics, the same way.
pub fn arena_sources(dir: Option<&Path>) -> anyhow::Result<Vec<(String, String)>> {
    language_files(&ARENA, dir)
}

/// The Lore RPG's worlds as (`<id>/<file>.toml`, text): every world
/// directory under `dir`, or the embedded set.
pub fn world_sources(dir: Option<&Path>) -> anyhow::Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    let Some(dir) = dir else {
        for world in WORLDS.dirs() {
            for file in world.files().filter(|f| f.path().extension().is_some_and(|e| e == "toml")) {
                let text = file.contents_utf8().unwrap_or_default().to_string();
                out.push((file.path().to_string_lossy().replace('\\', "/"), text));
            }
        }
        return Ok(out);
    };
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let sub = entry?.path();
        if !sub.is_dir() {
            continue;
        }
        let id = sub.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        for file in std::fs::read_dir(&sub).with_context(|| format!("reading {}", sub.display()))? {
            let path = file?.path();
            if path.extension().is_some_and(|e| e == "toml") {
                let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
                let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
                out.push((format!("{id}/{name}"), text));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The bundled worlds (checked by a unit test, so none is skipped).
pub fn worlds() -> std::sync::Arc<Worlds> {
    static WORLDS_LOADED: std::sync::OnceLock<std::sync::Arc<Worlds>> = std::sync::OnceLock::new();
    WORLDS_LOADED
        .get_or_init(|| {
            let (worlds, problems) = Worlds::from_sources(&world_sources(None).unwrap_or_default());
            for p in &problems {
                tracing::warn!(problem = %p, "a bundled world was skipped");
            }
            std::sync::Arc::new(worlds)
        })
        .clone()
}

/// `en/*.toml` and `zh/*.toml` as (`en/name.toml`, text), from `dir` or
/// the embedded copy.
fn language_files(embedded: &Dir<'static>, dir: Option<&Path>) -> anyhow::Result<Vec<(String, String)>> {
    let Some(dir) = dir else {
        let mut out = Vec::new();
        for lang in embedded.dirs() {
            for file in lang.files().filter(|f| f.path().extension().is_some_and(|e| e == "toml")) {
                let text = file.contents_utf8().unwrap_or_default().to_string();
                out.push((file.path().to_string_lossy().replace('\\', "/"), text));
            }
        }
        return Ok(out);
    };
    let mut out = Vec::new();
    for lang in ["en", "zh"] {
        let sub = dir.join(lang);
        if !sub.is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(&sub).with_context(|| format!("reading {}", sub.display()))? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "toml") {
                let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
                let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
                out.push((format!("{lang}/{name}"), text));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The bundled word pairs (checked by a unit test, so none is skipped).
pub fn words() -> WordLibrary {
    let sources = word_sources(None).unwrap_or_default();
    let (library, problems) = WordLibrary::from_sources(&sources);
    for p in &problems {
        tracing::warn!(problem = %p, "a bundled word pair was skipped");
    }
    library
}

/// The bundled Arena cast (checked by a unit test, so nothing is skipped).
pub fn roster() -> Roster {
    let sources = arena_sources(None).unwrap_or_default();
    let (roster, problems) = Roster::from_sources(&sources);
    for p in &problems {
        tracing::warn!(problem = %p, "a bundled Arena file was skipped");
    }
    roster
}

/// The seated games the bots host beside Turtle Soup.
pub fn hosted_games() -> Vec<std::sync::Arc<dyn HostedGame>> {
    vec![
        std::sync::Arc::new(UndercoverHost::new(std::sync::Arc::new(words()))),
        std::sync::Arc::new(ArenaHost::new(std::sync::Arc::new(roster()))),
        std::sync::Arc::new(LoreHost::new(worlds())),
    ]
}

pub fn catalogue() -> Catalogue {
    // The embedded catalogue is checked by a unit test, so this cannot fail
    // in a built binary.
    Catalogue::parse(CATALOGUE).unwrap_or_else(|e| panic!("embedded command catalogue is invalid: {e}"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_bundled_word_pair_is_valid() {
        let sources = super::word_sources(None).unwrap();
        let (library, problems) = crate::core::undercover::WordLibrary::from_sources(&sources);
        assert!(problems.is_empty(), "{problems:#?}");
        for lang in [crate::core::puzzle::Language::En, crate::core::puzzle::Language::Zh] {
            assert!(library.choices(lang, None).len() >= 60, "{} pairs in {lang:?}", library.choices(lang, None).len());
        }
    }

    #[test]
    fn the_bundled_worlds_are_valid() {
        let (worlds, problems) = crate::core::lore::Worlds::from_sources(&super::world_sources(None).unwrap());
        assert!(problems.is_empty(), "{problems:#?}");
        assert_eq!(worlds.worlds.len(), 2);
        for lang in [crate::core::puzzle::Language::En, crate::core::puzzle::Language::Zh] {
            let w = worlds.first(lang).unwrap();
            assert!(w.passages.len() >= 40 && w.npcs.len() >= 6 && w.secrets().count() >= 3, "{}", w.id);
        }
    }

    #[test]
    fn the_bundled_arena_cast_is_valid() {
        let (roster, problems) = crate::core::arena::Roster::from_sources(&super::arena_sources(None).unwrap());
        assert!(problems.is_empty(), "{problems:#?}");
        for lang in [crate::core::puzzle::Language::En, crate::core::puzzle::Language::Zh] {
            let cast = roster.cast(lang).unwrap_or_else(|| panic!("a cast in {lang:?}"));
            assert!(cast.personas.len() >= 12 && cast.topics.len() >= 20, "{lang:?}");
        }
    }

    #[test]
    fn embedded_catalogue_parses() {
        let c = super::catalogue();
        assert!(c.verbs.iter().any(|v| v.name == "ask"));
    }

    #[test]
    fn embedded_prompts_compile() {
        super::load_prompts(None).expect("embedded prompts");
    }
}
