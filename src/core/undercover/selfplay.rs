//! `echoes selfplay undercover`: AI-only games on the real table (the same
//! prompts, parsers, checks and fallbacks as live AI seats), driven
//! without a store or timers: when no seat owes a move, the phase's
//! deadline is played as if it had passed. What a user runs to judge a
//! model or a prompt before putting it in front of people.

use std::collections::BTreeMap;
use std::time::Instant;

use crate::core::actor::engine_player;
use crate::core::game::drive::drive;
use crate::core::game::{Played, TableOptions, seats::ai_name};
use crate::core::soup::pipeline::Pipeline;
use crate::core::vocab::Language;
use crate::core::vocab::Player;

use super::{Outcome, Phase, UndercoverGame, UndercoverHost, UndercoverTable};

/// Most inputs one game may take before it is called off.
const MAX_STEPS: usize = 400;

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
    pub millis: u128,
}

#[derive(Debug, Clone, Default)]
pub struct Report {
    pub games: Vec<GameResult>,
}

impl Report {
    pub fn wins(&self, outcome: Outcome) -> usize {
        self.games.iter().filter(|g| g.outcome == Some(outcome)).count()
    }

    pub fn fallback_rate(&self) -> f64 {
        let moves: usize = self.games.iter().map(|g| g.agent_moves).sum();
        let fell: usize = self.games.iter().map(|g| g.fallbacks).sum();
        if moves == 0 { 0.0 } else { fell as f64 / moves as f64 }
    }

    /// The report as printed.
    pub fn render(&self) -> String {
        let n = self.games.len().max(1) as f64;
        let pct = |k: usize| 100.0 * k as f64 / n;
        let mut out =
            String::from("game  pair              outcome      rounds  moves  fallbacks  timeouts  seconds\n");
        for (i, g) in self.games.iter().enumerate() {
            let outcome = g.outcome.map_or("unfinished", |o| match o {
                Outcome::Civilians => "civilians",
                Outcome::Undercover => "undercover",
                Outcome::Blank => "blank",
                Outcome::Ended => "ended",
            });
            out.push_str(&format!(
                "{:<5} {:<17} {:<12} {:>6}  {:>5}  {:>9}  {:>8}  {:>7.1}\n",
                i + 1,
                g.pair_id,
                outcome,
                g.rounds,
                g.agent_moves,
                g.fallbacks,
                g.timeouts,
                g.millis as f64 / 1000.0
            ));
        }
        let rounds: u32 = self.games.iter().map(|g| g.rounds).sum();
        let unfinished = self.games.iter().filter(|g| g.outcome.is_none()).count();
        out.push_str(&format!(
            "\n{} games · civilians won {:.0}% · undercover won {:.0}% · blank won {:.0}% · unfinished {:.0}%\n",
            self.games.len(),
            pct(self.wins(Outcome::Civilians)),
            pct(self.wins(Outcome::Undercover)),
            pct(self.wins(Outcome::Blank)),
            pct(unfinished)
        ));
        out.push_str(&format!(
            "mean length {:.1} rounds · AI moves that fell back to a safe move: {:.1}%\n",
            f64::from(rounds) / n,
            100.0 * self.fallback_rate()
        ));
        out
    }
}

/// Plays `games` AI-only games of `seats` seats.
pub async fn run(
    pipeline: &Pipeline,
    host: &UndercoverHost,
    seats: usize,
    blank: bool,
    language: Language,
    games: usize,
    seed: u64,
) -> Result<Report, String> {
    let mut report = Report::default();
    for g in 0..games {
        let seed = super::splitmix(seed.wrapping_add(g as u64));
        report.games.push(play_one(pipeline, host, seats, blank, language, seed).await?);
    }
    Ok(report)
}

async fn play_one(
    pipeline: &Pipeline,
    host: &UndercoverHost,
    seats: usize,
    blank: bool,
    language: Language,
    seed: u64,
) -> Result<GameResult, String> {
    let first = Player { id: "ai:0".into(), name: ai_name(0) };
    let options = TableOptions {
        seats: Some(seats),
        ai_seats: Some(seats.saturating_sub(1)),
        language: None,
        seed: Some(seed),
        ..Default::default()
    }
    .with("blank", if blank { "yes" } else { "no" });
    let game = host.lobby(&first, language, &options, seed)?;
    Ok(play_game(pipeline, game, &mut |_, _| {}).await)
}

/// Plays a lobby to the end with AI seats only (its first seat is made an
/// AI seat), showing `observe` the state before each input and what the
/// input did.
pub async fn play_game(
    pipeline: &Pipeline,
    mut game: UndercoverGame,
    observe: &mut (dyn FnMut(&UndercoverGame, &Played) + Send),
) -> GameResult {
    let started = Instant::now();
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
        millis: started.elapsed().as_millis(),
    }
}

/// Wins per role over a report, for tests and JSON.
pub fn wins_by_outcome(report: &Report) -> BTreeMap<&'static str, usize> {
    [
        ("civilians", Outcome::Civilians),
        ("undercover", Outcome::Undercover),
        ("blank", Outcome::Blank),
        ("ended", Outcome::Ended),
    ]
    .into_iter()
    .map(|(k, o)| (k, report.wins(o)))
    .collect()
}
