//! The operator's commands: `serve`, `discord invite`, `db`, `healthcheck`, `models`,
//! `memory`, `eval`, `transcript`, `leaderboard` and `sessions`, and what
//! every command that opens the app shares: choosing the models
//! (`choose_models`, with its one-line notice) or opening without any
//! (`open_offline`).

use std::path::PathBuf;

use super::{DbCommand, MemoryCommand, ModelSet, ModelsCommand, PromptsCommand, ServeArgs};
use crate::app::App;
use crate::config::Settings;
use crate::console;
use crate::core::llm::RoleModels;
use crate::llm::ProviderKind;
use crate::models::ModelDir;
use crate::models::fetch::Fetcher;

/// `echoes serve --discord|--slack`: the bot, with the ops endpoint where
/// `[ops] bind` is set.
pub(super) async fn serve(mut settings: Settings, args: ServeArgs) -> anyhow::Result<()> {
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
        crate::ops::http::start(&app.settings.ops.bind, crate::ops::http::Probes::of(&app)).await?;
    }
    match slack_tokens {
        Some(tokens) => crate::serve::serve_slack(&app, tokens).await,
        None => crate::serve::serve_discord(&app, app.settings.discord.clone()).await,
    }
}

/// `echoes discord invite`: the link that adds the bot to a server, for
/// the application given or configured (`[discord] application_id`).
pub(super) fn discord_invite(settings: &Settings, application_id: Option<u64>) -> anyhow::Result<()> {
    let configured = Some(settings.discord.application_id).filter(|id| *id != 0);
    let Some(application) = application_id.or(configured) else {
        anyhow::bail!(
            "no application id: pass --application-id (developer portal → General Information → \
             Application ID) or set `[discord] application_id`"
        );
    };
    print!("{}", crate::discord::invite::text(application, &settings.discord));
    Ok(())
}

/// Settles `provider = "auto"`, fetches the local model on first use, builds
/// and checks the role clients; also returns the one-line model notice.
pub(super) async fn choose_models(settings: &mut Settings) -> anyhow::Result<(RoleModels, String)> {
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

/// Whether any role runs on the in-process model (whose files may need fetching).
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

/// Opens the app for commands that never call a model.
pub(super) async fn open_offline(settings: Settings) -> anyhow::Result<App> {
    let models = crate::core::llm::RoleModels {
        judge: std::sync::Arc::new(crate::llm::ParrotLlm),
        narrator: std::sync::Arc::new(crate::llm::ParrotLlm),
    };
    let app = App::open(settings, models).await?;
    report_skipped(&app);
    Ok(app)
}

/// One line on stderr when puzzle files were skipped as malformed.
pub(super) fn report_skipped(app: &App) {
    if !app.skipped.is_empty() {
        eprintln!("· skipped {} malformed puzzle file(s); run `echoes puzzles check` for details", app.skipped.len());
    }
}

/// `echoes db migrate|copy`.
pub(super) async fn db(settings: &Settings, command: DbCommand) -> anyhow::Result<()> {
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

/// `echoes healthcheck`: `/healthz` of the ops endpoint `[ops] bind` names
/// (or `url`); one line, and an error (exit status 1) unless it answers 200.
pub(super) async fn healthcheck(settings: &Settings, url: Option<String>) -> anyhow::Result<()> {
    let url = match url {
        Some(url) => url,
        None => crate::ops::http::local_url(&settings.ops.bind, "/healthz")?,
    };
    println!("{}", crate::ops::http::healthcheck(&url).await?);
    Ok(())
}

/// `echoes models fetch|list|path`.
pub(super) async fn models(settings: &Settings, command: ModelsCommand) -> anyhow::Result<()> {
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
                println!("embedder GGUF: {}", fetcher.dir().embedder_gguf_path().display());
            }
        }
    }
    Ok(())
}

/// `echoes memory show|forget`.
pub(super) async fn memory(settings: Settings, command: MemoryCommand) -> anyhow::Result<()> {
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

/// `echoes eval judge`: the real Judge path over labelled lines.
pub(super) async fn eval_judge(
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

/// `echoes eval referee`: the Lore RPG's referee on the worlds' probes.
pub(super) async fn eval_referee(mut settings: Settings, world: Option<String>, json: bool) -> anyhow::Result<()> {
    let worlds = crate::assets::worlds();
    let chosen: Vec<std::sync::Arc<crate::core::rpg::World>> = match &world {
        Some(name) => vec![
            worlds
                .worlds
                .iter()
                .find(|w| w.id.eq_ignore_ascii_case(name) || w.title.eq_ignore_ascii_case(name))
                .cloned()
                .ok_or_else(|| anyhow::anyhow!("no world {name:?}; `echoes check rpg` lists them"))?,
        ],
        None => worlds.worlds.clone(),
    };
    let (models, notice) = choose_models(&mut settings).await?;
    let app = App::open(settings, models).await?;
    eprintln!("{notice}");
    let pipeline = &app.engine.pipeline;
    let ruled = crate::eval::referee::run(pipeline, &chosen).await;
    let (table, report) = crate::eval::referee::report(&pipeline.models.judge.describe(), &ruled);
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{table}");
        println!("\n{}", serde_json::to_string(&report)?);
    }
    Ok(())
}

/// `echoes transcript`: writes a finished game as Markdown and prints the file's path.
pub(super) async fn write_transcript(
    settings: Settings,
    session: Option<String>,
    out: Option<PathBuf>,
) -> anyhow::Result<()> {
    let app = open_offline(settings).await?;
    let path = console::transcript::write(&app, session.as_deref(), out.as_deref()).await?;
    println!("{}", path.display());
    Ok(())
}

/// `echoes prompts list|show`: the templates as this configuration reads
/// them (built in, or from `[prompts] dir`).
pub(super) fn prompts(settings: &Settings, command: PromptsCommand) -> anyhow::Result<()> {
    let all = crate::assets::prompt_sources(settings.prompt_dir())?;
    match command {
        PromptsCommand::List => {
            for template in &all {
                println!("{:<28} {}", template.name, template.origin);
            }
        }
        PromptsCommand::Show { name } => {
            let found = all.iter().find(|t| t.name == name);
            let found = found
                .ok_or_else(|| anyhow::anyhow!("There is no template {name:?}; `echoes prompts list` names them."))?;
            print!("{}", found.source);
        }
    }
    Ok(())
}

/// `echoes leaderboard`: the top scores, in the configured language.
pub(super) async fn leaderboard(settings: Settings) -> anyhow::Result<()> {
    let app = open_offline(settings).await?;
    println!("{}", console::leaderboard_text(&app, app.settings.language()).await?);
    Ok(())
}

/// `echoes sessions`: the `limit` most recently active sessions.
pub(super) async fn list_sessions(app: &App, limit: u32) -> anyhow::Result<()> {
    let sessions = app.store.recent_sessions(limit).await?;
    if sessions.is_empty() {
        println!("No sessions yet: start one with `echoes play`.");
    }
    for s in sessions {
        println!("{}  {:<28} {:<11} {:>3} questions", s.id, s.puzzle_id, s.phase.as_str(), s.questions);
    }
    Ok(())
}
