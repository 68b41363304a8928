//! The games' commands: `play` in the terminal, `puzzles list|show|check`,
//! the per-game file checks (`undercover check`, `arena check`, `rpg check`),
//! `arena replay` and the AI-only `selfplay` games. Each opens the app it
//! needs through `super::ops` and prints; none parses arguments.

use std::path::PathBuf;

use super::{ArenaCommand, PlayArgs, PuzzlesCommand, SelfplayCommand};
use crate::app::App;
use crate::config::Settings;
use crate::console::{self, PlayOptions};
use crate::core::catalogue::Frontend;
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

/// `echoes arena check|replay`.
pub(super) async fn arena(settings: Settings, command: ArenaCommand) -> anyhow::Result<()> {
    match command {
        ArenaCommand::Check { paths } => check_arena(paths),
        ArenaCommand::Replay { session } => arena_replay(settings, &session).await,
    }
}

/// `echoes undercover check`: every problem in the word files, and the
/// counts per language, theme and difficulty; an error when any is bad.
pub(super) fn check_words(paths: Vec<PathBuf>) -> anyhow::Result<()> {
    let dirs: Vec<Option<PathBuf>> = if paths.is_empty() { vec![None] } else { paths.into_iter().map(Some).collect() };
    let mut bad = 0;
    for dir in dirs {
        let sources = crate::assets::word_sources(dir.as_deref())?;
        let where_ = dir.as_ref().map_or("the bundled pairs".to_string(), |d| d.display().to_string());
        if sources.is_empty() {
            anyhow::bail!("{where_}: no word files (expected en/*.toml and zh/*.toml)");
        }
        let (library, problems) = crate::core::undercover::WordLibrary::from_sources(&sources);
        for p in &problems {
            println!("{where_}: {p}");
        }
        bad += problems.len();
        println!("{where_}: {} files, {} valid pairs\n{}", sources.len(), library.len(), library.summary());
    }
    if bad > 0 {
        anyhow::bail!("{bad} problems in the word files");
    }
    Ok(())
}

/// `echoes arena check`: every problem in the cast files and the counts
/// per language; an error when any is bad.
fn check_arena(paths: Vec<PathBuf>) -> anyhow::Result<()> {
    let dirs: Vec<Option<PathBuf>> = if paths.is_empty() { vec![None] } else { paths.into_iter().map(Some).collect() };
    let mut bad = 0;
    for dir in dirs {
        let sources = crate::assets::arena_sources(dir.as_deref())?;
        let where_ = dir.as_ref().map_or("the bundled cast".to_string(), |d| d.display().to_string());
        let (roster, problems) = crate::core::arena::Roster::from_sources(&sources);
        for p in &problems {
            println!("{where_}: {p}");
        }
        bad += problems.len();
        println!("{where_}: {} files\n{}", sources.len(), roster.summary());
    }
    if bad > 0 {
        anyhow::bail!("{bad} problems in the Arena files");
    }
    Ok(())
}

/// `echoes rpg check`: every problem in the world files and the counts
/// per world; an error when any is bad.
pub(super) fn check_worlds(paths: Vec<PathBuf>) -> anyhow::Result<()> {
    let dirs: Vec<Option<PathBuf>> = if paths.is_empty() { vec![None] } else { paths.into_iter().map(Some).collect() };
    let mut bad = 0;
    for dir in dirs {
        let sources = crate::assets::world_sources(dir.as_deref())?;
        let where_ = dir.as_ref().map_or("the bundled worlds".to_string(), |d| d.display().to_string());
        if sources.is_empty() {
            anyhow::bail!("{where_}: no world files (expected <id>/world.toml, passages.toml, npcs.toml)");
        }
        let (worlds, problems) = crate::core::lore::Worlds::from_sources(&sources);
        for p in &problems {
            println!("{where_}: {p}");
        }
        bad += problems.len();
        for w in &worlds.worlds {
            println!(
                "{where_}: {} ({}, {}): {} passages ({} GM-only), {} NPCs, {} probes",
                w.id,
                w.title,
                w.language.code(),
                w.passages.len(),
                w.secrets().count(),
                w.npcs.len(),
                w.probes.len()
            );
        }
    }
    if bad > 0 {
        anyhow::bail!("{bad} problems in the world files");
    }
    Ok(())
}

/// `echoes arena replay <session>`: the game as the record holds it.
async fn arena_replay(settings: Settings, session: &str) -> anyhow::Result<()> {
    use crate::core::game::Game as _;
    let app = super::ops::open_offline(settings).await?;
    let loaded =
        app.engine.store.load_session(session).await?.ok_or_else(|| anyhow::anyhow!("no session {session}"))?;
    if loaded.snapshot.kind != crate::core::arena::ArenaGame::KIND {
        anyhow::bail!("session {session} is a {} game, not an Arena", loaded.snapshot.kind);
    }
    let game: crate::core::arena::ArenaGame = loaded.game()?;
    let roster = crate::assets::roster();
    let cast =
        roster.cast(game.language).ok_or_else(|| anyhow::anyhow!("no Arena cast in {}", game.language.code()))?;
    let table = crate::core::arena::ArenaTable::new(game, std::sync::Arc::new(cast.clone()), &loaded.canary);
    println!("{}", table.replay());
    Ok(())
}

/// `echoes selfplay soup|undercover|arena`: AI-only games.
pub(super) async fn selfplay(settings: Settings, command: SelfplayCommand) -> anyhow::Result<()> {
    match command {
        SelfplayCommand::Soup { puzzles, games, ai_players, max_turns, language } => {
            selfplay_soup(settings, puzzles, games, ai_players, max_turns, language).await
        }
        SelfplayCommand::Undercover { seats, games, blank, language, seed } => {
            selfplay_undercover(settings, seats, games, blank, language, seed).await
        }
        SelfplayCommand::Arena { characters, games, max_turns, language, seed } => {
            selfplay_arena(settings, characters, games, max_turns, language, seed).await
        }
    }
}

/// `echoes selfplay soup`: the named puzzles, or the first `games` in the
/// language, each played by AI players to the end or `max_turns`.
async fn selfplay_soup(
    mut settings: Settings,
    puzzles: Vec<String>,
    games: usize,
    ai_players: u32,
    max_turns: usize,
    language: Option<Language>,
) -> anyhow::Result<()> {
    let (models, notice) = super::ops::choose_models(&mut settings).await?;
    let app = App::open(settings, models).await?;
    eprintln!("{notice}");
    let chosen: Vec<std::sync::Arc<crate::core::soup::puzzle::Puzzle>> = if puzzles.is_empty() {
        let language = language.unwrap_or_else(|| app.settings.language());
        app.library.all().iter().filter(|p| p.language == language).take(games).cloned().collect()
    } else {
        let mut out = Vec::new();
        for id in &puzzles {
            out.push(app.library.get(id).ok_or_else(|| anyhow::anyhow!("There is no puzzle {id:?}."))?);
        }
        out
    };
    let mut results = Vec::new();
    for puzzle in chosen {
        let result = crate::core::soup::selfplay::play(&app.engine.pipeline, puzzle, ai_players, max_turns).await;
        eprintln!("· {} {}", result.puzzle, if result.solved { "solved" } else { "not solved" });
        results.push(result);
    }
    print!("{}", crate::core::soup::selfplay::render(&results));
    Ok(())
}

/// `echoes selfplay undercover`: `games` tables of AI seats only.
async fn selfplay_undercover(
    mut settings: Settings,
    seats: usize,
    games: usize,
    blank: bool,
    language: Option<Language>,
    seed: u64,
) -> anyhow::Result<()> {
    if !(crate::core::undercover::MIN_SEATS..=crate::core::undercover::MAX_SEATS).contains(&seats) {
        anyhow::bail!("--seats must be between 3 and 12");
    }
    let (models, notice) = super::ops::choose_models(&mut settings).await?;
    let app = App::open(settings, models).await?;
    eprintln!("{notice}");
    let language = language.unwrap_or_else(|| app.settings.language());
    let host = crate::core::undercover::UndercoverHost::new(std::sync::Arc::new(crate::assets::words()));
    let report =
        crate::core::undercover::selfplay::run(&app.engine.pipeline, &host, seats, blank, language, games, seed)
            .await
            .map_err(|e| anyhow::anyhow!(e))?;
    print!("{}", report.render());
    Ok(())
}

/// `echoes selfplay arena`: `games` Arena games of AI characters only.
async fn selfplay_arena(
    mut settings: Settings,
    characters: usize,
    games: usize,
    max_turns: Option<u32>,
    language: Option<Language>,
    seed: u64,
) -> anyhow::Result<()> {
    if !(crate::core::arena::MIN_SEATS..=crate::core::arena::MAX_SEATS).contains(&characters) {
        anyhow::bail!("--characters must be between 2 and 8");
    }
    let (models, notice) = super::ops::choose_models(&mut settings).await?;
    let app = App::open(settings, models).await?;
    eprintln!("{notice}");
    let language = language.unwrap_or_else(|| app.settings.language());
    let host = crate::core::arena::ArenaHost::new(std::sync::Arc::new(crate::assets::roster()));
    let report =
        crate::core::arena::selfplay::run(&app.engine.pipeline, &host, characters, max_turns, language, games, seed)
            .await
            .map_err(|e| anyhow::anyhow!(e))?;
    print!("{}", report.render());
    Ok(())
}
