//! Self-play: AI-only Werewolf games on the real table (the same prompts,
//! parsers, checks and fallbacks as live AI seats), driven without a store
//! or timers (`game::drive`: when no seat owes a move, the phase's
//! deadline is played as if it had passed). The figures: win rates by
//! side, game length in days, vote accuracy (the share of day votes cast
//! against a werewolf, and of the village's votes) and how often an AI
//! seat's move fell back. What a user runs to judge a model or a prompt.

use std::time::Instant;

use crate::core::game::drive::drive;
use crate::core::game::{Played, TableOptions, engine_player, seats::ai_name};
use crate::core::services::Pipeline;
use crate::core::vocab::{Language, Player};

use super::{Outcome, Phase, Role, WerewolfGame, WerewolfHost, WerewolfTable, splitmix};

/// Most inputs one game may take before it is called off.
const MAX_STEPS: usize = 1_500;

/// How the self-played tables are set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    pub seats: usize,
    pub witch: bool,
    pub hunter: bool,
    pub language: Language,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup { seats: 7, witch: false, hunter: false, language: Language::En }
    }
}

/// One self-played game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    pub seed: u64,
    pub outcome: Option<Outcome>,
    pub days: u32,
    /// Day votes cast, and of them against a werewolf.
    pub day_votes: usize,
    pub votes_on_wolves: usize,
    /// The village's day votes, and of them against a werewolf.
    pub village_votes: usize,
    pub village_on_wolves: usize,
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

fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 { 0.0 } else { part as f64 / whole as f64 }
}

impl Report {
    pub fn wins(&self, outcome: Outcome) -> usize {
        self.games.iter().filter(|g| g.outcome == Some(outcome)).count()
    }

    /// The share of day votes cast against a werewolf.
    pub fn vote_accuracy(&self) -> f64 {
        share(self.games.iter().map(|g| g.votes_on_wolves).sum(), self.games.iter().map(|g| g.day_votes).sum())
    }

    /// The same, of the village's votes only.
    pub fn village_accuracy(&self) -> f64 {
        share(self.games.iter().map(|g| g.village_on_wolves).sum(), self.games.iter().map(|g| g.village_votes).sum())
    }

    pub fn fallback_rate(&self) -> f64 {
        share(self.games.iter().map(|g| g.fallbacks).sum(), self.games.iter().map(|g| g.agent_moves).sum())
    }

    /// Mean length of the finished games, in days.
    pub fn mean_days(&self) -> f64 {
        let finished: Vec<&GameResult> = self.games.iter().filter(|g| g.outcome.is_some()).collect();
        share(finished.iter().map(|g| g.days as usize).sum(), finished.len())
    }

    /// The figures over every game, labelled: win rates by side, length,
    /// vote accuracy, fallbacks.
    pub fn figures(&self) -> Vec<(String, String)> {
        let n = self.games.len();
        let pct = |x: f64| format!("{:.0}%", 100.0 * x);
        vec![
            ("games".into(), n.to_string()),
            ("villagers won".into(), pct(share(self.wins(Outcome::Villagers), n))),
            ("werewolves won".into(), pct(share(self.wins(Outcome::Werewolves), n))),
            ("unfinished".into(), pct(share(self.games.iter().filter(|g| g.outcome.is_none()).count(), n))),
            ("mean length (days)".into(), format!("{:.1}", self.mean_days())),
            ("day votes against a werewolf".into(), pct(self.vote_accuracy())),
            ("the village's votes against a werewolf".into(), pct(self.village_accuracy())),
            ("AI moves that fell back".into(), pct(self.fallback_rate())),
        ]
    }

    /// The report as printed.
    pub fn render(&self) -> String {
        let n = self.games.len();
        let pct = |k: usize| 100.0 * share(k, n);
        let mut out = String::from(
            "game  seed                  outcome     days  votes  on wolves  moves  fallbacks  timeouts  seconds\n",
        );
        for (i, g) in self.games.iter().enumerate() {
            let outcome = match g.outcome {
                Some(Outcome::Villagers) => "villagers",
                Some(Outcome::Werewolves) => "werewolves",
                Some(Outcome::Ended) => "ended",
                None => "unfinished",
            };
            out.push_str(&format!(
                "{:<5} {:<21} {:<11} {:>4}  {:>5}  {:>9}  {:>5}  {:>9}  {:>8}  {:>7.1}\n",
                i + 1,
                g.seed,
                outcome,
                g.days,
                g.day_votes,
                g.votes_on_wolves,
                g.agent_moves,
                g.fallbacks,
                g.timeouts,
                g.millis as f64 / 1000.0
            ));
        }
        let unfinished = self.games.iter().filter(|g| g.outcome.is_none()).count();
        out.push_str(&format!(
            "\n{n} games · villagers won {:.0}% · werewolves won {:.0}% · unfinished {:.0}%\n",
            pct(self.wins(Outcome::Villagers)),
            pct(self.wins(Outcome::Werewolves)),
            pct(unfinished)
        ));
        out.push_str(&format!(
            "mean length {:.1} days · day votes against a werewolf: {:.1}% (the village's: {:.1}%) · AI moves that fell back to a safe move: {:.1}%\n",
            self.mean_days(),
            100.0 * self.vote_accuracy(),
            100.0 * self.village_accuracy(),
            100.0 * self.fallback_rate()
        ));
        out
    }
}

/// Plays `games` AI-only games set up as `setup`, seeds drawn from `seed`.
pub async fn run(pipeline: &Pipeline, host: &WerewolfHost, setup: &Setup, games: usize, seed: u64) -> Report {
    let mut report = Report::default();
    for g in 0..games {
        let seed = splitmix(seed.wrapping_add(g as u64));
        let options = TableOptions { seats: Some(setup.seats), ..TableOptions::default() }
            .with("witch", if setup.witch { "yes" } else { "no" })
            .with("hunter", if setup.hunter { "yes" } else { "no" });
        report.games.push(play_lobby(pipeline, host, setup.language, &options, seed).await);
    }
    report
}

/// One AI-only game from a lobby's options (`seats`, 7 without; `witch`,
/// `hunter`, `reveal`), as `echoes selfplay werewolf` plays each game.
pub async fn play_lobby(
    pipeline: &Pipeline,
    host: &WerewolfHost,
    language: Language,
    options: &TableOptions,
    seed: u64,
) -> GameResult {
    let seats = options.seats.unwrap_or(Setup::default().seats);
    let options = TableOptions {
        seats: Some(seats),
        ai_seats: Some(seats.saturating_sub(1)),
        seed: Some(seed),
        ..options.clone()
    };
    let first = Player { id: "ai:0".into(), name: ai_name(0) };
    let game = host.lobby(&first, language, &options, seed);
    play_game(pipeline, game, &mut |_, _| {}).await
}

/// Plays a lobby to the end with AI seats only (its first seat is made an
/// AI seat), showing `observe` the state before each input and what the
/// input did.
pub async fn play_game(
    pipeline: &Pipeline,
    mut game: WerewolfGame,
    observe: &mut (dyn FnMut(&WerewolfGame, &Played) + Send),
) -> GameResult {
    let started = Instant::now();
    if let Some(seat) = game.seats.seats.first_mut() {
        seat.ai = true;
    }
    let seed = game.seed;
    let first = game.seats.seats.first().map(|s| s.player.clone()).unwrap_or_else(engine_player);
    let mut table = WerewolfTable::new(game, Vec::new(), &crate::core::secrecy::new_canary());
    let mut watch = |t: &WerewolfTable, played: &Played| observe(&t.game, played);
    let timeouts = drive(pipeline, &mut table, first, MAX_STEPS, &mut watch).await;
    let game = &table.game;
    let (agent_moves, fallbacks) = table.agent_counts();
    let wolf = |s: &str| game.role(s).is_some_and(Role::is_wolf);
    let votes: Vec<(&String, &String)> = game.votes.iter().flat_map(|v| v.votes.iter()).collect();
    let village: Vec<&(&String, &String)> = votes.iter().filter(|(voter, _)| !wolf(voter)).collect();
    GameResult {
        seed,
        outcome: (game.phase == Phase::Over).then_some(game.outcome).flatten(),
        days: game.nights.len() as u32,
        day_votes: votes.len(),
        votes_on_wolves: votes.iter().filter(|(_, target)| wolf(target)).count(),
        village_votes: village.len(),
        village_on_wolves: village.iter().filter(|(_, target)| wolf(target)).count(),
        agent_moves,
        fallbacks,
        timeouts,
        millis: started.elapsed().as_millis(),
    }
}

/// `echoes selfplay werewolf`: the engine's one driver plays each lobby
/// here and prints the shared report.
#[async_trait::async_trait]
impl crate::core::game::selfplay::SelfPlay for WerewolfHost {
    type Result = GameResult;
    const GAMES: usize = 10;
    const COLUMNS: &'static [&'static str] = &["seed", "days", "votes", "on wolves", "moves", "fallbacks", "timeouts"];

    async fn play(&self, pipeline: &Pipeline, lobby: crate::core::game::selfplay::Lobby) -> Result<GameResult, String> {
        Ok(play_lobby(pipeline, self, lobby.language, &lobby.options, lobby.seed).await)
    }

    fn row(&self, g: &GameResult) -> crate::core::game::selfplay::GameRow {
        let outcome = match g.outcome {
            Some(Outcome::Villagers) => "villagers",
            Some(Outcome::Werewolves) => "werewolves",
            Some(Outcome::Ended) => "ended",
            None => "unfinished",
        };
        let figures = [g.days as usize, g.day_votes, g.votes_on_wolves, g.agent_moves, g.fallbacks, g.timeouts]
            .map(|n| n.to_string())
            .to_vec();
        crate::core::game::selfplay::GameRow::new(g.seed.to_string(), outcome, figures)
    }

    fn summary(&self, games: &[GameResult]) -> Vec<crate::core::game::selfplay::Row> {
        use crate::core::game::selfplay::{Figure, Row};
        let figures = Report { games: games.to_vec() }.figures();
        // Win rates by side (after the count of games), then the rest.
        let row = |part: &[(String, String)]| Row::new(part.iter().map(|(l, v)| Figure::new(l, v)).collect());
        let (sides, rest) = figures.split_at(4.min(figures.len()));
        vec![row(sides.get(1..).unwrap_or_default()), row(rest)]
    }
}
