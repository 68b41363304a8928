//! `echoes selfplay arena`: AI-only games on the real table (the same
//! prompts, scorer, parser, narrator and fallbacks as a live game), driven
//! without a store or timers. The report is what a user judges a model or
//! a rubric by: the spread of scores per dimension, game length and how
//! often the scorer's answer could be read.

use std::time::Instant;

use crate::core::game::drive::drive;
use crate::core::game::{Played, TableOptions};
use crate::core::soup::pipeline::Pipeline;
use crate::core::vocab::Language;
use crate::core::vocab::Player;

use super::{ArenaGame, ArenaHost, ArenaTable, DIMENSIONS, Outcome, splitmix};

/// Most inputs one game may take before it is called off.
const MAX_STEPS: usize = 600;

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
    pub millis: u128,
}

#[derive(Debug, Clone, Default)]
pub struct Report {
    pub games: Vec<GameResult>,
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

impl Report {
    /// Contributions whose scores could be read, of all scored.
    pub fn parse_rate(&self) -> f64 {
        let scored: usize = self.games.iter().map(|g| g.scored).sum();
        let parsed: usize = self.games.iter().map(|g| g.parsed).sum();
        if scored == 0 { 0.0 } else { parsed as f64 / scored as f64 }
    }

    /// Mean, sd, min and max of one dimension over every game.
    pub fn dimension(&self, i: usize) -> (f64, f64, u8, u8) {
        let all: Vec<u8> = self.games.iter().flat_map(|g| g.scores[i].iter().copied()).collect();
        spread(&all)
    }

    pub fn render(&self) -> String {
        let mut out = String::from("game  outcome     turns  rounds  out  scored  parsed  fallbacks  seconds  topic\n");
        for (i, g) in self.games.iter().enumerate() {
            let outcome = g.outcome.map_or("unfinished", |o| match o {
                Outcome::Finished => "finished",
                Outcome::Ended => "ended",
                Outcome::Abandoned => "abandoned",
            });
            let topic: String = g.topic.chars().take(40).collect();
            out.push_str(&format!(
                "{:<5} {:<11} {:>5}  {:>6}  {:>3}  {:>6}  {:>6}  {:>9}  {:>7.1}  {topic}\n",
                i + 1,
                outcome,
                g.turns,
                g.rounds,
                g.eliminated,
                g.scored,
                g.parsed,
                g.fallbacks,
                g.millis as f64 / 1000.0
            ));
        }
        let n = self.games.len().max(1) as f64;
        let turns: u32 = self.games.iter().map(|g| g.turns).sum();
        let out_n: usize = self.games.iter().map(|g| g.eliminated).sum();
        out.push_str(&format!(
            "\n{} games · mean length {:.1} turns · {:.1} eliminations per game · scorer parse rate {:.1}%\n",
            self.games.len(),
            f64::from(turns) / n,
            out_n as f64 / n,
            100.0 * self.parse_rate()
        ));
        let moves: usize = self.games.iter().map(|g| g.agent_moves).sum();
        let fell: usize = self.games.iter().map(|g| g.fallbacks).sum();
        let fallback = if moves == 0 { 0.0 } else { 100.0 * fell as f64 / moves as f64 };
        out.push_str(&format!("AI contributions that fell back to a stock line: {fallback:.1}%\n"));
        out.push_str("score spread (readable scores only): dimension  mean  sd  min  max\n");
        for (i, name) in DIMENSIONS.iter().enumerate() {
            let (mean, sd, min, max) = self.dimension(i);
            out.push_str(&format!("  {name:<17} {mean:>5.2} {sd:>4.2} {min:>4} {max:>4}\n"));
        }
        out
    }
}

/// Plays `games` AI-only games of `characters` contestants.
pub async fn run(
    pipeline: &Pipeline,
    host: &ArenaHost,
    characters: usize,
    max_turns: Option<u32>,
    language: Language,
    games: usize,
    seed: u64,
) -> Result<Report, String> {
    let mut report = Report::default();
    for g in 0..games {
        let seed = splitmix(seed.wrapping_add(g as u64));
        let mut options = TableOptions { ai_seats: Some(characters), seed: Some(seed), ..TableOptions::default() }
            .with("spectate", "yes");
        if let Some(max_turns) = max_turns {
            options.set("max_turns", max_turns.to_string());
        }
        let first = Player { id: "selfplay:host".into(), name: "host".into() };
        let (game, cast) = host.lobby(&first, language, &options, seed)?;
        let table = ArenaTable::new(game, cast, &format!("selfplay-{seed}"));
        report.games.push(play_game(pipeline, table, &first, &mut |_, _| {}).await);
    }
    Ok(report)
}

/// Plays a lobby to the end with AI contestants only, `host` starting it;
/// `observe` sees the state before each input and what it did.
pub async fn play_game(
    pipeline: &Pipeline,
    mut table: ArenaTable,
    host: &Player,
    observe: &mut (dyn FnMut(&ArenaGame, &Played) + Send),
) -> GameResult {
    let started = Instant::now();
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
        millis: started.elapsed().as_millis(),
    }
}
