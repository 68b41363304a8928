//! Files compiled into the binary so `echoes` runs from anywhere: prompt
//! templates, the command catalogue, the bundled puzzles and the default
//! config. A directory named in config replaces the embedded copy.

use std::path::Path;

use anyhow::Context;
use include_dir::{Dir, include_dir};

use crate::core::arena::Roster;
use crate::core::catalogue::Catalogue;
use crate::core::game::{Bundled, HostedGame};
use crate::core::prompts::Prompts;
use crate::core::rpg::Worlds;
use crate::core::undercover::WordLibrary;

static PROMPTS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/prompts");
/// Every game's bundled data, one folder a game (`data/puzzles`,
/// `data/undercover`, …).
static DATA: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/data");
static EMPTY: Dir<'static> = Dir::new("", &[]);
pub const DEFAULT_CONFIG: &str = include_str!("../config/default.toml");

/// Loads the prompt templates (`prompt_sources`): every built-in one is
/// defined, by its own text or by one of the same name from `dir`.
pub fn load_prompts(dir: Option<&Path>) -> anyhow::Result<Prompts> {
    let mut built_in = Vec::new();
    embedded_templates(&PROMPTS, &mut built_in);
    let sources = prompt_sources(dir)?.into_iter().map(|t| (t.name, t.source));
    Prompts::from_sources(sources)
        .and_then(|prompts| prompts.requiring(built_in.iter().map(|(name, _)| name.as_str())))
        .context("loading prompt templates")
}

/// One prompt template: its name, its text and where it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptSource {
    /// Its path below the prompts folder without `.j2` (`soup/judge.system`).
    pub name: String,
    pub source: String,
    /// `built in`, or the file it was read from.
    pub origin: String,
}

/// Every prompt template, by name: the built-in set (`prompts/`), with a
/// template of the same name from `dir` (a server owner's, `[prompts] dir`,
/// laid out like `prompts/`) in its place and any others added.
pub fn prompt_sources(dir: Option<&Path>) -> anyhow::Result<Vec<PromptSource>> {
    let mut by_name = std::collections::BTreeMap::new();
    let mut embedded = Vec::new();
    embedded_templates(&PROMPTS, &mut embedded);
    for (name, source) in embedded {
        by_name.insert(name.clone(), PromptSource { name, source, origin: "built in".to_string() });
    }
    if let Some(dir) = dir {
        for found in read_templates(dir, dir)? {
            by_name.insert(found.name.clone(), found);
        }
    }
    Ok(by_name.into_values().collect())
}

fn embedded_templates(dir: &Dir<'static>, out: &mut Vec<(String, String)>) {
    for file in dir.files() {
        if let (Some(name), Some(text)) = (template_name(file.path()), file.contents_utf8()) {
            out.push((name, text.to_string()));
        }
    }
    for sub in dir.dirs() {
        embedded_templates(sub, out);
    }
}

fn read_templates(root: &Path, dir: &Path) -> anyhow::Result<Vec<PromptSource>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading prompt directory {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            out.extend(read_templates(root, &path)?);
            continue;
        }
        let Some(name) = path.strip_prefix(root).ok().and_then(template_name) else { continue };
        let source = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
        out.push(PromptSource { name, source, origin: path.display().to_string() });
    }
    Ok(out)
}

/// `soup/judge.system.j2` → `soup/judge.system`; `None` for other files.
fn template_name(path: &Path) -> Option<String> {
    let text = path.to_str()?.replace('\\', "/");
    text.strip_suffix(".j2").map(str::to_string)
}

/// Undercover's word files as (path under the word directory, text):
/// from `dir` (files `en/*.toml`, `zh/*.toml`) or the embedded set.
pub fn word_sources(dir: Option<&Path>) -> anyhow::Result<Vec<(String, String)>> {
    dir.map_or_else(|| Ok(bundled_files("undercover")), content_files)
}

/// The Arena's personas, narrators and topics, the same way.
pub fn arena_sources(dir: Option<&Path>) -> anyhow::Result<Vec<(String, String)>> {
    dir.map_or_else(|| Ok(bundled_files("arena")), content_files)
}

/// The Lore RPG's worlds as (`<id>/<file>.toml`, text): every world
/// directory under `dir`, or the embedded set.
pub fn world_sources(dir: Option<&Path>) -> anyhow::Result<Vec<(String, String)>> {
    dir.map_or_else(|| Ok(bundled_files("rpg")), content_files)
}

/// A game's bundled folder (`data/<folder>`) as its `hosted` and its
/// content check read it: every `*.toml` one folder down or deeper, as
/// (path below the folder, text).
pub fn bundled_files(folder: &str) -> Vec<(String, String)> {
    embedded_files(self::folder(folder))
}

/// A folder on disk laid out as a game's data folder: every `*.toml` file
/// in each of its folders, as (`<folder>/<file>.toml`, text), sorted.
pub fn content_files(dir: &Path) -> anyhow::Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let sub = entry?.path();
        if !sub.is_dir() {
            continue;
        }
        let name = sub.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        for file in std::fs::read_dir(&sub).with_context(|| format!("reading {}", sub.display()))? {
            let path = file?.path();
            if path.extension().is_some_and(|e| e == "toml") {
                let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
                let file = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
                out.push((format!("{name}/{file}"), text));
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

/// One game's bundled folder (`data/<name>`); empty when it has none.
pub fn folder(name: &str) -> &'static Dir<'static> {
    DATA.get_dir(name).unwrap_or(&EMPTY)
}

/// Every `*.toml` file one folder down or deeper in an embedded folder, as
/// (path below that folder, text).
fn embedded_files(dir: &Dir<'static>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for sub in dir.dirs() {
        for file in sub.files().filter(|f| f.path().extension().is_some_and(|e| e == "toml")) {
            let path = file.path().strip_prefix(dir.path()).unwrap_or(file.path());
            let text = file.contents_utf8().unwrap_or_default().to_string();
            out.push((path.to_string_lossy().replace('\\', "/"), text));
        }
    }
    out
}

/// The bundled data, as a game's `hosted` reads it.
struct Embedded;

impl Bundled for Embedded {
    fn sources(&self, name: &str) -> Vec<(String, String)> {
        embedded_files(folder(name))
    }
}

/// The seated games the bots host beside Turtle Soup, as registered in
/// `core` (`games!`), over the bundled data.
pub fn hosted_games() -> Vec<std::sync::Arc<dyn HostedGame>> {
    crate::core::hosted_games(&Embedded)
}

/// Every game's verbs: Turtle Soup's and each hosted game's declaration.
pub fn catalogue() -> Catalogue {
    let hosted = hosted_games();
    let sources = std::iter::once(crate::core::soup::verbs::DECLARATION).chain(hosted.iter().map(|g| g.verbs()));
    // The declarations are checked by a unit test, so this cannot fail in
    // a built binary.
    Catalogue::collect(sources).unwrap_or_else(|e| panic!("a game's verb declaration is invalid: {e}"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_bundled_word_pair_is_valid() {
        let sources = super::word_sources(None).unwrap();
        let (library, problems) = crate::core::undercover::WordLibrary::from_sources(&sources);
        assert!(problems.is_empty(), "{problems:#?}");
        for lang in [crate::core::vocab::Language::En, crate::core::vocab::Language::Zh] {
            assert!(library.choices(lang, None).len() >= 60, "{} pairs in {lang:?}", library.choices(lang, None).len());
        }
    }

    #[test]
    fn the_bundled_worlds_are_valid() {
        let (worlds, problems) = crate::core::rpg::Worlds::from_sources(&super::world_sources(None).unwrap());
        assert!(problems.is_empty(), "{problems:#?}");
        assert_eq!(worlds.worlds.len(), 2);
        for lang in [crate::core::vocab::Language::En, crate::core::vocab::Language::Zh] {
            let w = worlds.first(lang).unwrap();
            assert!(w.passages.len() >= 40 && w.npcs.len() >= 6 && w.secrets().count() >= 3, "{}", w.id);
        }
    }

    #[test]
    fn the_bundled_arena_cast_is_valid() {
        let (roster, problems) = crate::core::arena::Roster::from_sources(&super::arena_sources(None).unwrap());
        assert!(problems.is_empty(), "{problems:#?}");
        for lang in [crate::core::vocab::Language::En, crate::core::vocab::Language::Zh] {
            let cast = roster.cast(lang).unwrap_or_else(|| panic!("a cast in {lang:?}"));
            assert!(cast.personas.len() >= 12 && cast.topics.len() >= 20, "{lang:?}");
        }
    }

    /// Names said once: every game's own verbs in its closed enum
    /// (`game_verbs!`) are the verbs its declaration lists without a
    /// `move`, each read by its declared name, with only declared aliases
    /// and with its arguments named as the declared options, in order; a
    /// hosted game's group is its declaration's.
    #[test]
    fn every_games_enum_names_what_its_declaration_declares() {
        use crate::core::catalogue::Catalogue;
        use crate::core::game::input::VerbNames;
        let soup: (&str, &str, &[VerbNames]) =
            ("soup", crate::core::soup::verbs::DECLARATION, crate::core::soup::verbs::SoupVerb::NAMES);
        let hosted: Vec<(&str, &str, &[VerbNames])> =
            super::hosted_games().iter().map(|g| (g.group(), g.verbs(), g.about().names)).collect();
        assert!(hosted.len() >= 5, "every registered game");
        for (group, declaration, names) in std::iter::once(soup).chain(hosted) {
            let declared = Catalogue::parse(declaration).unwrap_or_else(|e| panic!("{group}: {e}")).verbs;
            assert!(declared.iter().any(|v| v.group == group), "{group}: its declaration has no {group} group");
            let own: Vec<_> = declared.iter().filter(|v| v.action.is_none()).collect();
            for verb in &own {
                let spelt = names.iter().find(|n| n.name == verb.name);
                let spelt =
                    spelt.unwrap_or_else(|| panic!("{group} {}: declared, but its enum reads no such verb", verb.name));
                let options: Vec<&str> = verb.options.iter().map(|o| o.name.as_str()).collect();
                assert_eq!(
                    spelt.args,
                    options.as_slice(),
                    "{group} {}: the enum's arguments and the options",
                    verb.name
                );
                for alias in spelt.aliases {
                    assert!(
                        verb.aliases.iter().any(|a| a == alias),
                        "{group} {}: {alias:?} is not a declared alias",
                        verb.name
                    );
                }
            }
            for spelt in names {
                assert!(
                    own.iter().any(|v| v.name == spelt.name),
                    "{group} {}: its enum reads a verb the declaration does not list as the game's own",
                    spelt.name
                );
            }
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

    /// A server owner's directory replaces a template by name and adds
    /// new ones; the rest stay built in.
    #[test]
    fn a_prompt_directory_overrides_by_name() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("soup")).unwrap();
        std::fs::write(dir.path().join("soup/judge.system.j2"), "Judge {{ nothing }}").unwrap();
        std::fs::create_dir_all(dir.path().join("extra")).unwrap();
        std::fs::write(dir.path().join("extra/hello.j2"), "hi").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "not a template").unwrap();
        let all = super::prompt_sources(Some(dir.path())).unwrap();
        let judge = all.iter().find(|t| t.name == "soup/judge.system").unwrap();
        assert_eq!(judge.source, "Judge {{ nothing }}");
        assert!(judge.origin.ends_with("judge.system.j2"), "{}", judge.origin);
        assert!(all.iter().any(|t| t.name == "extra/hello" && t.source == "hi"));
        let narrator = all.iter().find(|t| t.name == "soup/narrator.system").unwrap();
        assert_eq!(narrator.origin, "built in");
        assert!(!all.iter().any(|t| t.name.contains("notes")));
        super::load_prompts(Some(dir.path())).expect("the rest are built in");
    }
}
