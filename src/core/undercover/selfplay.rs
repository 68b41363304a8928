//! `echoes selfplay undercover`: AI-only games on the real table (the same
//! prompts, parsers, checks and fallbacks as live AI seats), driven
//! without a store or timers: when no seat owes a move, the phase's
//! deadline is played as if it had passed. Its report (one engine
//! `SelfplayReport`) gives win rates by role, game length and how often an
//! AI seat's move fell back to a safe move; its options are the
//! `selfplay` verb's in `commands/<game>.toml`.

use async_trait::async_trait;

use crate::core::actor::engine_player;
use crate::core::game::drive::drive;
use crate::core::game::selfplay::{Figure, GameRow, Lobby, Row, SelfPlay, per_game, percent};
use crate::core::game::{Played, seats::ai_name};
use crate::core::services::Pipeline;
use crate::core::vocab::Player;

use super::{Outcome, Phase, UndercoverGame, UndercoverHost, UndercoverTable};

/// Most inputs one game may take before it is called off.
const MAX_STEPS: usize = 400;
/// Seats at a self-played table unless the run names a number.
const SEATS: usize = 6;

/// One self-played game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    pub pair_id: String,
    pub outcome: Option<Outcome>,
    pub rounds: u32,
    pub agent_moves: usize,
    pub fallbacks: usize,
    /// Deadlines that passed because no seat moved.
    pub timeouts: usize,
}

/// How a game ended, as the report names it.
fn outcome_name(outcome: Option<Outcome>) -> &'static str {
    outcome.map_or("unfinished", |o| match o {
        Outcome::Civilians => "civilians",
        Outcome::Undercover => "undercover",
        Outcome::Blank => "blank",
        Outcome::Ended => "ended",
    })
}

#[async_trait]
impl SelfPlay for UndercoverHost {
    type Result = GameResult;
    const GAMES: usize = 10;
    const COLUMNS: &'static [&'static str] = &["pair", "rounds", "moves", "fallbacks", "timeouts"];

    /// A lobby of AI seats only (the first seat too), dealt from its seed.
    async fn play(&self, pipeline: &Pipeline, lobby: Lobby) -> Result<GameResult, String> {
        let mut options = lobby.options;
        let seats = *options.seats.get_or_insert(SEATS);
        options.ai_seats = Some(seats.saturating_sub(1));
        let first = Player { id: "ai:0".into(), name: ai_name(0) };
        let game = self.lobby(&first, lobby.language, &options, lobby.seed)?;
        Ok(play_game(pipeline, game, &mut |_, _| {}).await)
    }

    fn row(&self, g: &GameResult) -> GameRow {
        let figures = [g.rounds as usize, g.agent_moves, g.fallbacks, g.timeouts].map(|n| n.to_string()).to_vec();
        GameRow::new(&g.pair_id, outcome_name(g.outcome), figures)
    }

    fn summary(&self, games: &[GameResult]) -> Vec<Row> {
        let share = |o: Option<Outcome>| {
            format!("{:.0}%", percent(games.iter().filter(|g| g.outcome == o).count(), games.len()))
        };
        let wins = vec![
            Figure::new("civilians won", share(Some(Outcome::Civilians))),
            Figure::new("undercover won", share(Some(Outcome::Undercover))),
            Figure::new("blank won", share(Some(Outcome::Blank))),
            Figure::new("unfinished", share(None)),
        ];
        let rounds: u32 = games.iter().map(|g| g.rounds).sum();
        let moves: usize = games.iter().map(|g| g.agent_moves).sum();
        let fell: usize = games.iter().map(|g| g.fallbacks).sum();
        vec![
            Row::new(wins),
            Row::new(vec![
                Figure::new("mean length", format!("{:.1} rounds", per_game(f64::from(rounds), games.len()))),
                Figure::new("AI moves that fell back to a safe move", format!("{:.1}%", percent(fell, moves))),
            ]),
        ]
    }
}

/// Plays a lobby to the end with AI seats only (its first seat is made an
/// AI seat), showing `observe` the state before each input and what the
/// input did.
pub async fn play_game(
    pipeline: &Pipeline,
    mut game: UndercoverGame,
    observe: &mut (dyn FnMut(&UndercoverGame, &Played) + Send),
) -> GameResult {
    if let Some(seat) = game.seats.seats.first_mut() {
        seat.ai = true;
    }
    let first = game.seats.seats.first().map(|s| s.player.clone()).unwrap_or_else(engine_player);
    let mut table = UndercoverTable::new(game, Vec::new(), &format!("selfplay-{}", first.id));
    let mut watch = |t: &UndercoverTable, played: &Played| observe(&t.game, played);
    let timeouts = drive(pipeline, &mut table, first, MAX_STEPS, &mut watch).await;
    let game = &table.game;
    let (agent_moves, fallbacks) = table.agent_counts();
    GameResult {
        pair_id: game.dealt.pair_id.clone(),
        outcome: (game.phase == Phase::Over).then_some(game.outcome).flatten(),
        rounds: game.round(),
        agent_moves,
        fallbacks,
        timeouts,
    }
}
