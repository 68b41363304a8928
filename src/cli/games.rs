//! The games' commands: `play` in the terminal, `games`, `puzzles
//! list|show|check`, every game's content check (`check <game>`), `replay`
//! and the AI-only `selfplay` games, each reaching a game through the
//! registry by its name. Each opens the app it needs through `super::ops`
//! and prints; none parses arguments.

use std::path::PathBuf;

use super::{PlayArgs, PuzzlesCommand, SelfplayArgs};
use crate::app::App;
use crate::config::Settings;
use crate::console::{self, PlayOptions};
use crate::core::catalogue::{Frontend, Move};
use crate::core::game::{GameRow, SelfplayRun};
use crate::core::vocab::Language;

/// `echoes play`: a resumed session, a seated game named by `puzzle`
/// (`undercover`, `arena`, `rpg`, …) with its start options, or Turtle Soup.
pub(super) async fn play(mut settings: Settings, args: PlayArgs) -> anyhow::Result<()> {
    let (models, notice) = super::ops::choose_models(&mut settings).await?;
    let app = App::open(settings, models).await?;
    super::ops::report_skipped(&app);
    eprintln!("{notice}");
    if let Some(id) = &args.resume {
        let kind = app.engine.store.session_kind(id).await?;
        let hosted = crate::assets::hosted_games().into_iter().find(|g| Some(g.kind()) == kind.as_deref());
        if let Some(game) = hosted {
            let name = args.name.unwrap_or_else(|| "Player".to_string());
            let run = console::table::SeatedOptions { options: Default::default(), name, script: args.script };
            return console::table::resume_hosted(&app, game, id, run).await;
        }
    }
    let seated = crate::assets::hosted_games().into_iter().find(|g| Some(g.group()) == args.puzzle.as_deref());
    if let Some(game) = seated {
        let ai_seats = args.ai_seats.unwrap_or_else(|| args.seats.map_or(4, |n| n.saturating_sub(1)));
        // The words after the game's name: its own start options
        // (`topic: …`, `blank`, a world's name), read by the catalogue.
        let words = args.topic.join(" ");
        let mut options = app.catalogue.start_options(Frontend::Terminal, game.group(), &words);
        options.seats = Some(args.seats.unwrap_or(ai_seats + 1));
        options.ai_seats = Some(ai_seats);
        options.language = args.language.or(options.language);
        options.seed = args.seed;
        for (name, value) in [
            ("blank", args.blank.then(|| "yes".to_string())),
            ("anonymous", args.anonymous.then(|| "yes".to_string())),
            ("max_turns", args.max_turns.map(|n| n.to_string())),
            ("turn_seconds", args.turn_seconds.map(|n| n.to_string())),
            ("spectate", args.watch.then(|| "yes".to_string())),
        ] {
            if let Some(value) = value {
                options.set(name, value);
            }
        }
        // What the command line left out, the config's `[game.start.<group>]` gives.
        let options = app.settings.start_defaults().fill(game.group(), options);
        let name = args.name.unwrap_or_else(|| "Player".to_string());
        let run = console::table::SeatedOptions { options, name, script: args.script };
        return console::table::play_hosted(&app, game, run).await;
    }
    let opts = PlayOptions {
        puzzle: args.puzzle,
        script: args.script,
        resume: args.resume,
        language: args.language,
        difficulty: args.difficulty,
        name: args.name,
        ai_players: args.ai_seats.unwrap_or(0) as u32,
    };
    console::play(&app, opts).await
}

/// `echoes puzzles list|show|check`.
pub(super) async fn puzzles(settings: Settings, command: PuzzlesCommand) -> anyhow::Result<()> {
    match command {
        PuzzlesCommand::Check { paths } => check_puzzles(&settings, paths),
        PuzzlesCommand::List { language } => {
            let app = super::ops::open_offline(settings).await?;
            println!("{}", console::puzzle_list(&app, language));
            Ok(())
        }
        PuzzlesCommand::Show { id, spoilers } => {
            show_puzzle(&super::ops::open_offline(settings).await?, &id, spoilers).await
        }
    }
}

/// `echoes puzzles check`: every problem in the puzzle files; an error
/// when any is malformed or none was found.
fn check_puzzles(settings: &Settings, paths: Vec<PathBuf>) -> anyhow::Result<()> {
    let dir = settings.puzzle_dir();
    let paths = if paths.is_empty() && dir.is_dir() { vec![dir] } else { paths };
    let (count, problems) = crate::puzzles::check(&paths);
    for p in &problems {
        println!("{p}");
    }
    let bad: std::collections::BTreeSet<&str> = problems.iter().map(|p| p.file.as_str()).collect();
    println!("{count} puzzle file(s) checked, {} with problems", bad.len());
    anyhow::ensure!(problems.is_empty(), "{} puzzle file(s) are malformed", bad.len());
    anyhow::ensure!(count > 0, "no puzzle files found");
    Ok(())
}

/// `echoes puzzles show`: a puzzle's card and play figures; its answer,
/// facts and hints only with `spoilers`.
async fn show_puzzle(app: &App, id: &str, spoilers: bool) -> anyhow::Result<()> {
    let p = app
        .library
        .get(id)
        .ok_or_else(|| anyhow::anyhow!("There is no puzzle {id:?}; `echoes puzzles list` shows them all."))?;
    println!("{} · {} · {} · {}", p.id, p.title, p.language.code(), p.difficulty);
    println!("tags: {}", p.tags.join(", "));
    println!("hints: {} · key facts: {} ({} required)", p.hints.len(), p.facts.len(), p.required_fact_ids().count());
    println!("played: {}", crate::ops::puzzle_stats_line(app, &p.id).await?);
    println!("\n{}", p.surface.trim());
    if spoilers {
        println!("\n--- bottom ---\n{}", p.bottom.trim());
        for f in &p.facts {
            println!("- {}{}: {}", f.id, if f.required { " (required)" } else { "" }, f.text);
        }
        for (i, h) in p.hints.iter().enumerate() {
            println!("hint {}: {h}", i + 1);
        }
    }
    Ok(())
}

/// `echoes games`: a line for each game the catalogue declares a `start`
/// for (its group and its `start` help), and what else it offers:
/// self-play, a content check.
pub(super) fn list(settings: &Settings) -> anyhow::Result<()> {
    let catalogue = crate::assets::catalogue();
    let hosted = crate::assets::hosted_games();
    let lang = settings.language();
    let starts = catalogue.verbs.iter().filter(|v| v.action == Some(Move::Start));
    for start in starts {
        let group = start.group.as_str();
        let mut offers = Vec::new();
        if catalogue.selfplay_verb(group).is_some() {
            offers.push("selfplay".to_string());
        }
        if let Some(data) = hosted.iter().find(|g| g.group() == group).and_then(|g| g.about().data) {
            offers.push(format!("check (data/{data})"));
        }
        let offers = if offers.is_empty() { String::new() } else { format!("  [{}]", offers.join(", ")) };
        println!("{group:<12} {}{offers}", start.help(lang));
    }
    Ok(())
}

/// `echoes check <game> [DIR…]`: the game's own check (`HostedGame::check`)
/// over each folder, or over its bundled content; an error when any file
/// has a problem.
pub(super) fn check(game: &str, paths: Vec<PathBuf>) -> anyhow::Result<()> {
    let hosted = crate::assets::hosted_games();
    let Some(found) = hosted.iter().find(|g| g.group() == game) else {
        let names: Vec<&str> = hosted.iter().filter(|g| g.about().data.is_some()).map(|g| g.group()).collect();
        anyhow::bail!("no game {game:?} checks content files; these do: {}", names.join(", "));
    };
    let dirs: Vec<Option<PathBuf>> = if paths.is_empty() { vec![None] } else { paths.into_iter().map(Some).collect() };
    let mut bad = 0;
    for dir in dirs {
        let (sources, place) = match &dir {
            Some(dir) => (crate::assets::content_files(dir)?, dir.display().to_string()),
            None => {
                let bundled = found.about().data.map(crate::assets::bundled_files).unwrap_or_default();
                (bundled, format!("the bundled {game} content"))
            }
        };
        let Some(report) = found.check(&sources) else { anyhow::bail!("{game} takes no content files") };
        for problem in &report.problems {
            println!("{place}: {problem}");
        }
        bad += report.problems.len();
        for line in report.summary.lines() {
            println!("{place}: {line}");
        }
    }
    anyhow::ensure!(bad == 0, "{bad} problems in the {game} files");
    Ok(())
}

/// `echoes replay <session>`: the game's replay from the record
/// (`HostedGame::replay`), for a game that offers one.
pub(super) async fn replay(settings: Settings, session: &str) -> anyhow::Result<()> {
    let app = super::ops::open_offline(settings).await?;
    let loaded = app
        .engine
        .store
        .load_session(session)
        .await?
        .ok_or_else(|| anyhow::anyhow!("There is no session {session:?}."))?;
    let kind = loaded.snapshot.kind.as_str();
    let hosted = crate::assets::hosted_games();
    let replayed = hosted.iter().find(|g| g.kind() == kind).and_then(|g| g.replay(&loaded));
    let text = replayed.ok_or_else(|| {
        anyhow::anyhow!("Session {session} is a game of {kind}, which offers no replay; `echoes transcript {session}` writes it out.")
    })??;
    println!("{text}");
    Ok(())
}

/// `echoes selfplay <game>`: AI-only games of any game that offers them
/// (`HostedGame::selfplay`), its options read as its declaration's
/// `selfplay` verb says; a line per game on stderr as it ends, the report
/// on stdout.
pub(super) async fn selfplay(mut settings: Settings, args: SelfplayArgs) -> anyhow::Result<()> {
    let catalogue = crate::assets::catalogue();
    let offered = crate::app::selfplayers(&settings);
    let Some((group, game)) = offered.iter().find(|(group, _)| Some(*group) == args.game.as_deref()).cloned() else {
        let lang = args.language.unwrap_or_else(|| settings.language());
        let list: Vec<String> = offered
            .iter()
            .filter_map(|(group, _)| catalogue.selfplay_help(group, lang))
            .map(|l| format!("  {l}"))
            .collect();
        anyhow::bail!("name a game that offers self-play:\n{}", list.join("\n"));
    };
    let (args, words) = run_options(args)?;
    let options = catalogue.selfplay_options(group, &words).map_err(anyhow::Error::msg)?;
    let (models, notice) = super::ops::choose_models(&mut settings).await?;
    let app = App::open(settings, models).await?;
    eprintln!("{notice}");
    let run = SelfplayRun {
        pipeline: &app.engine.pipeline,
        games: args.games.unwrap_or_else(|| game.default_games()),
        seed: args.seed,
        language: args.language.unwrap_or_else(|| app.settings.language()),
        options,
    };
    let each = |row: &GameRow| eprintln!("· {} {}", row.label, row.outcome);
    let report = game.play_games(run, &each).await.map_err(anyhow::Error::msg)?;
    print!("{}", report.render());
    Ok(())
}

/// The run's `--games`, `--seed` and `--language` wherever they were
/// typed (after the game's own options too), and the game's own words.
fn run_options(mut args: SelfplayArgs) -> anyhow::Result<(SelfplayArgs, Vec<String>)> {
    let mut words = Vec::new();
    let mut typed = std::mem::take(&mut args.options).into_iter();
    while let Some(word) = typed.next() {
        let (name, inline) = word.split_once('=').map_or((word.as_str(), None), |(n, v)| (n, Some(v.to_string())));
        if !matches!(name, "--games" | "--seed" | "--language") {
            words.push(word);
            continue;
        }
        let name = name.to_string();
        let value = inline.or_else(|| typed.next()).unwrap_or_default();
        let bad = || anyhow::anyhow!("{name} does not take {value:?}");
        match name.as_str() {
            "--games" => args.games = Some(value.parse().map_err(|_| bad())?),
            "--seed" => args.seed = value.parse().map_err(|_| bad())?,
            _ => args.language = Some(Language::parse(&value).ok_or_else(bad)?),
        }
    }
    Ok((args, words))
}
