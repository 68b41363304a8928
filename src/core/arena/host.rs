//! The Arena as a game the bots host (`/arena …`): a lobby with the topic
//! `start` was given (or one picked from the bundled list by the seed),
//! AI characters seated with personas from the roster, and the table
//! rebuilt from the record.

use std::sync::Arc;

use crate::core::actor::EngineError;
use crate::core::game::{About, Bundled, Game, HostedGame, Opened, Selfplayer, Table, TableOptions, bundled};
use crate::core::store::{LoadedSession, NewSession};
use crate::core::vocab::Language;
use crate::core::vocab::Player;

use super::roster::Cast;
use super::{ArenaGame, ArenaTable, Event, MAX_SEATS, MAX_TURNS, Roster, Rules, splitmix};

/// AI characters seated when `start` names none.
const DEFAULT_CHARACTERS: usize = 3;
/// The range a human's time to speak may be set in, in seconds.
const MIN_TURN_SECONDS: u32 = 5;
const MAX_TURN_SECONDS: u32 = 600;

/// The stages' last turns: the host's rules (the seed's turns 1–10 and
/// 11–30) when the game is long enough to reach its late stage; a shorter
/// game is cut in thirds, so it has a middle and a late stage too.
fn stages(max_turns: u32, rules: &Rules) -> (u32, u32) {
    if max_turns > rules.middle_until {
        (rules.early_until, rules.middle_until)
    } else {
        (max_turns.div_ceil(3), (2 * max_turns).div_ceil(3))
    }
}

pub struct ArenaHost {
    pub roster: Arc<Roster>,
    pub rules: Rules,
}

impl ArenaHost {
    pub fn new(roster: Arc<Roster>) -> ArenaHost {
        ArenaHost { roster, rules: Rules::default() }
    }

    fn cast(&self, language: Language) -> Result<Arc<Cast>, String> {
        self.roster.cast(language).cloned().map(Arc::new).ok_or_else(|| match language {
            Language::En => "The Arena has no English cast to play with.".to_string(),
            Language::Zh => "竞技场没有可用的中文角色。".to_string(),
        })
    }

    /// A lobby as `open` makes it, with a given seed (tests and self-play).
    pub fn lobby(
        &self,
        host: &Player,
        language: Language,
        options: &TableOptions,
        seed: u64,
    ) -> Result<(ArenaGame, Arc<Cast>), String> {
        let cast = self.cast(language)?;
        let topic = match options.get("topic") {
            Some(topic) => topic.chars().take(200).collect(),
            None if cast.topics.is_empty() => return Err("no topic".into()),
            None => cast.topics[(splitmix(seed) % cast.topics.len() as u64) as usize].text.clone(),
        };
        let max_turns = options.number::<u32>("max_turns").unwrap_or(self.rules.max_turns).clamp(1, MAX_TURNS);
        let (early_until, middle_until) = stages(max_turns, &self.rules);
        let turn_seconds = options
            .number::<u32>("turn_seconds")
            .map_or(self.rules.turn_seconds, |s| s.clamp(MIN_TURN_SECONDS, MAX_TURN_SECONDS));
        let rules = Rules { max_turns, early_until, middle_until, turn_seconds, ..self.rules.clone() };
        let characters = options.ai_seats.unwrap_or(DEFAULT_CHARACTERS);
        let seats = options.seats.unwrap_or(MAX_SEATS);
        let mut game = ArenaGame::new(host, seats, rules, language, &topic, seed);
        for i in 0..characters {
            let unused: Vec<_> = cast.personas.iter().filter(|p| !game.cast.values().any(|c| c.id == p.id)).collect();
            if unused.is_empty() {
                break;
            }
            let persona = unused[(splitmix(seed ^ i as u64) % unused.len() as u64) as usize].clone();
            match game.apply(&Event::AddAi(persona), &()) {
                Ok(next) => game = next,
                Err(_) => break,
            }
        }
        if options.flag("spectate") == Some(true) && game.seats.len() > 1 {
            let leave = Event::Leave { seat: host.id.clone(), now_ms: 0 };
            if let Ok(next) = game.apply(&leave, &()) {
                game = next;
            }
        }
        Ok((game, cast))
    }
}

/// The Arena, over its bundled cast and topics (`data/arena`). The game's registration (`core::games!`).
pub fn hosted(data: &dyn Bundled) -> Arc<dyn HostedGame> {
    Arc::new(ArenaHost::new(bundled::load(data, "arena", "a bundled Arena file", super::Roster::from_sources)))
}

impl HostedGame for ArenaHost {
    fn about(&self) -> About {
        About { kind: ArenaGame::KIND, group: "arena", verbs: super::verbs::DECLARATION }
    }

    fn open(&self, host: &Player, language: Language, options: &TableOptions, new: NewSession) -> Opened {
        let (game, cast) = self.lobby(host, language, options, options.seed.unwrap_or_else(rand::random))?;
        let new = new.with_game(&game, language, "arena")?;
        let table = ArenaTable::new(game, cast, &new.canary);
        Ok((new, Box::new(table)))
    }

    fn selfplay(self: Arc<Self>) -> Option<Arc<dyn Selfplayer>> {
        Some(self)
    }

    fn resume(&self, loaded: &LoadedSession) -> Result<Box<dyn Table>, EngineError> {
        let (game, _): (ArenaGame, _) = loaded.restore()?;
        let cast = self.cast(game.language).map_err(EngineError::Resume)?;
        Ok(Box::new(ArenaTable::new(game, cast, &loaded.canary)))
    }

    fn role_name(&self, language: Language, role: &str) -> String {
        match (language, role) {
            (Language::Zh, "contestant") => "选手".into(),
            _ => role.to_string(),
        }
    }
}
