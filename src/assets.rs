//! Files compiled into the binary so `echoes` runs from anywhere: prompt
//! templates, the command catalogue, the bundled puzzles and the default
//! config. A directory named in config replaces the embedded copy.

use std::path::Path;

use anyhow::Context;
use include_dir::{Dir, include_dir};

use crate::core::catalogue::Catalogue;
use crate::core::prompts::Prompts;

static PROMPTS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/prompts");
pub static PUZZLES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/data/puzzles");
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

pub fn catalogue() -> Catalogue {
    // The embedded catalogue is checked by a unit test, so this cannot fail
    // in a built binary.
    Catalogue::parse(CATALOGUE).unwrap_or_else(|e| panic!("embedded command catalogue is invalid: {e}"))
}

#[cfg(test)]
mod tests {
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
