//! The Lore RPG as a game the bots host (`/rpg …`): `start [world]` opens
//! a session in a bundled world (the first in the server's language when
//! none is named); there is no lobby: everyone in the thread plays, and
//! every message there is an action.

use std::sync::Arc;

use crate::core::actor::EngineError;
use crate::core::game::{
    About, Bundled, ContentCheck, CustomItem, Game, HostedGame, Opened, Table, TableOptions, bundled,
};
use crate::core::guild::CustomContent;
use crate::core::store::{LoadedSession, NewSession};
use crate::core::vocab::Language;
use crate::core::vocab::Player;

use super::{LoreGame, LoreTable, World, Worlds};

pub struct LoreHost {
    pub worlds: Arc<Worlds>,
}

impl LoreHost {
    pub fn new(worlds: Arc<Worlds>) -> LoreHost {
        LoreHost { worlds }
    }

    /// The world `start` names (an id or a title), else the first in `language`.
    pub fn world(&self, named: Option<&str>, language: Language) -> Result<Arc<World>, String> {
        let named = named.map(str::trim).filter(|n| !n.is_empty());
        let found = match named {
            Some(name) => self
                .worlds
                .worlds
                .iter()
                .find(|w| w.id.eq_ignore_ascii_case(name) || w.title.eq_ignore_ascii_case(name)),
            None => self.worlds.first(language).or_else(|| self.worlds.worlds.first()),
        };
        found.cloned().ok_or_else(|| {
            let list: Vec<String> = self.worlds.worlds.iter().map(|w| format!("{} ({})", w.id, w.title)).collect();
            match language {
                Language::En => {
                    format!("No world called {:?}. Worlds: {}.", named.unwrap_or_default(), list.join(", "))
                }
                Language::Zh => format!("没有叫「{}」的世界。可选：{}。", named.unwrap_or_default(), list.join("、")),
            }
        })
    }
}

/// How the moderators' list shows a server's world.
fn shown(w: &World) -> String {
    format!("{} ({}) · {} passages, {} NPCs", w.title, w.language.code(), w.passages.len(), w.npcs.len())
}

/// The game's folder under `data/`: one folder a world (`<id>/world.toml`,
/// `passages.toml`, `npcs.toml`, `probes.toml`).
const DATA: &str = "rpg";

/// The Lore RPG, over its bundled worlds (`data/rpg`). The game's registration (`core::games!`).
pub fn hosted(data: &dyn Bundled) -> Arc<dyn HostedGame> {
    Arc::new(LoreHost::new(bundled::load(data, DATA, "a bundled world", super::Worlds::from_sources)))
}

impl HostedGame for LoreHost {
    fn about(&self) -> About {
        About { kind: LoreGame::KIND, group: "rpg", verbs: super::verbs::DECLARATION, names: super::verbs::LoreVerb::NAMES,
            data: Some(DATA),
        }
    }

    fn knowledge(&self) -> Vec<crate::core::knowledge::Doc> {
        self.worlds.worlds.iter().flat_map(|w| w.docs()).collect()
    }

    fn check(&self, sources: &[(String, String)]) -> Option<ContentCheck> {
        if sources.is_empty() {
            let problems = vec!["no world files (expected <id>/world.toml, passages.toml, npcs.toml)".to_string()];
            return Some(ContentCheck { problems, summary: String::new() });
        }
        let (worlds, problems) = Worlds::from_sources(sources);
        let lines: Vec<String> = worlds
            .worlds
            .iter()
            .map(|w| {
                format!(
                    "{} ({}, {}): {} passages ({} GM-only), {} NPCs, {} probes",
                    w.id,
                    w.title,
                    w.language.code(),
                    w.passages.len(),
                    w.secrets().count(),
                    w.npcs.len(),
                    w.probes.len()
                )
            })
            .collect();
        Some(ContentCheck { problems, summary: lines.join("\n") })
    }

    fn open(&self, host: &Player, language: Language, options: &TableOptions, new: NewSession) -> Opened {
        // A server's own world (`/rpg worlds add`) by its id, else a bundled one.
        let named = options.get("world");
        let own = named.and_then(|n| options.custom.iter().find(|c| c.id.eq_ignore_ascii_case(n)));
        let (world, source) = match own {
            Some(c) => (Arc::new(World::from_one(&c.source).map_err(|p| p.join("; "))?), Some(c.source.clone())),
            None => (self.world(named, options.language.unwrap_or(language))?, None),
        };
        let mut game = LoreGame::new(&world, host);
        game.source = source;
        if let Some(k) = options.number::<u32>("memory_interval") {
            game.memory_interval = k.clamp(1, 50);
        }
        let new = new.with_game(&game, world.language, &world.corpus())?;
        let table = LoreTable::new(game, world, &new.id, &new.canary);
        Ok((new, Box::new(table)))
    }

    fn resume(&self, loaded: &LoadedSession) -> Result<Box<dyn Table>, EngineError> {
        let (game, _): (LoreGame, _) = loaded.restore()?;
        let world = match &game.source {
            Some(source) => Arc::new(World::from_one(source).map_err(|p| EngineError::Resume(p.join("; ")))?),
            None => self
                .worlds
                .get(&game.world)
                .cloned()
                .ok_or_else(|| EngineError::Resume(format!("the world {:?} is not installed", game.world)))?,
        };
        Ok(Box::new(LoreTable::new(game, world, &loaded.id, &loaded.canary)))
    }

    fn plays_messages(&self) -> bool {
        true
    }

    /// A server's own world: one TOML text with the fields of
    /// `world.toml` and its `[[passage]]` and `[[npc]]` tables (at least
    /// three passages and one NPC), checked like a bundled world.
    fn custom(&self, language: Language, text: &str) -> Option<Result<CustomItem, String>> {
        Some(match World::from_one(text) {
            Ok(w) if self.worlds.get(&w.id).is_some() => Err(super::say::world_taken(language, &w.id)),
            Ok(w) => Ok(CustomItem { id: w.id.clone(), source: text.to_string(), shown: shown(&w) }),
            Err(problems) => Err(super::say::world_refused(language, &problems)),
        })
    }

    fn custom_shown(&self, item: &CustomContent) -> String {
        World::from_one(&item.source).map_or_else(|_| item.id.clone(), |w| shown(&w))
    }

    fn role_name(&self, language: Language, role: &str) -> String {
        match (language, role) {
            (Language::Zh, "adventurer") => "冒险者".into(),
            _ => role.to_string(),
        }
    }
}
