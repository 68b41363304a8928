//! The Lore RPG (seed 001): a group plays in a world described by a
//! lorebook; every message in the thread is an action. A **referee**
//! checks the action against the lore and plans the scene; the
//! **narrator** or an **NPC** (its persona extracted from the lore the
//! first time it is engaged, then cached with the session) answers; the
//! referee checks the reply. An action that breaks the world loses the
//! turn; a reply that breaks it is corrected and the player wins the turn.
//!
//! This file is the pure state machine (`LoreGame`): every turn arrives
//! already decided (`Event::Turn`, built by `table.rs` from the model
//! steps), so `apply` only counts and records. The story's memory is a
//! `context::Book` (summary, hot turns, glossary, GM notes) kept in the
//! snapshot.
//!
//! Rooms: `world.rs` (lorebooks and their check), `agents.rs` (prompts
//! and parsers), `table.rs` (the turn pipeline on the engine), `say.rs`
//! (fixed sentences), `host.rs` (`/rpg` for the bots).

pub mod agents;
pub mod host;
pub mod say;
pub mod table;
pub mod verbs;
pub mod world;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::core::context::{Book, BookRules, Entry};
use crate::core::game::Game;
use crate::core::vocab::Language;
use crate::core::vocab::Player;

pub use host::{LoreHost, hosted};
pub use table::LoreTable;
pub use world::{World, Worlds};

/// Longest action, in characters.
pub const MAX_ACTION: usize = 500;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Playing,
    Over,
}

/// How a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    Ended,
    Idle,
}

/// One player's turns won and lost.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub name: String,
    pub wins: u32,
    pub losses: u32,
    pub turns: u32,
}

/// An NPC's persona, extracted from its passages the first time it is
/// engaged and kept with the session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Persona {
    pub npc: String,
    pub name: String,
    pub style: String,
    pub traits: Vec<String>,
    pub background: String,
    pub wants: String,
    /// True when a model extracted it from the passages; false when the
    /// world's author wrote it, or when the extractor's answer was
    /// unusable and it was built from the passages directly.
    pub extracted: bool,
    pub sources: Vec<String>,
}

/// What a turn came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The action was approved and the reply stood.
    Played,
    /// The action broke the lore: the player loses the turn.
    Disqualified,
    /// The reply broke the lore and was corrected: the player wins.
    Corrected,
}

/// Who answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Speaker {
    Narrator,
    Npc(String),
}

/// A turn, decided by the table's model steps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnDone {
    pub player: Player,
    pub action: String,
    pub outcome: Outcome,
    pub speaker: Speaker,
    /// The reply players read (after the gate).
    pub reply: String,
    /// Titles of the public passages it rests on.
    pub sources: Vec<String>,
    /// A persona extracted this turn.
    pub persona: Option<Persona>,
    /// The referee's notes (GM only).
    pub note: String,
    /// A new summary and the turn it covers.
    pub summary: Option<(String, u32)>,
    /// Turns now in the search index.
    pub archived_upto: u32,
    /// Whether the index holds anything (then up to `archived_upto`,
    /// turn 0 included).
    #[serde(default)]
    pub indexed: bool,
    /// Named flags the referee set this turn ("gate_opened").
    #[serde(default)]
    pub flags: Vec<(String, bool)>,
    /// What the referee noted the turn established (subject, text).
    #[serde(default)]
    pub facts: Vec<(String, String)>,
    /// Model calls the turn took.
    pub calls: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    Turn(Box<TurnDone>),
    End { by: String, moderator: bool },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rejection {
    Over,
    NotHost,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoreGame {
    pub world: String,
    pub language: Language,
    pub host: Player,
    pub phase: Phase,
    pub ending: Option<Ending>,
    pub turn: u32,
    pub tally: BTreeMap<String, Tally>,
    pub personas: BTreeMap<String, Persona>,
    pub book: Book,
    /// The NPC the scene is with, if any.
    pub scene: Option<String>,
    /// Model calls so far (calls per turn = calls / turn).
    pub calls: u64,
    /// Outcomes so far: played, disqualified, corrected.
    pub outcomes: [u32; 3],
    /// A server's own world is kept with the session (its TOML), so the
    /// session resumes even if a moderator removes the world.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Turns per summary chapter (seed 004's `memory_interval`; the
    /// `memory_interval` start option).
    #[serde(default = "default_interval")]
    pub memory_interval: u32,
}

/// Seed 004's `memory_interval` default.
pub const MEMORY_INTERVAL: u32 = 4;

fn default_interval() -> u32 {
    MEMORY_INTERVAL
}

impl LoreGame {
    pub fn new(world: &World, host: &Player) -> LoreGame {
        let mut book = Book::default();
        let opening = Entry { turn: 0, speaker: say::gm(world.language).to_string(), text: world.opening.clone() };
        book.record(opening, &world.public_text(), &BookRules::default());
        LoreGame {
            world: world.id.clone(),
            language: world.language,
            host: host.clone(),
            phase: Phase::Playing,
            ending: None,
            turn: 0,
            tally: BTreeMap::new(),
            personas: BTreeMap::new(),
            book,
            scene: None,
            calls: 0,
            outcomes: [0; 3],
            source: None,
            memory_interval: MEMORY_INTERVAL,
        }
    }

    /// How the story's memory grows.
    pub fn rules(&self) -> BookRules {
        BookRules { summary_every: self.memory_interval.clamp(1, 50) as usize, ..BookRules::default() }
    }

    pub fn standings(&self) -> Vec<&Tally> {
        let mut all: Vec<&Tally> = self.tally.values().collect();
        all.sort_by(|a, b| (b.wins, a.losses, &a.name).cmp(&(a.wins, b.losses, &b.name)));
        all
    }
}

impl Game for LoreGame {
    const KIND: &'static str = "rpg";
    const VERSION: u32 = 1;
    type Content = World;
    type Event = Event;
    type Rejection = Rejection;

    fn apply(&self, event: &Event, world: &World) -> Result<Self, Rejection> {
        if self.phase == Phase::Over {
            return Err(Rejection::Over);
        }
        let mut next = self.clone();
        match event {
            Event::End { by, moderator } => {
                if *by != self.host.id && !moderator {
                    return Err(Rejection::NotHost);
                }
                next.phase = Phase::Over;
                next.ending = Some(Ending::Ended);
            }
            Event::Turn(t) => {
                next.turn += 1;
                next.calls += u64::from(t.calls);
                let tally = next.tally.entry(t.player.id.clone()).or_default();
                tally.name = t.player.name.clone();
                tally.turns += 1;
                match t.outcome {
                    Outcome::Played => next.outcomes[0] += 1,
                    Outcome::Disqualified => {
                        tally.losses += 1;
                        next.outcomes[1] += 1;
                    }
                    Outcome::Corrected => {
                        tally.wins += 1;
                        next.outcomes[2] += 1;
                    }
                }
                if let Some(p) = &t.persona {
                    next.personas.insert(p.npc.clone(), p.clone());
                }
                next.scene = match &t.speaker {
                    Speaker::Npc(id) => Some(id.clone()),
                    // A ruling or a correction does not end the scene.
                    Speaker::Narrator if t.outcome != Outcome::Played => next.scene.clone(),
                    Speaker::Narrator => None,
                };
                let rules = self.rules();
                let known = world.public_text();
                let turn = next.turn;
                next.book.record(
                    Entry { turn, speaker: t.player.name.clone(), text: t.action.clone() },
                    &known,
                    &rules,
                );
                let speaker = match &t.speaker {
                    Speaker::Npc(id) => world.npc(id).map_or_else(|| id.clone(), |n| n.name.clone()),
                    Speaker::Narrator => say::gm(self.language).to_string(),
                };
                next.book.record(Entry { turn, speaker, text: t.reply.clone() }, &known, &rules);
                if !t.note.is_empty() {
                    next.book.note(Entry { turn, speaker: "referee".into(), text: t.note.clone() }, &rules);
                }
                if let Some((summary, upto)) = &t.summary {
                    next.book.fold(summary.clone(), *upto, &rules);
                }
                for (name, value) in &t.flags {
                    next.book.flag(name, *value);
                }
                for (subject, text) in &t.facts {
                    next.book.establish(subject, text, turn, &rules);
                }
                next.book.archived_upto = next.book.archived_upto.max(t.archived_upto);
                next.book.indexed |= t.indexed;
            }
        }
        Ok(next)
    }

    fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::Playing => "playing",
            Phase::Over => "over",
        }
    }

    fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    fn progress(&self) -> u32 {
        self.turn
    }
}

#[cfg(test)]
mod tests;
