//! Werewolf as a game the bots host (`/werewolf …`): a lobby with the
//! options `start` was given (seats, AI seats, the Witch, the Hunter,
//! whether an exile shows the role, anonymous AI seats, the seed), and
//! the table rebuilt from the record. It has no bundled data.

use std::sync::Arc;

use crate::core::game::{About, Bundled, EngineError, Game, HostedGame, Table, TableOptions};
use crate::core::store::{LoadedSession, NewSession};
use crate::core::vocab::{Language, Player};

use super::{Event, MAX_SEATS, MIN_SEATS, Role, Rules, WerewolfGame, WerewolfTable, say};

/// The game's registration (`core::games!`).
pub fn hosted(_: &dyn Bundled) -> Arc<dyn HostedGame> {
    Arc::new(WerewolfHost::default())
}

#[derive(Debug, Clone, Default)]
pub struct WerewolfHost {
    /// The defaults a table's options change.
    pub rules: Rules,
}

impl WerewolfHost {
    /// A lobby as `open` makes it, with a given seed (tests and self-play):
    /// at most `seats` seats (12 without), filled with AI seats to
    /// `seats` (5 without) when it starts.
    pub fn lobby(&self, host: &Player, language: Language, options: &TableOptions, seed: u64) -> WerewolfGame {
        let rules = Rules {
            witch: options.flag("witch").unwrap_or(self.rules.witch),
            hunter: options.flag("hunter").unwrap_or(self.rules.hunter),
            reveal: options.flag("reveal").unwrap_or(self.rules.reveal),
            anonymous: options.flag("anonymous").unwrap_or(self.rules.anonymous),
            fill_to: options.seats.unwrap_or(MIN_SEATS),
            ..self.rules.clone()
        };
        let mut game = WerewolfGame::new(host, options.seats.unwrap_or(MAX_SEATS), rules, language, seed);
        for _ in 0..options.ai_seats.unwrap_or(0) {
            match game.apply(&Event::AddAi, &()) {
                Ok(next) => game = next,
                Err(_) => break,
            }
        }
        game
    }
}

impl HostedGame for WerewolfHost {
    fn about(&self) -> About {
        About {
            kind: WerewolfGame::KIND,
            group: "werewolf",
            verbs: super::verbs::DECLARATION,
            names: super::verbs::WerewolfVerb::NAMES,
            data: None,
        }
    }

    fn open(
        &self,
        host: &Player,
        language: Language,
        options: &TableOptions,
        new: NewSession,
    ) -> Result<(NewSession, Box<dyn Table>), String> {
        let game = self.lobby(host, language, options, options.seed.unwrap_or_else(rand::random));
        let new = new.with_game(&game, language, "-")?;
        let table = WerewolfTable::new(game, Vec::new(), &new.canary);
        Ok((new, Box::new(table)))
    }

    fn resume(&self, loaded: &LoadedSession) -> Result<Box<dyn Table>, EngineError> {
        let (game, history): (WerewolfGame, _) = loaded.restore()?;
        Ok(Box::new(WerewolfTable::new(game, history, &loaded.canary)))
    }

    fn selfplay(self: Arc<Self>) -> Option<Arc<dyn crate::core::game::selfplay::Selfplayer>> {
        Some(self)
    }

    fn role_name(&self, language: Language, role: &str) -> String {
        Role::parse(role).map_or_else(|| role.to_string(), |r| say::role(language, r))
    }
}
