//! The Arena's cast and topics, read from `data/arena/<lang>/`:
//! `personas.toml` (AI contestants: a public name, tagline, voice and
//! goals, and private strategy notes only that contestant's prompt holds),
//! `narrator.toml` and `topics.toml`. Parsing and validation are pure
//! (from file texts); the binary embeds the bundled files and
//! `echoes check arena` reads a directory.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::core::vocab::Language;

/// Longest name, tagline, voice, goal and secret, in characters.
const MAX_NAME: usize = 32;
const MAX_TAGLINE: usize = 120;
const MAX_VOICE: usize = 200;
const MAX_GOAL: usize = 120;
const MAX_SECRET: usize = 240;
const MAX_TOPIC: usize = 200;

/// One AI contestant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Persona {
    pub id: String,
    pub name: String,
    /// Shown to everyone.
    pub tagline: String,
    /// How it speaks (its own prompt).
    pub voice: String,
    pub goals: Vec<String>,
    /// Private strategy notes: in this contestant's own prompt only.
    pub secret: String,
}

/// The observer who comments between rounds and sums the game up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Narrator {
    pub name: String,
    pub voice: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Topic {
    pub id: String,
    pub text: String,
    pub theme: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PersonaFile {
    #[serde(rename = "persona", default)]
    personas: Vec<Persona>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TopicFile {
    #[serde(rename = "topic", default)]
    topics: Vec<Topic>,
}

/// One language's cast.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cast {
    pub personas: Vec<Persona>,
    pub narrator: Narrator,
    pub topics: Vec<Topic>,
}

/// Every language's cast.
#[derive(Debug, Clone, Default)]
pub struct Roster {
    casts: Vec<(Language, Cast)>,
}

const THEMES: [&str; 6] = ["civic", "science", "business", "ethics", "whimsy", "survival"];

impl Roster {
    /// Reads files given as (path relative to the arena directory, text):
    /// `en/personas.toml`, `en/narrator.toml`, `en/topics.toml`. A
    /// language with any problem contributes nothing; every problem is
    /// reported as `path: message`.
    pub fn from_sources(sources: &[(String, String)]) -> (Roster, Vec<String>) {
        let mut problems = Vec::new();
        let mut casts = Vec::new();
        for lang in [Language::En, Language::Zh] {
            let file = |name: &str| {
                let path = format!("{}/{name}", lang.code());
                let text = sources.iter().find(|(p, _)| p.replace('\\', "/").ends_with(&path)).map(|(_, t)| t.clone());
                (path, text)
            };
            let before = problems.len();
            let (personas, narrator, topics) = (file("personas.toml"), file("narrator.toml"), file("topics.toml"));
            let mut read = |path: &str, text: Option<String>| -> Option<String> {
                if text.is_none() {
                    problems.push(format!("{path}: missing"));
                }
                text
            };
            let (Some(p), Some(n), Some(t)) =
                (read(&personas.0, personas.1), read(&narrator.0, narrator.1), read(&topics.0, topics.1))
            else {
                continue;
            };
            let cast = parse_cast((&personas.0, &p), (&narrator.0, &n), (&topics.0, &t), &mut problems);
            if problems.len() == before
                && let Some(cast) = cast
            {
                casts.push((lang, cast));
            }
        }
        (Roster { casts }, problems)
    }

    pub fn cast(&self, lang: Language) -> Option<&Cast> {
        self.casts.iter().find(|(l, _)| *l == lang).map(|(_, c)| c)
    }

    /// `en: 18 personas, 36 topics` per language, for `echoes check arena`.
    pub fn summary(&self) -> String {
        self.casts
            .iter()
            .map(|(l, c)| {
                format!(
                    "{}: {} personas, {} topics, narrator {}\n",
                    l.code(),
                    c.personas.len(),
                    c.topics.len(),
                    c.narrator.name
                )
            })
            .collect()
    }
}

fn too_long(text: &str, max: usize) -> bool {
    text.chars().count() > max
}

fn parse_cast(
    personas: (&str, &str),
    narrator: (&str, &str),
    topics: (&str, &str),
    problems: &mut Vec<String>,
) -> Option<Cast> {
    let mut bad = |path: &str, message: String| problems.push(format!("{path}: {message}"));
    let p: Option<PersonaFile> =
        toml::from_str(personas.1).map_err(|e| bad(personas.0, format!("not a persona file: {}", e.message()))).ok();
    let n: Option<Narrator> =
        toml::from_str(narrator.1).map_err(|e| bad(narrator.0, format!("not a narrator file: {}", e.message()))).ok();
    let t: Option<TopicFile> =
        toml::from_str(topics.1).map_err(|e| bad(topics.0, format!("not a topic file: {}", e.message()))).ok();
    let (p, n, t) = (p?, n?, t?);
    let id_ok = |id: &str| {
        !id.is_empty() && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
    };
    if p.personas.len() < 2 {
        bad(personas.0, "at least two personas".into());
    }
    let mut ids = BTreeSet::new();
    let mut names = BTreeSet::new();
    for persona in &p.personas {
        let at = format!("{} ({})", personas.0, persona.id);
        let mut check = |ok: bool, what: &str| {
            if !ok {
                bad(&at, what.to_string());
            }
        };
        check(id_ok(&persona.id), "an id is lowercase ascii letters, digits, - and _");
        check(ids.insert(persona.id.clone()), "this id is used twice");
        check(names.insert(persona.name.clone()), "this name is used twice");
        check(!persona.name.trim().is_empty() && !too_long(&persona.name, MAX_NAME), "a name of 1 to 32 characters");
        check(
            !persona.tagline.trim().is_empty() && !too_long(&persona.tagline, MAX_TAGLINE),
            "a tagline of 1 to 120 characters",
        );
        check(
            !persona.voice.trim().is_empty() && !too_long(&persona.voice, MAX_VOICE),
            "a voice of 1 to 200 characters",
        );
        check((1..=3).contains(&persona.goals.len()), "one to three goals");
        check(
            persona.goals.iter().all(|g| !g.trim().is_empty() && !too_long(g, MAX_GOAL)),
            "goals of 1 to 120 characters",
        );
        check(
            !persona.secret.trim().is_empty() && !too_long(&persona.secret, MAX_SECRET),
            "a secret of 1 to 240 characters",
        );
        let public = format!("{} {} {}", persona.name, persona.tagline, persona.goals.join(" "));
        check(!public.contains(persona.secret.trim()), "the secret is in the public card");
    }
    if n.name.trim().is_empty() || too_long(&n.name, MAX_NAME) || n.voice.trim().is_empty() {
        bad(narrator.0, "a name of 1 to 32 characters and a voice".into());
    }
    if t.topics.is_empty() {
        bad(topics.0, "no [[topic]]".into());
    }
    let mut topic_ids = BTreeSet::new();
    for topic in &t.topics {
        let at = format!("{} ({})", topics.0, topic.id);
        if !id_ok(&topic.id) || !topic_ids.insert(topic.id.clone()) {
            bad(&at, "a unique lowercase ascii id".into());
        }
        if topic.text.trim().is_empty() || too_long(&topic.text, MAX_TOPIC) {
            bad(&at, "a text of 1 to 200 characters".into());
        }
        if !THEMES.contains(&topic.theme.as_str()) {
            bad(&at, format!("theme {:?} is not one of {}", topic.theme, THEMES.join(", ")));
        }
    }
    Some(Cast { personas: p.personas, narrator: n, topics: t.topics })
}
