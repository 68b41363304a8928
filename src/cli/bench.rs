//! `echoes bench …`: each benchmark's setup and the figures it prints. The
//! measuring itself lives in `crate::bench` and the modules it names; this
//! file only turns arguments into their options.

use std::path::PathBuf;
use std::sync::Arc;

use super::{BenchCommand, DrillModels};
use crate::config::Settings;
use crate::core::llm::RoleModels;

/// `echoes bench …`: each benchmark prints its figures.
pub(super) async fn run(settings: Settings, command: BenchCommand) -> anyhow::Result<()> {
    match command {
        BenchCommand::Retrieval { sizes, queries } => bench_retrieval(&sizes, queries).await,
        BenchCommand::Upkeep { writes, queries } => bench_upkeep(writes, queries).await,
        BenchCommand::Ledger => bench_ledger(&settings).await,
        BenchCommand::Load { sessions, turns, sqlite_only } => bench_load(sessions, turns, sqlite_only).await,
        BenchCommand::Processes { sessions, turns, players, messages, outage_seconds } => {
            use crate::bench::processes::{ProcessOptions, run};
            let outage = std::time::Duration::from_secs(outage_seconds);
            let opts = ProcessOptions { sessions, turns, players, messages, outage, ..ProcessOptions::default() };
            println!("{}", run(&opts).await?);
            Ok(())
        }
        #[cfg(feature = "fakes")]
        BenchCommand::Crash { runs, platform } => {
            use crate::bench::crash::{CrashOptions, run};
            println!("{}", run(&CrashOptions { runs, platform, ..CrashOptions::default() }).await?);
            Ok(())
        }
        #[cfg(feature = "fakes")]
        BenchCommand::Worker { database, owner, lease_ms, platform, platform_url } => {
            crate::bench::crash::worker(&database, &owner, lease_ms, platform, &platform_url).await
        }
        BenchCommand::Context { turns } => crate::bench::context::run(turns).await,
        BenchCommand::Secrecy { models, puzzles, limit } => bench_secrecy(settings, models, puzzles, limit).await,
        #[cfg(feature = "fakes")]
        BenchCommand::Slack => {
            println!("{}", crate::slack::bench::run(&crate::slack::bench::SlackBenchOptions::default()).await?);
            Ok(())
        }
        #[cfg(feature = "fakes")]
        BenchCommand::Discord { delivery } => bench_discord(&delivery).await,
        BenchCommand::LocalModel { model, questions, runs, prompt, generate, against } => {
            let options = crate::bench::BenchOptions {
                model,
                questions: questions.min(crate::bench::QUESTIONS.len()),
                runs,
                prompt_tokens: prompt.max(1),
                generate_tokens: generate,
                against,
            };
            crate::bench::local_model(&settings, &options).await
        }
    }
}

/// `echoes bench retrieval`: on scratch tables in a temporary directory,
/// removed afterwards.
async fn bench_retrieval(sizes: &[usize], queries: usize) -> anyhow::Result<()> {
    let dir = tempfile_dir()?;
    let figures = crate::knowledge::bench::retrieval(&dir, sizes, 384, queries.max(10)).await?;
    println!("{}", crate::knowledge::bench::render(&figures));
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

async fn bench_upkeep(writes: usize, queries: usize) -> anyhow::Result<()> {
    let dir = tempfile_dir()?;
    let figures = crate::knowledge::bench::upkeep(&dir, writes, 384, queries.max(10)).await?;
    println!("{}", crate::knowledge::bench::render_upkeep(&figures));
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// A directory of this process's own under the system's temporary one.
fn tempfile_dir() -> anyhow::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("echoes-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// `echoes bench ledger`: the threshold sweep, then the near-misses the
/// configured threshold would wrongly merge.
async fn bench_ledger(settings: &Settings) -> anyhow::Result<()> {
    let embedder = crate::embed::sentence_model(&settings.knowledge.embedder, &settings.llm.local)
        .await
        .map_err(|e| anyhow::anyhow!("{e} (run `echoes models fetch embedder`)"))?;
    let scored = crate::knowledge::ledger_bench::scored_pairs(embedder.as_ref()).await?;
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
#[cfg(feature = "fakes")]
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

/// `echoes bench secrecy`: the attacks, normal play, the META classifier's
/// rates and the gate's cost, with the models `which` names.
async fn bench_secrecy(
    mut settings: Settings,
    which: DrillModels,
    per_lang: usize,
    limit: usize,
) -> anyhow::Result<()> {
    use crate::bench::secrecy as drill;
    let configured = match which {
        DrillModels::Configured => {
            let (models, notice) = super::ops::choose_models(&mut settings).await?;
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
    let attacks = per_language(drill::attacks()?, limit, |a: &drill::Attack, lang: &str| a.lang == lang);
    let entries = per_language(drill::normal_play()?, limit, |e: &drill::Entry, lang: &str| e.lang == lang);
    let started = std::time::Instant::now();
    let report = drill::run_attacks(&puzzles, &attacks, models).await?;
    print_attacks(&report, attacks.len(), started);
    let normal = drill::run_normal_play(&puzzles, &entries, models).await?;
    print_normal_play(&normal);
    let (flagged, must, normal_flagged, normal_total) = drill::meta_rates(&drill::attacks()?, &entries);
    println!(
        "META classifier: {flagged}/{must} marked attacks flagged; {normal_flagged}/{normal_total} normal texts flagged"
    );
    let all = library.all().to_vec();
    let (us, checks) = drill::gate_cost_us(&all, &entries);
    println!("gate cost: {us:.1} µs per message over {checks} checks (this build's profile)");
    Ok(())
}

/// At most `limit` items of each language (`is_in`), English first; all
/// of them when `limit` is 0.
fn per_language<T: Clone>(items: Vec<T>, limit: usize, is_in: impl Fn(&T, &str) -> bool) -> Vec<T> {
    if limit == 0 {
        return items;
    }
    let mut kept = Vec::new();
    for lang in ["en", "zh"] {
        kept.extend(items.iter().filter(|item| is_in(*item, lang)).take(limit).cloned());
    }
    kept
}

/// The attack run's figures: what was tried, seen, blocked and leaked
/// (the first 20 leaks and hijacks named), and how long it took.
fn print_attacks(report: &crate::bench::secrecy::AttackReport, attacks: usize, started: std::time::Instant) {
    println!("attacks tried: {} ({} attacks × puzzles of their language)", report.tried, attacks);
    println!("replies seen while games were on: {}", report.replies);
    println!("answered META without a model: {}; replies withheld by the gate: {}", report.meta, report.withheld);
    println!("leaks: {}", report.leaks.len());
    report.leaks.iter().take(20).for_each(|l| println!("  {l}"));
    println!("games ended by an attack: {}", report.hijacks.len());
    report.hijacks.iter().take(20).for_each(|l| println!("  {l}"));
    println!("attack run took {:.1}s", started.elapsed().as_secs_f64());
}

/// Normal play's false blocks: the rate, then the first 20 of them.
fn print_normal_play(normal: &crate::bench::secrecy::NormalReport) {
    println!(
        "normal play: {} turns, {} answered META, {} withheld: false-block rate {:.2}%",
        normal.played,
        normal.false_meta.len(),
        normal.false_withheld.len(),
        normal.false_block_rate() * 100.0
    );
    normal.false_meta.iter().chain(&normal.false_withheld).take(20).for_each(|l| println!("  {l}"));
}
