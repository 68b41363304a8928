//! The `echoes` command line: `play`, `puzzles list|show|check`,
//! `sessions`, `leaderboard`. Each subcommand is a small function over the
//! shared `App`; errors come back as one clear line from `main`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::app::App;
use crate::config::Settings;
use crate::console::{self, PlayOptions};
use crate::core::puzzle::{Difficulty, Language};

#[derive(Debug, Parser)]
#[command(
    name = "echoes",
    version,
    about = "Echoes of Deceit: Turtle Soup and other deduction games, hosted by an LLM"
)]
pub struct Cli {
    /// An extra config file, layered over the defaults and config/local.toml.
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// More log output on stderr (-v info, -vv debug).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play Turtle Soup in the terminal.
    Play(PlayArgs),
    /// List, show or check puzzles.
    #[command(subcommand)]
    Puzzles(PuzzlesCommand),
    /// List recent sessions (to resume one).
    Sessions {
        #[arg(long, default_value_t = 10)]
        limit: u32,
    },
    /// Show the top scores.
    Leaderboard,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// A puzzle id (see `echoes puzzles list`); random if omitted.
    pub puzzle: Option<String>,
    /// Play the lines of FILE as the player's input and print the transcript.
    #[arg(long, value_name = "FILE")]
    pub script: Option<PathBuf>,
    /// Continue a saved session.
    #[arg(long, value_name = "SESSION_ID", conflicts_with = "puzzle")]
    pub resume: Option<String>,
    /// Puzzle language for a random pick: en or zh.
    #[arg(long, value_parser = parse_language)]
    pub language: Option<Language>,
    /// Puzzle difficulty for a random pick: easy, medium or hard.
    #[arg(long, value_parser = parse_difficulty)]
    pub difficulty: Option<Difficulty>,
    /// Your name on the leaderboard (default "Player", or the resumed session's player).
    #[arg(long)]
    pub name: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum PuzzlesCommand {
    /// List the puzzles.
    List {
        #[arg(long, value_parser = parse_language)]
        language: Option<Language>,
    },
    /// Show one puzzle (the answer only with --spoilers).
    Show {
        id: String,
        #[arg(long)]
        spoilers: bool,
    },
    /// Validate puzzle files or directories (default: the configured puzzle directory).
    Check { paths: Vec<PathBuf> },
}

fn parse_language(s: &str) -> Result<Language, String> {
    Language::parse(s).ok_or_else(|| format!("unknown language {s:?}; use en or zh"))
}

fn parse_difficulty(s: &str) -> Result<Difficulty, String> {
    match s.to_ascii_lowercase().as_str() {
        "easy" => Ok(Difficulty::Easy),
        "medium" => Ok(Difficulty::Medium),
        "hard" => Ok(Difficulty::Hard),
        _ => Err(format!("unknown difficulty {s:?}; use easy, medium or hard")),
    }
}

/// Runs a parsed command line.
pub async fn run(cli: Cli) -> anyhow::Result<()> {
    let settings = Settings::load(cli.config.as_deref())?;
    match cli.command {
        Command::Puzzles(PuzzlesCommand::Check { paths }) => check_puzzles(&settings, paths),
        Command::Puzzles(PuzzlesCommand::List { language }) => {
            let app = open_offline(settings).await?;
            println!("{}", console::puzzle_list(&app, language));
            Ok(())
        }
        Command::Puzzles(PuzzlesCommand::Show { id, spoilers }) => {
            show_puzzle(&open_offline(settings).await?, &id, spoilers)
        }
        Command::Sessions { limit } => list_sessions(&open_offline(settings).await?, limit).await,
        Command::Leaderboard => {
            let app = open_offline(settings).await?;
            println!("{}", console::leaderboard_text(&app, app.settings.language()).await?);
            Ok(())
        }
        Command::Play(args) => play(settings, args).await,
    }
}

async fn play(settings: Settings, args: PlayArgs) -> anyhow::Result<()> {
    let models = crate::llm::build_roles(&settings.llm).map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Err(message) = crate::llm::check_reachable(&models).await {
        anyhow::bail!(message);
    }
    let app = App::open(settings, models).await?;
    report_skipped(&app);
    eprintln!("· model: {}", app.models.judge.describe());
    let opts = PlayOptions {
        puzzle: args.puzzle,
        script: args.script,
        resume: args.resume,
        language: args.language,
        difficulty: args.difficulty,
        name: args.name,
    };
    console::play(&app, opts).await
}

/// Opens the app for commands that never call a model.
async fn open_offline(settings: Settings) -> anyhow::Result<App> {
    let models = crate::core::llm::RoleModels {
        judge: std::sync::Arc::new(crate::llm::ParrotLlm),
        narrator: std::sync::Arc::new(crate::llm::ParrotLlm),
    };
    let app = App::open(settings, models).await?;
    report_skipped(&app);
    Ok(app)
}

fn report_skipped(app: &App) {
    if !app.skipped.is_empty() {
        eprintln!("· skipped {} malformed puzzle file(s); run `echoes puzzles check` for details", app.skipped.len());
    }
}

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

fn show_puzzle(app: &App, id: &str, spoilers: bool) -> anyhow::Result<()> {
    let p = app
        .library
        .get(id)
        .ok_or_else(|| anyhow::anyhow!("There is no puzzle {id:?}; `echoes puzzles list` shows them all."))?;
    println!("{} · {} · {} · {}", p.id, p.title, p.language.code(), p.difficulty);
    println!("tags: {}", p.tags.join(", "));
    println!("hints: {} · key facts: {} ({} required)", p.hints.len(), p.facts.len(), p.required_fact_ids().count());
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

async fn list_sessions(app: &App, limit: u32) -> anyhow::Result<()> {
    let sessions = app.store.recent_sessions(limit).await?;
    if sessions.is_empty() {
        println!("No sessions yet: start one with `echoes play`.");
    }
    for s in sessions {
        println!("{}  {:<28} {:<11} {:>3} questions", s.id, s.puzzle_id, s.phase.as_str(), s.questions);
    }
    Ok(())
}
