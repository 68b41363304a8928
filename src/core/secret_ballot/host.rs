//! Secret Ballot as the bots host it, under the catalogue group `ballot`.

use std::sync::Arc;

use crate::core::game::{About, Bundled, EngineError, HostedGame, Table, TableOptions};
use crate::core::store::{LoadedSession, NewSession};
use crate::core::vocab::{Language, Player};

use super::{BallotGame, BallotTable};
use crate::core::game::Game;

/// The game's registration (`core::games!`): it has no bundled data.
pub fn hosted(_: &dyn Bundled) -> Arc<dyn HostedGame> {
    Arc::new(BallotHost)
}

/// Secret Ballot as a game the bots host, under the catalogue group `ballot`.
pub struct BallotHost;

impl HostedGame for BallotHost {
    fn about(&self) -> About {
        About { kind: BallotGame::KIND, group: "ballot", verbs: super::DECLARATION, names: &[], data: None }
    }

    fn open(
        &self,
        host: &Player,
        language: Language,
        _: &TableOptions,
        new: NewSession,
    ) -> Result<(NewSession, Box<dyn Table>), String> {
        let game = BallotGame::new(host);
        let new = new.with_game(&game, language, "-")?;
        let table = BallotTable::new(game, Vec::new(), &new.canary);
        Ok((new, Box::new(table)))
    }

    fn resume(
        &self,
        loaded: &LoadedSession,
    ) -> Result<Box<dyn Table>, EngineError> {
        let (game, history): (BallotGame, _) = loaded.restore()?;
        Ok(Box::new(BallotTable::new(game, history, &loaded.canary)))
    }
}

