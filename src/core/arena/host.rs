//! The Arena as a game the bots host (`/arena …`): a lobby with the topic
//! `start` was given (or one picked from the bundled list by the seed),
//! AI characters seated with personas from the roster, and the table
//! rebuilt from the record.

use std::sync::Arc;

use crate::core::actor::EngineError;
use crate::core::game::{
    About, Bundled, ContentCheck, Game, HostedGame, Opened, Selfplayer, Table, TableOptions, bundled,
};
use crate::core::store::{LoadedSession, NewSession};
use crate::core::vocab::Language;
use crate::core::vocab::Player;

use super::roster::Cast;
use super::{ArenaGame, ArenaTable, Elimination, Event, MAX_SEATS, MAX_TURNS, Roster, Rules, say, splitmix};

/// AI characters seated when `start` names none.
const DEFAULT_CHARACTERS: usize = 3;
/// The range a human's time to speak may be set in, in seconds.
const MIN_TURN_SECONDS: u32 = 5;
const MAX_TURN_SECONDS: u32 = 600;

/// The stages' last turns: the host's own when given (checked in
/// `rules_for`), else the defaults (the seed's turns 1–10 and 11–30) when
/// the game is long enough to reach its late stage; a shorter game is cut
/// in thirds, so it has a middle and a late stage too.
fn stages(max_turns: u32, rules: &Rules, asked: (Option<u32>, Option<u32>)) -> (u32, u32) {
    match asked {
        (Some(early), Some(middle)) => (early, middle),
        (Some(early), None) => (early, rules.middle_until.max(early + 1)),
        (None, Some(middle)) => (rules.early_until.min(middle.saturating_sub(1)).max(1), middle),
        (None, None) if max_turns > rules.middle_until => (rules.early_until, rules.middle_until),
        (None, None) => (max_turns.div_ceil(3), (2 * max_turns).div_ceil(3)),
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

    /// The host's rules from `start`'s options (or the config's) over the
    /// defaults: the turn limit, the elimination threshold and rule, the
    /// stage boundaries and a human's time to speak. A value out of range
    /// is refused with what a valid one is, never silently changed.
    pub fn rules_for(&self, language: Language, options: &TableOptions) -> Result<Rules, String> {
        let bad = |rule: &str, value: &str, min: u32, max: u32| {
            say::bad_rule(language, rule, value, &say::rule_expected(language, rule, min, max))
        };
        let turns = |name: &str| -> Result<Option<u32>, String> {
            options.get(name).map_or(Ok(None), |v| {
                v.parse::<u32>()
                    .ok()
                    .filter(|n| (1..=MAX_TURNS).contains(n))
                    .map(Some)
                    .ok_or_else(|| bad(name, v, 1, MAX_TURNS))
            })
        };
        let max_turns = turns("max_turns")?.unwrap_or(self.rules.max_turns).clamp(1, MAX_TURNS);
        let asked = (turns("early_until")?, turns("middle_until")?);
        let (early_until, middle_until) = stages(max_turns, &self.rules, asked);
        if early_until >= middle_until {
            let value = format!("{early_until} / {middle_until}");
            return Err(bad("stages", &value, 1, MAX_TURNS));
        }
        let threshold = match options.get("threshold") {
            Some(v) => {
                v.parse::<f32>().ok().filter(|t| (0.0..=10.0).contains(t)).ok_or_else(|| bad("threshold", v, 0, 10))?
            }
            None => self.rules.threshold,
        };
        let elimination = match options.get("elimination").map(str::to_lowercase).as_deref() {
            Some("below" | "threshold" | "below_threshold") => Elimination::BelowThreshold,
            Some("lowest" | "always") => Elimination::Lowest,
            Some(v) => return Err(bad("elimination", v, 0, 0)),
            None => self.rules.elimination,
        };
        let turn_seconds = match options.get("turn_seconds") {
            Some(v) => v
                .parse::<u32>()
                .ok()
                .filter(|s| (MIN_TURN_SECONDS..=MAX_TURN_SECONDS).contains(s))
                .ok_or_else(|| bad("turn_seconds", v, MIN_TURN_SECONDS, MAX_TURN_SECONDS))?,
            None => self.rules.turn_seconds,
        };
        Ok(Rules { max_turns, early_until, middle_until, turn_seconds, threshold, elimination, ..self.rules.clone() })
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
        let rules = self.rules_for(language, options)?;
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

/// The game's folder under `data/`: its cast, `en/*.toml` and `zh/*.toml`
/// (personas, narrators, topics).
const DATA: &str = "arena";

/// The Arena, over its bundled cast and topics (`data/arena`). The game's registration (`core::games!`).
pub fn hosted(data: &dyn Bundled) -> Arc<dyn HostedGame> {
    Arc::new(ArenaHost::new(bundled::load(data, DATA, "a bundled Arena file", super::Roster::from_sources)))
}

impl HostedGame for ArenaHost {
    fn about(&self) -> About {
        About {
            kind: ArenaGame::KIND,
            group: "arena",
            verbs: super::verbs::DECLARATION,
            names: super::verbs::ArenaVerb::NAMES,
            data: Some(DATA),
        }
    }

    fn check(&self, sources: &[(String, String)]) -> Option<ContentCheck> {
        let (roster, problems) = Roster::from_sources(sources);
        Some(ContentCheck { problems, summary: format!("{} files\n{}", sources.len(), roster.summary()) })
    }

    fn replay(&self, loaded: &LoadedSession) -> Option<Result<String, EngineError>> {
        let replay = || -> Result<String, EngineError> {
            let (game, _): (ArenaGame, _) = loaded.restore()?;
            let cast = self.cast(game.language).map_err(EngineError::Resume)?;
            Ok(ArenaTable::new(game, cast, &loaded.canary).replay())
        };
        Some(replay())
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
