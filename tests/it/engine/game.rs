//! "Secret Ballot", the test game (`echoes::core::ballot`), registered as
//! every real game is; what the engine tests need beside it: a lobby
//! opened straight on an engine, and a resume after a restart.

use std::sync::Arc;

use echoes::core::actor::{Engine, Opened, SessionHandle, new_canary};
use echoes::core::game::Game;
use echoes::core::store::{NewSession, StoreError};
use echoes::core::vocab::{Language, Player};

pub use echoes::core::secret_ballot::{BallotGame, BallotHost, BallotTable, PHRASES, VOTE_SECONDS};

/// The game's verb declaration.
pub const CATALOGUE: &str = echoes::core::secret_ballot::DECLARATION;

/// Opens a lobby: the session row, the actor.
pub async fn open_lobby(engine: &Arc<Engine>, host: &Player) -> Result<SessionHandle, StoreError> {
    let game = BallotGame::new(host);
    let new = NewSession {
        id: uuid_like(),
        puzzle_id: "-".into(),
        language: Language::En,
        channel: "test".into(),
        canary: new_canary(),
        snapshot: game.snapshot().expect("serialises"),
        created_ms: engine.clock.now_ms(),
    };
    engine.store.create_session(&new).await?;
    let table = BallotTable::new(game, Vec::new(), &new.canary);
    let opened = Opened { id: new.id, last_activity_ms: new.created_ms, seq: 0 };
    Ok(engine.open_table(opened, Box::new(table)))
}

/// Resumes a stored ballot game after a restart.
pub async fn resume(engine: &Arc<Engine>, id: &str) -> SessionHandle {
    let loaded = engine.store.load_session(id).await.unwrap().unwrap();
    let game: BallotGame = loaded.game().unwrap();
    let history = loaded.turns.iter().filter_map(|t| t.public.clone()).collect();
    let table = BallotTable::new(game, history, &loaded.canary);
    let seq = loaded.turns.last().map_or(0, |t| t.seq);
    engine.open_table(Opened { id: loaded.id.clone(), last_activity_ms: loaded.last_activity_ms, seq }, Box::new(table))
}

fn uuid_like() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    format!("ballot-{}-{}", std::process::id(), N.fetch_add(1, Ordering::SeqCst))
}
