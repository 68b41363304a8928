//! Self-play: AI-only games on a game's real table (its prompts, parsers,
//! checks and fallbacks, driven by `drive` with no store or timers), one
//! driver and one report for every game. A game offers it with a
//! `selfplay` verb in its declaration (`move = "selfplay"`, on no front
//! end: the options it reads, with their kinds and bounds, and its help),
//! an `impl SelfPlay` (how one lobby is played, its row in the table and
//! its summary figures) and `HostedGame::selfplay` returning itself;
//! `echoes selfplay <group>` then runs it with no other change. What a
//! user runs to judge a model or a prompt before putting it in front of
//! people.
//!
//! Nothing here names a game or prints: the caller shows the report.

use std::fmt::Write as _;
use std::time::Instant;

use async_trait::async_trait;

use super::{TableOptions, splitmix};
use crate::core::services::Pipeline;
use crate::core::vocab::Language;

/// What a self-play run was asked for.
pub struct SelfplayRun<'a> {
    /// Models, prompts and the rest, as a live table gets them.
    pub pipeline: &'a Pipeline,
    /// How many games (a game that plays named content may play those instead).
    pub games: usize,
    /// The run's seed; game `i` plays `seed_of(i)`.
    pub seed: u64,
    pub language: Language,
    /// The game's own options, as its `selfplay` verb declares them.
    pub options: TableOptions,
}

impl SelfplayRun<'_> {
    /// Game `index`'s seed: a different, replayable one per game.
    pub fn seed_of(&self, index: usize) -> u64 {
        splitmix(self.seed.wrapping_add(index as u64))
    }

    /// Game `index`'s lobby: the run's language and options, its own seed.
    pub fn lobby(&self, index: usize) -> Lobby {
        let seed = self.seed_of(index);
        Lobby { language: self.language, seed, options: TableOptions { seed: Some(seed), ..self.options.clone() } }
    }
}

/// One game as a run sets it up: what its lobby is opened with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lobby {
    pub language: Language,
    pub seed: u64,
    /// The run's options, with this game's seed.
    pub options: TableOptions,
}

/// A game's self-play, typed: the driver (`Selfplayer`, implemented for
/// every `SelfPlay`) plans the lobbies, plays each in order, times it and
/// builds the report from `row` and `summary`.
#[async_trait]
pub trait SelfPlay: Send + Sync {
    /// What playing one game measured.
    type Result: Send + Sync + 'static;
    /// Games played when the run names no number.
    const GAMES: usize;
    /// The table's columns after `game`: what a game was played on
    /// (`pair`, `topic`), then the game's own figures in
    /// `GameRow::figures` order (`outcome` and `seconds` are the driver's).
    const COLUMNS: &'static [&'static str];

    /// The lobbies to play: by default `run.games` of them, each with its
    /// own seed (`SelfplayRun::lobby`).
    fn plan(&self, run: &SelfplayRun<'_>) -> Result<Vec<Lobby>, String> {
        Ok((0..run.games).map(|i| run.lobby(i)).collect())
    }
    /// Opens one lobby with AI seats only and plays it to its end (or the
    /// game's own step limit); an error is about the options, in one line.
    async fn play(&self, pipeline: &Pipeline, lobby: Lobby) -> Result<Self::Result, String>;
    /// One game's row in the table.
    fn row(&self, result: &Self::Result) -> GameRow;
    /// The figures over every game: win rates, length, parse and fallback
    /// rates, the game's own.
    fn summary(&self, results: &[Self::Result]) -> Vec<Row>;

    /// The report over `results`: a row each, then the summary (the
    /// driver adds each game's time).
    fn report(&self, results: &[Self::Result]) -> SelfplayReport {
        SelfplayReport {
            columns: Self::COLUMNS,
            games: results.iter().map(|r| self.row(r)).collect(),
            rows: self.summary(results),
        }
    }
}

/// Any game's self-play, as the command line runs it (`HostedGame::selfplay`
/// hands one out).
#[async_trait]
pub trait Selfplayer: Send + Sync {
    /// Games played when the run names no number.
    fn default_games(&self) -> usize;
    /// Plays the run; `each` sees every game's row as it ends. An error is
    /// one line about the options.
    async fn play_games(
        &self,
        run: SelfplayRun<'_>,
        each: &(dyn for<'g> Fn(&'g GameRow) + Send + Sync),
    ) -> Result<SelfplayReport, String>;
}

#[async_trait]
impl<T: SelfPlay> Selfplayer for T {
    fn default_games(&self) -> usize {
        T::GAMES
    }

    async fn play_games(
        &self,
        run: SelfplayRun<'_>,
        each: &(dyn for<'g> Fn(&'g GameRow) + Send + Sync),
    ) -> Result<SelfplayReport, String> {
        let (mut results, mut millis) = (Vec::new(), Vec::new());
        for lobby in self.plan(&run)? {
            let started = Instant::now();
            let result = self.play(run.pipeline, lobby).await?;
            let took = started.elapsed().as_millis();
            each(&GameRow { millis: took, ..self.row(&result) });
            millis.push(took);
            results.push(result);
        }
        let mut report = self.report(&results);
        for (row, millis) in report.games.iter_mut().zip(millis) {
            row.millis = millis;
        }
        Ok(report)
    }
}

/// One game in the report's table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    /// What it was played on: a puzzle, a word pair, a topic.
    pub label: String,
    /// How it ended (`solved`, `civilians`, `unfinished`).
    pub outcome: String,
    /// The game's own figures, in its `COLUMNS` order.
    pub figures: Vec<String>,
    /// How long it took (the driver times it).
    pub millis: u128,
}

impl GameRow {
    pub fn new(label: impl Into<String>, outcome: impl Into<String>, figures: Vec<String>) -> GameRow {
        GameRow { label: label.into(), outcome: outcome.into(), figures, millis: 0 }
    }
}

/// A labelled figure: `civilians won` `33%`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figure {
    pub label: String,
    pub value: String,
}

impl Figure {
    pub fn new(label: impl Into<String>, value: impl Into<String>) -> Figure {
        Figure { label: label.into(), value: value.into() }
    }
}

/// A summary line: figures about one thing, under an optional label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub label: Option<String>,
    pub figures: Vec<Figure>,
}

impl Row {
    pub fn new(figures: Vec<Figure>) -> Row {
        Row { label: None, figures }
    }

    pub fn labelled(label: impl Into<String>, figures: Vec<Figure>) -> Row {
        Row { label: Some(label.into()), figures }
    }
}

/// Every game's self-play report: a row per game, then the figures over
/// all of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelfplayReport {
    /// The columns after `game`: the label's, then the game's own figures.
    pub columns: &'static [&'static str],
    pub games: Vec<GameRow>,
    /// The summary lines; the first opens with the number of games.
    pub rows: Vec<Row>,
}

impl SelfplayReport {
    /// The summary figure called `label`, wherever it stands.
    pub fn figure(&self, label: &str) -> Option<&str> {
        self.rows.iter().flat_map(|r| &r.figures).find(|f| f.label == label).map(|f| f.value.as_str())
    }

    /// The report as printed: the table, a blank line, the summary.
    pub fn render(&self) -> String {
        let mut out = self.table();
        out.push('\n');
        for (i, row) in self.rows.iter().enumerate() {
            let mut parts: Vec<String> = Vec::new();
            if i == 0 {
                parts.push(format!("{} games", self.games.len()));
            }
            parts.extend(row.figures.iter().map(|f| format!("{} {}", f.label, f.value).trim().to_string()));
            let line = parts.join(" · ");
            let _ = match &row.label {
                Some(label) => writeln!(out, "{label}: {line}"),
                None => writeln!(out, "{line}"),
            };
        }
        out
    }

    /// The per-game table: text columns left-aligned, figures right-aligned.
    fn table(&self) -> String {
        let (label, own) = self.columns.split_first().map_or(("", &[][..]), |(label, own)| (*label, own));
        let mut header: Vec<String> = ["game", label, "outcome"].map(String::from).to_vec();
        header.extend(own.iter().map(|c| c.to_string()));
        header.push("seconds".into());
        let mut lines = vec![header];
        for (i, g) in self.games.iter().enumerate() {
            let mut line = vec![(i + 1).to_string(), g.label.clone(), g.outcome.clone()];
            line.extend(g.figures.iter().cloned());
            line.push(format!("{:.1}", g.millis as f64 / 1000.0));
            lines.push(line);
        }
        let columns = lines.iter().map(Vec::len).max().unwrap_or(0);
        let width = |c: usize| lines.iter().filter_map(|l| l.get(c)).map(|s| s.chars().count()).max().unwrap_or(0);
        let widths: Vec<usize> = (0..columns).map(width).collect();
        let mut out = String::new();
        for line in &lines {
            let cells: Vec<String> = line
                .iter()
                .enumerate()
                .map(|(c, s)| if c < 3 { format!("{s:<w$}", w = widths[c]) } else { format!("{s:>w$}", w = widths[c]) })
                .collect();
            writeln!(out, "{}", cells.join("  ").trim_end()).ok();
        }
        out
    }
}

/// `part` of `whole` as a percentage, 0 when there is no whole.
pub fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 { 0.0 } else { 100.0 * part as f64 / whole as f64 }
}

/// A total spread over `games` (at least one).
pub fn per_game(total: f64, games: usize) -> f64 {
    total / games.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> SelfplayReport {
        let mut games = vec![
            GameRow::new("pair-a", "civilians", vec!["3".into(), "12".into()]),
            GameRow::new("pair-bb", "undercover", vec!["10".into(), "4".into()]),
        ];
        games[0].millis = 1500;
        let rows = vec![
            Row::new(vec![Figure::new("civilians won", "50%"), Figure::new("undercover won", "50%")]),
            Row::labelled("spread, novelty", vec![Figure::new("mean", "7.00")]),
        ];
        SelfplayReport { columns: &["pair", "rounds", "moves"], games, rows }
    }

    #[test]
    fn the_report_prints_a_table_then_its_figures() {
        let text = report().render();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "game  pair     outcome     rounds  moves  seconds");
        assert_eq!(lines[1], "1     pair-a   civilians        3     12      1.5");
        assert_eq!(lines[2], "2     pair-bb  undercover      10      4      0.0");
        assert_eq!(lines[4], "2 games · civilians won 50% · undercover won 50%");
        assert_eq!(lines[5], "spread, novelty: mean 7.00");
    }

    #[test]
    fn a_figure_is_found_by_its_label() {
        assert_eq!(report().figure("undercover won"), Some("50%"));
        assert_eq!(report().figure("mean"), Some("7.00"));
        assert_eq!(report().figure("blank won"), None);
    }

    #[test]
    fn rates_and_means_never_divide_by_zero() {
        assert_eq!(percent(1, 4), 25.0);
        assert_eq!(percent(3, 0), 0.0);
        assert_eq!(per_game(6.0, 0), 6.0);
        assert_eq!(per_game(6.0, 3), 2.0);
    }
}
