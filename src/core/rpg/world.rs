//! Worlds for the Lore RPG: a lorebook (`data/rpg/<id>/`: `world.toml`
//! with the premise, the opening scene and the hard rules; `passages.toml`,
//! public lore and GM-only secrets; `npcs.toml`, who players can address;
//! `probes.toml`, referee test cases), loaded and checked. A problem in a
//! world is a sentence naming the file and the item; a world with problems
//! is not played.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use serde::Deserialize;

use crate::core::context::Fact;
use crate::core::game::{Audience, Secret, SecretGates};
use crate::core::knowledge::{Doc, DocKind, Visibility};
use crate::core::secrecy::{Canary, Check};
use crate::core::text::is_cjk;
use crate::core::vocab::Language;

/// The fewest passages, NPCs and GM secrets a bundled world has.
pub const MIN_PASSAGES: usize = 40;
pub const MIN_NPCS: usize = 6;
/// A server's own world may be small.
pub const MIN_CUSTOM_PASSAGES: usize = 3;
const PASSAGE_KINDS: [&str; 7] = ["place", "person", "history", "rule", "item", "faction", "creature"];

/// Who may read a passage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seen {
    Public,
    Gm,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Passage {
    pub id: String,
    pub title: String,
    pub kind: String,
    pub visibility: Seen,
    #[serde(default)]
    pub tags: Vec<String>,
    pub text: String,
}

impl Passage {
    pub fn is_public(&self) -> bool {
        self.visibility == Seen::Public
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Npc {
    pub id: String,
    pub name: String,
    /// Public passages describing them: their persona is extracted from these.
    pub passages: Vec<String>,
    /// GM-only passages they know and act on, never state.
    #[serde(default)]
    pub gm_passages: Vec<String>,
    /// The persona as the world's author wrote it (from the public
    /// passages only): with a style and a background, it is played as
    /// written and no extraction call is made.
    #[serde(default)]
    pub style: Option<String>,
    #[serde(default)]
    pub traits: Vec<String>,
    #[serde(default)]
    pub background: Option<String>,
    #[serde(default)]
    pub wants: Option<String>,
}

impl Npc {
    /// The persona the world's author wrote, if a style and a background
    /// were given.
    pub fn authored_persona(&self) -> Option<super::Persona> {
        let style = self.style.as_deref().map(str::trim).filter(|s| !s.is_empty())?;
        let background = self.background.as_deref().map(str::trim).filter(|s| !s.is_empty())?;
        Some(super::Persona {
            npc: self.id.clone(),
            name: self.name.clone(),
            style: style.to_string(),
            traits: self.traits.iter().map(|t| t.trim().to_string()).collect(),
            background: background.to_string(),
            wants: self.wants.as_deref().unwrap_or_default().trim().to_string(),
            extracted: false,
            sources: self.passages.clone(),
        })
    }

    /// Whether `text` names this NPC: the id, the whole name, or a word of
    /// it (a Chinese name: its last two characters, a given name, too).
    pub fn named_in(&self, text: &str) -> bool {
        let lower = text.to_lowercase();
        if lower.contains(&self.name.to_lowercase()) {
            return true;
        }
        if self.name.chars().any(is_cjk) {
            let chars: Vec<char> = self.name.chars().collect();
            let given: String = chars[chars.len().saturating_sub(2)..].iter().collect();
            return chars.len() >= 3 && lower.contains(&given);
        }
        let words: Vec<String> = crate::core::text::words(&lower);
        let skip = ["old", "mother", "father", "the", "of", "master", "mistress", "captain"];
        self.name
            .split_whitespace()
            .map(str::to_lowercase)
            .filter(|w| w.chars().count() >= 3 && !skip.contains(&w.as_str()))
            .any(|w| words.contains(&w))
            || words.contains(&self.id)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Probe {
    pub text: String,
    pub verdict: String,
    pub passage: String,
    /// What the action establishes: words a referee that notes facts puts
    /// in one of the ruling's facts (`echoes eval referee` counts them).
    #[serde(default)]
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
struct WorldFile {
    id: String,
    language: String,
    title: String,
    premise: String,
    opening: String,
    rules: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct PassageFile {
    #[serde(default)]
    passage: Vec<Passage>,
}

#[derive(Debug, Deserialize)]
struct NpcFile {
    #[serde(default)]
    npc: Vec<Npc>,
}

#[derive(Debug, Deserialize)]
struct ProbeFile {
    #[serde(default)]
    probe: Vec<Probe>,
}

/// A world as one TOML text (a server's own: the fields of `world.toml`
/// with `[[passage]]` and `[[npc]]` tables in the same document).
#[derive(Debug, Deserialize)]
struct OneFile {
    #[serde(flatten)]
    world: WorldFile,
    #[serde(default)]
    passage: Vec<Passage>,
    #[serde(default)]
    npc: Vec<Npc>,
}

/// A playable world.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct World {
    pub id: String,
    pub language: Language,
    pub title: String,
    pub premise: String,
    pub opening: String,
    pub rules: Vec<String>,
    pub passages: Vec<Passage>,
    pub npcs: Vec<Npc>,
    pub probes: Vec<Probe>,
}

impl World {
    /// The knowledge index's corpus id for this world's passages.
    pub fn corpus(&self) -> String {
        format!("world:{}", self.id)
    }

    pub fn passage(&self, id: &str) -> Option<&Passage> {
        self.passages.iter().find(|p| p.id == id)
    }

    pub fn public(&self) -> impl Iterator<Item = &Passage> {
        self.passages.iter().filter(|p| p.is_public())
    }

    pub fn secrets(&self) -> impl Iterator<Item = &Passage> {
        self.passages.iter().filter(|p| !p.is_public())
    }

    pub fn npc(&self, id: &str) -> Option<&Npc> {
        self.npcs.iter().find(|n| n.id == id)
    }

    /// The NPC a player means by `name` (an id, the name or a word of it).
    pub fn npc_named(&self, name: &str) -> Option<&Npc> {
        let name = name.trim().trim_start_matches('@');
        if name.is_empty() {
            return None;
        }
        self.npcs.iter().find(|n| n.id.eq_ignore_ascii_case(name) || n.name.eq_ignore_ascii_case(name)).or_else(|| {
            let mut named = self.npcs.iter().filter(|n| n.named_in(name));
            let first = named.next();
            named.next().is_none().then_some(first).flatten()
        })
    }

    /// The NPCs an action names, in the world's order.
    pub fn npcs_in(&self, text: &str) -> Vec<&Npc> {
        self.npcs.iter().filter(|n| n.named_in(text)).collect()
    }

    /// The passages as the knowledge index holds them: public ones for
    /// every role, GM-only ones for the referee's GM role only.
    pub fn docs(&self) -> Vec<Doc> {
        self.passages
            .iter()
            .map(|p| Doc {
                id: format!("{}#{}", self.corpus(), p.id),
                puzzle_id: self.corpus(),
                kind: DocKind::Lore,
                visibility: if p.is_public() { Visibility::Public } else { Visibility::Judge },
                language: self.language.code().to_string(),
                text: format!("{}: {}", p.title, p.text),
            })
            .collect()
    }

    /// A passage id from a knowledge document id.
    pub fn passage_of_doc<'a>(&'a self, doc_id: &str) -> Option<&'a Passage> {
        doc_id.strip_prefix(&format!("{}#", self.corpus())).and_then(|id| self.passage(id))
    }

    /// Public passages closest to `query` by shared words (no index at
    /// hand: tests, a store without LanceDB).
    pub fn lexical(&self, query: &str, k: usize) -> Vec<&Passage> {
        let q: HashSet<String> = terms(query).into_iter().collect();
        let mut scored: Vec<(usize, usize, &Passage)> = self
            .public()
            .enumerate()
            .map(|(i, p)| {
                let t: HashSet<String> =
                    terms(&format!("{} {} {}", p.title, p.tags.join(" "), p.text)).into_iter().collect();
                (q.intersection(&t).count(), i, p)
            })
            .filter(|(n, _, _)| *n > 0)
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.into_iter().take(k).map(|(_, _, p)| p).collect()
    }

    /// The text every player has seen or may learn: the gate never counts
    /// it as evidence of a secret.
    pub fn public_text(&self) -> String {
        let mut parts = vec![self.title.clone(), self.premise.clone(), self.opening.clone()];
        parts.extend(self.rules.iter().cloned());
        parts.extend(self.public().map(|p| format!("{} {}", p.title, p.text)));
        parts.extend(self.npcs.iter().map(|n| n.name.clone()));
        parts.join("\n")
    }

    /// Reads a server's own world from one TOML text.
    pub fn from_one(text: &str) -> Result<World, Vec<String>> {
        let file: OneFile = toml::from_str(text).map_err(|e| vec![format!("not a world: {}", first_line(&e))])?;
        let mut problems = Vec::new();
        let world = assemble(file.world, file.passage, file.npc, Vec::new(), "world", &mut problems);
        match world {
            Some(w) => {
                check(&w, MIN_CUSTOM_PASSAGES, 1, &mut problems);
                if problems.is_empty() { Ok(w) } else { Err(problems) }
            }
            None => Err(problems),
        }
    }
}

/// Lower-case words of three letters or more, and Chinese character pairs.
fn terms(text: &str) -> Vec<String> {
    let mut out: Vec<String> =
        crate::core::text::words(&text.to_lowercase()).into_iter().filter(|w| w.chars().count() >= 3).collect();
    let cjk: Vec<char> = text.chars().filter(|c| is_cjk(*c)).collect();
    out.extend(cjk.windows(2).map(|w| w.iter().collect::<String>()));
    out
}

fn first_line(e: &impl std::fmt::Display) -> String {
    e.to_string().lines().next().unwrap_or_default().to_string()
}

/// The worlds a build or a directory holds.
#[derive(Debug, Clone, Default)]
pub struct Worlds {
    pub worlds: Vec<Arc<World>>,
}

impl Worlds {
    pub fn get(&self, id: &str) -> Option<&Arc<World>> {
        self.worlds.iter().find(|w| w.id == id)
    }

    /// The first world in `language` (the default for `start`).
    pub fn first(&self, language: Language) -> Option<&Arc<World>> {
        self.worlds.iter().find(|w| w.language == language)
    }

    /// Worlds from `(path, text)` pairs, paths `<id>/<file>.toml`; and
    /// every problem found. A world with a problem is left out.
    pub fn from_sources(sources: &[(String, String)]) -> (Worlds, Vec<String>) {
        let mut by_dir: BTreeMap<String, BTreeMap<String, &str>> = BTreeMap::new();
        for (path, text) in sources {
            let path = path.replace('\\', "/");
            let Some((dir, file)) = path.rsplit_once('/') else { continue };
            let dir = dir.rsplit('/').next().unwrap_or(dir);
            by_dir.entry(dir.to_string()).or_default().insert(file.to_string(), text);
        }
        let mut worlds = Vec::new();
        let mut problems = Vec::new();
        for (dir, files) in by_dir {
            let mut own = Vec::new();
            if let Some(world) = load_dir(&dir, &files, &mut own) {
                check(&world, MIN_PASSAGES, MIN_NPCS, &mut own);
                if own.is_empty() {
                    worlds.push(Arc::new(world));
                }
            }
            problems.extend(own);
        }
        (Worlds { worlds }, problems)
    }
}

fn parse<T: serde::de::DeserializeOwned>(
    dir: &str,
    name: &str,
    text: Option<&&str>,
    problems: &mut Vec<String>,
) -> Option<T> {
    let Some(text) = text else {
        problems.push(format!("{dir}/{name}: missing"));
        return None;
    };
    match toml::from_str(text) {
        Ok(v) => Some(v),
        Err(e) => {
            problems.push(format!("{dir}/{name}: {}", first_line(&e)));
            None
        }
    }
}

fn load_dir(dir: &str, files: &BTreeMap<String, &str>, problems: &mut Vec<String>) -> Option<World> {
    let world: Option<WorldFile> = parse(dir, "world.toml", files.get("world.toml"), problems);
    let passages: Option<PassageFile> = parse(dir, "passages.toml", files.get("passages.toml"), problems);
    let npcs: Option<NpcFile> = parse(dir, "npcs.toml", files.get("npcs.toml"), problems);
    let probes: Option<ProbeFile> = match files.get("probes.toml") {
        Some(_) => parse(dir, "probes.toml", files.get("probes.toml"), problems),
        None => Some(ProbeFile { probe: Vec::new() }),
    };
    let (world, passages, npcs, probes) = (world?, passages?, npcs?, probes?);
    if world.id != dir {
        problems.push(format!("{dir}/world.toml: id {:?} differs from the directory name", world.id));
    }
    assemble(world, passages.passage, npcs.npc, probes.probe, dir, problems)
}

fn assemble(
    file: WorldFile,
    passages: Vec<Passage>,
    npcs: Vec<Npc>,
    probes: Vec<Probe>,
    dir: &str,
    problems: &mut Vec<String>,
) -> Option<World> {
    let Some(language) = Language::parse(&file.language) else {
        problems.push(format!("{dir}/world.toml: language {:?} is not en or zh", file.language));
        return None;
    };
    Some(World {
        id: file.id,
        language,
        title: file.title,
        premise: file.premise,
        opening: file.opening,
        rules: file.rules,
        passages,
        npcs,
        probes,
    })
}

fn length(lang: Language, text: &str) -> usize {
    match lang {
        Language::En => text.split_whitespace().count(),
        Language::Zh => text.chars().filter(|c| !c.is_whitespace()).count(),
    }
}

/// Every rule a world must keep, as sentences.
fn check(w: &World, min_passages: usize, min_npcs: usize, problems: &mut Vec<String>) {
    check_header(w, problems);
    check_passages(w, min_passages, min_npcs, problems);
    check_npcs(w, min_npcs, problems);
    check_probes(w, problems);
}

/// Whether `id` is ascii lowercase letters, digits and dashes (and not empty).
fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// A text's length in characters (the limits on titles and names).
fn char_len(t: &str) -> usize {
    t.chars().count()
}

/// `world.toml`'s rules: the id, the title, the premise, the opening and
/// the hard rules.
fn check_header(w: &World, problems: &mut Vec<String>) {
    let dir = &w.id;
    if !valid_id(&w.id) {
        problems.push(format!("{dir}: the id must be ascii lowercase letters, digits and dashes"));
    }
    if w.title.trim().is_empty() || char_len(&w.title) > 60 {
        problems.push(format!("{dir}/world.toml: the title must be 1-60 characters"));
    }
    for (name, text) in [("premise", &w.premise), ("opening", &w.opening)] {
        if text.trim().is_empty() || char_len(text) > 700 {
            problems.push(format!("{dir}/world.toml: the {name} must be 1-700 characters"));
        }
    }
    if w.rules.is_empty() || w.rules.len() > 10 || w.rules.iter().any(|r| r.trim().is_empty() || char_len(r) > 240) {
        problems.push(format!("{dir}/world.toml: 1-10 rules, each 1-240 characters"));
    }
}

/// `passages.toml`'s rules: enough passages, a few secrets (bundled
/// worlds), and each passage's id, title, kind and length.
fn check_passages(w: &World, min_passages: usize, min_npcs: usize, problems: &mut Vec<String>) {
    let dir = &w.id;
    if w.passages.len() < min_passages {
        problems.push(format!("{dir}: {} passages, at least {min_passages} needed", w.passages.len()));
    }
    if !w.passages.iter().any(|p| !p.is_public()) && min_npcs > 1 {
        problems.push(format!("{dir}: no GM-only passage (a world keeps a few secrets)"));
    }
    let mut seen = HashSet::new();
    for p in &w.passages {
        let at = format!("{dir}/passages.toml [{}]", p.id);
        if !valid_id(&p.id) {
            problems.push(format!("{at}: the id must be ascii lowercase letters, digits and dashes"));
        }
        if !seen.insert(p.id.as_str()) {
            problems.push(format!("{at}: the id is used twice"));
        }
        if p.title.trim().is_empty() || char_len(&p.title) > 60 {
            problems.push(format!("{at}: the title must be 1-60 characters"));
        }
        if !PASSAGE_KINDS.contains(&p.kind.as_str()) {
            problems.push(format!("{at}: kind {:?} is not one of {}", p.kind, PASSAGE_KINDS.join(", ")));
        }
        let n = length(w.language, &p.text);
        let (lo, hi) = match w.language {
            Language::En => (20, 260),
            Language::Zh => (40, 500),
        };
        if !(lo..=hi).contains(&n) {
            problems.push(format!("{at}: the text has {n} words or characters, {lo}-{hi} expected"));
        }
    }
}

/// `npcs.toml`'s rules: enough NPCs, each with a unique id, a name and
/// passages that exist.
fn check_npcs(w: &World, min_npcs: usize, problems: &mut Vec<String>) {
    let dir = &w.id;
    let mut names = HashSet::new();
    if w.npcs.len() < min_npcs {
        problems.push(format!("{dir}: {} NPCs, at least {min_npcs} needed", w.npcs.len()));
    }
    for n in &w.npcs {
        let at = format!("{dir}/npcs.toml [{}]", n.id);
        if !names.insert(n.id.as_str()) {
            problems.push(format!("{at}: the id is used twice"));
        }
        if n.name.trim().is_empty() || char_len(&n.name) > 32 {
            problems.push(format!("{at}: the name must be 1-32 characters"));
        }
        if n.passages.is_empty() {
            problems.push(format!("{at}: no passage describes them"));
        }
        check_npc_passages(w, n, &at, problems);
        check_npc_persona(w, n, &at, problems);
    }
}

/// An authored persona: a style and a background together or neither,
/// within the lengths a prompt has room for, and nothing in it that the
/// secrecy gate would withhold (it is written from public passages).
fn check_npc_persona(w: &World, n: &Npc, at: &str, problems: &mut Vec<String>) {
    let fields = [("style", n.style.as_deref(), 200), ("background", n.background.as_deref(), 400)];
    if fields.iter().filter(|(_, v, _)| v.is_some_and(|v| !v.trim().is_empty())).count() == 1 {
        problems.push(format!("{at}: a persona needs both style and background (or neither)"));
    }
    let wants = [("wants", n.wants.as_deref(), 200)];
    for (field, value, max) in fields.iter().chain(&wants) {
        if value.is_some_and(|v| char_len(v) > *max) {
            problems.push(format!("{at}: {field} is over {max} characters"));
        }
    }
    if n.traits.len() > 6 || n.traits.iter().any(|t| t.trim().is_empty() || char_len(t) > 40) {
        problems.push(format!("{at}: traits are at most 6, each 1-40 characters"));
    }
    let Some(persona) = n.authored_persona() else { return };
    let secrets: Vec<Secret> = w.secrets().map(|p| Secret::hidden(p.text.clone())).collect();
    let gate = SecretGates::new(&w.public_text(), &secrets, Canary::from_seed(0));
    let text = format!("{} {} {} {}", persona.style, persona.traits.join(" "), persona.background, persona.wants);
    if let Check::Blocked(b) = gate.check(&Audience::Everyone, &text) {
        problems.push(format!("{at}: the persona gives a GM-only passage away ({:?})", b.span));
    }
}

/// An NPC's passages exist and are filed by who may read them: public
/// ones under `passages`, GM-only ones under `gm_passages`.
fn check_npc_passages(w: &World, n: &Npc, at: &str, problems: &mut Vec<String>) {
    for id in &n.passages {
        match w.passage(id) {
            Some(p) if p.is_public() => {}
            Some(_) => problems.push(format!("{at}: passage {id:?} is GM-only; list it under gm_passages")),
            None => problems.push(format!("{at}: passage {id:?} does not exist")),
        }
    }
    for id in &n.gm_passages {
        match w.passage(id) {
            Some(p) if !p.is_public() => {}
            Some(_) => problems.push(format!("{at}: gm passage {id:?} is public")),
            None => problems.push(format!("{at}: gm passage {id:?} does not exist")),
        }
    }
}

/// `probes.toml`'s rules: a known verdict about a public passage.
fn check_probes(w: &World, problems: &mut Vec<String>) {
    let dir = &w.id;
    for (i, probe) in w.probes.iter().enumerate() {
        let at = format!("{dir}/probes.toml #{}", i + 1);
        if !["consistent", "contradicts"].contains(&probe.verdict.as_str()) {
            problems.push(format!("{at}: verdict {:?} is not consistent or contradicts", probe.verdict));
        }
        if !w.passage(&probe.passage).is_some_and(Passage::is_public) {
            problems.push(format!("{at}: passage {:?} is not a public passage", probe.passage));
        }
        if !probe.notes.is_empty() && probe.verdict != "consistent" {
            problems.push(format!("{at}: notes on an action that does not happen (only a consistent probe has them)"));
        }
        if probe.notes.iter().any(|n| n.trim().is_empty() || n.chars().count() > Fact::SUBJECT_CHARS) {
            problems.push(format!("{at}: a note is empty or longer than {} characters", Fact::SUBJECT_CHARS));
        }
    }
}
