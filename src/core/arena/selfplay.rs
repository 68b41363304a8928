//! `echoes selfplay arena`: AI-only games on the real table (the same
//! prompts, scorer, parser, narrator and fallbacks as a live game), driven
//! without a store or timers. The report (one engine `SelfplayReport`) is
//! what a user judges a model or a rubric by: the spread of scores per
//! dimension, game length and how often the scorer's answer could be read.
//! Its options are the `selfplay` verb's in `commands/<game>.toml`.

use async_trait::async_trait;

use crate::core::game::Played;
use crate::core::game::drive::drive;
use crate::core::game::selfplay::{Figure, GameRow, Lobby, Row, SelfPlay, per_game, percent};
use crate::core::services::Pipeline;
use crate::core::vocab::Player;

use super::{ArenaGame, ArenaHost, ArenaTable, DIMENSIONS, Outcome};

/// Most inputs one game may take before it is called off.
const MAX_STEPS: usize = 600;
/// AI characters per self-played game unless the run names a number.
const CHARACTERS: usize = 4;

/// One self-played game.
#[derive(Debug, Clone, PartialEq)]
pub struct GameResult {
    pub topic: String,
    pub outcome: Option<Outcome>,
    pub turns: u32,
    pub rounds: u32,
    pub eliminated: usize,
    /// Every readable score given, per dimension.
    pub scores: [Vec<u8>; 5],
    pub scored: usize,
    pub parsed: usize,
    pub agent_moves: usize,
    pub fallbacks: usize,
}

/// Mean, standard deviation, least and most of some scores.
fn spread(values: &[u8]) -> (f64, f64, u8, u8) {
    if values.is_empty() {
        return (0.0, 0.0, 0, 0);
    }
    let n = values.len() as f64;
    let mean = values.iter().map(|v| f64::from(*v)).sum::<f64>() / n;
    let var = values.iter().map(|v| (f64::from(*v) - mean).powi(2)).sum::<f64>() / n;
    (mean, var.sqrt(), *values.iter().min().unwrap_or(&0), *values.iter().max().unwrap_or(&0))
}

/// The spread of one dimension's readable scores over every game.
fn dimension(games: &[GameResult], i: usize) -> Row {
    let all: Vec<u8> = games.iter().flat_map(|g| g.scores[i].iter().copied()).collect();
    let (mean, sd, min, max) = spread(&all);
    let figures = vec![
        Figure::new("mean", format!("{mean:.2}")),
        Figure::new("sd", format!("{sd:.2}")),
        Figure::new("min", min.to_string()),
        Figure::new("max", max.to_string()),
    ];
    Row::labelled(format!("score spread (readable scores only), {}", DIMENSIONS[i]), figures)
}

/// Who opens every self-played lobby (and leaves it to the characters).
fn host() -> Player {
    Player { id: "selfplay:host".into(), name: "host".into() }
}

#[async_trait]
impl SelfPlay for ArenaHost {
    type Result = GameResult;
    const GAMES: usize = 5;
    const COLUMNS: &'static [&'static str] = &["topic", "turns", "rounds", "out", "scored", "parsed", "fallbacks"];

    /// A lobby of AI characters only (the host leaves it), topic and
    /// personas from its seed.
    async fn play(&self, pipeline: &Pipeline, lobby: Lobby) -> Result<GameResult, String> {
        let mut options = lobby.options.with("spectate", "yes");
        options.ai_seats = options.ai_seats.or(Some(CHARACTERS));
        let (game, cast) = self.lobby(&host(), lobby.language, &options, lobby.seed)?;
        let table = ArenaTable::new(game, cast, &format!("selfplay-{}", lobby.seed));
        Ok(play_game(pipeline, table, &host(), &mut |_, _| {}).await)
    }

    fn row(&self, g: &GameResult) -> GameRow {
        let outcome = g.outcome.map_or("unfinished", |o| match o {
            Outcome::Finished => "finished",
            Outcome::Ended => "ended",
            Outcome::Abandoned => "abandoned",
        });
        let counts = [g.turns as usize, g.rounds as usize, g.eliminated, g.scored, g.parsed, g.fallbacks];
        GameRow::new(g.topic.chars().take(40).collect::<String>(), outcome, counts.map(|n| n.to_string()).to_vec())
    }

    fn summary(&self, games: &[GameResult]) -> Vec<Row> {
        let sum = |f: fn(&GameResult) -> usize| games.iter().map(f).sum::<usize>();
        let turns = sum(|g| g.turns as usize) as f64;
        let parse_rate = percent(sum(|g| g.parsed), sum(|g| g.scored));
        let mut rows = vec![
            Row::new(vec![
                Figure::new("mean length", format!("{:.1} turns", per_game(turns, games.len()))),
                Figure::new(
                    "eliminations per game",
                    format!("{:.1}", per_game(sum(|g| g.eliminated) as f64, games.len())),
                ),
                Figure::new("scorer parse rate", format!("{parse_rate:.1}%")),
            ]),
            Row::new(vec![Figure::new(
                "AI contributions that fell back to a stock line",
                format!("{:.1}%", percent(sum(|g| g.fallbacks), sum(|g| g.agent_moves))),
            )]),
        ];
        rows.extend((0..DIMENSIONS.len()).map(|i| dimension(games, i)));
        rows
    }
}

/// Plays a lobby to the end with AI contestants only, `host` starting it;
/// `observe` sees the state before each input and what it did.
pub async fn play_game(
    pipeline: &Pipeline,
    mut table: ArenaTable,
    host: &Player,
    observe: &mut (dyn FnMut(&ArenaGame, &Played) + Send),
) -> GameResult {
    let mut watch = |t: &ArenaTable, played: &Played| observe(&t.game, played);
    drive(pipeline, &mut table, host.clone(), MAX_STEPS, &mut watch).await;
    let g = &table.game;
    let mut scores: [Vec<u8>; 5] = Default::default();
    for c in g.said.iter().filter(|c| c.parsed) {
        if let Some(s) = c.scores {
            for (i, v) in s.values().into_iter().enumerate() {
                scores[i].push(v);
            }
        }
    }
    let (scored, parsed) = table.scorer_counts();
    let (agent_moves, fallbacks) = table.agent_counts();
    GameResult {
        topic: g.topic.clone(),
        outcome: g.outcome,
        turns: g.turn,
        rounds: g.rounds.len() as u32,
        eliminated: g.out.values().filter(|e| matches!(e, super::Exit::Eliminated { .. })).count(),
        scores,
        scored,
        parsed,
        agent_moves,
        fallbacks,
    }
}
