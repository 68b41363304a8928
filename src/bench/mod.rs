//! `echoes bench local-model`: measured figures for the in-process chat
//! model on the machine it runs on: load time, prompt-processing and generation
//! speed (beside llama.cpp's own `llama-bench` with `--against`), resident
//! memory, time to a verdict at the first and the last question with and
//! without the prefix cache, and how cleanly the Judge's replies parse over
//! a scripted 50-question session, with and without structured output.
//!
//! A benchmark, not a test: it prints numbers and asserts nothing. It runs
//! the real turn pipeline (narrator off) against the real model files.

pub mod against;
pub mod context;
#[cfg(feature = "fakes")]
pub mod crash;
pub mod load;
pub mod processes;
pub mod records;
mod script;
pub mod secrecy;

use crate::core::soup::verbs::SoupVerb;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use async_trait::async_trait;

use crate::config::Settings;
use crate::core::game::TurnInput;
use crate::core::llm::{ChatRequest, ChatResponse, LlmClient, LlmError, RoleModels};
use crate::core::services::{Pipeline, PipelineSettings};
use crate::core::soup::pipeline::{GameGate, SessionView};
use crate::core::soup::puzzle::Puzzle;
use crate::core::soup::verdict::Verdict;
use crate::core::soup::{SoupEvent, SoupGame};
use crate::core::vocab::Player;
use crate::llm::LocalClient;
use crate::llm::local::{DEFAULT_PREFIX_CACHE_MB, Engine};

pub use script::{PUZZLE, QUESTIONS};

#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// A GGUF file; the configured chat model when `None`.
    pub model: Option<PathBuf>,
    /// Questions from the script to ask (0 skips the session).
    pub questions: usize,
    pub prompt_tokens: usize,
    pub generate_tokens: usize,
    /// Repetitions of each speed measurement (the median is reported).
    pub runs: usize,
    /// llama.cpp's `llama-bench`, run on the same file for comparison.
    pub against: Option<PathBuf>,
}

impl Default for BenchOptions {
    fn default() -> Self {
        Self {
            model: None,
            questions: QUESTIONS.len(),
            prompt_tokens: 512,
            generate_tokens: 64,
            runs: 3,
            against: None,
        }
    }
}

/// Parse counts over one scripted session.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionFigures {
    pub asked: usize,
    pub clean: usize,
    pub salvaged: usize,
    pub fallback: usize,
    /// Verdicts equal to the script's expected one.
    pub agreed: usize,
    pub first_verdict: Duration,
    /// The last question's time to a verdict.
    pub last_verdict: Duration,
    pub total: Duration,
}

/// Runs the benchmark and prints each figure as it is measured.
pub async fn local_model(settings: &Settings, options: &BenchOptions) -> anyhow::Result<()> {
    let path = match &options.model {
        Some(path) => path.clone(),
        None => crate::models::ModelDir::new(&settings.llm.local).chat_model()?.path,
    };
    let loading = path.clone();
    let engine = tokio::task::spawn_blocking(move || Engine::load(&loading))
        .await?
        .map_err(|why| anyhow::anyhow!("the model file {} is not usable: {why}", path.display()))?;
    let engine = Arc::new(engine);
    let info = &engine.info;
    println!("model            {} ({}, {:.0} MB)", info.name, info.path.display(), info.file_bytes as f64 / 1e6);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("machine          {threads} CPU threads");
    match crate::llm::local::cpu::kernels() {
        Ok(kernels) => println!("CPU kernels      {kernels}"),
        Err(why) => println!("CPU kernels      none: {why}"),
    }
    println!("load             {:.2} s", info.load_time.as_secs_f64());
    println!("memory           {} after loading", resident());
    let (prompt, generated) = speeds(&engine, options).await?;
    println!("prompt           {prompt:.1} tokens/s ({} tokens, median of {})", options.prompt_tokens, options.runs);
    println!(
        "generation       {generated:.1} tokens/s ({} tokens, median of {})",
        options.generate_tokens, options.runs
    );
    if let Some(llama_bench) = &options.against {
        let sizes = against::Sizes {
            threads,
            prompt_tokens: options.prompt_tokens,
            generate_tokens: options.generate_tokens,
            runs: options.runs,
        };
        let theirs = against::run(llama_bench, &info.path, sizes).await?;
        println!("llama-bench      prompt {:.1} tokens/s, generation {:.1} tokens/s", theirs.prompt, theirs.generation);
        println!(
            "echoes/llama.cpp prompt {:.2}x, generation {:.2}x",
            prompt / theirs.prompt,
            generated / theirs.generation
        );
    }
    if options.questions == 0 {
        return Ok(());
    }
    let client: Arc<dyn LlmClient> = Arc::new(LocalClient::from_engine(Arc::clone(&engine), Duration::from_secs(600)));
    let figures = session(Arc::clone(&client), options.questions).await?;
    print_session("structured", &figures);
    print_verdict_times("prefix cache on ", &figures);
    engine.set_prefix_cache(0);
    print_verdict_times("prefix cache off", &session(Arc::clone(&client), options.questions).await?);
    engine.set_prefix_cache((DEFAULT_PREFIX_CACHE_MB * 1024 * 1024) as usize);
    print_session("free text", &session(Arc::new(FreeText(client)), options.questions).await?);
    let (bytes, states) = engine.prefix_cache_use();
    println!("memory           {} at the end; prefix cache {:.1} MB in {states} saved states", resident(), mb(bytes));
    Ok(())
}

/// This process's resident memory now and at its peak (Linux).
fn resident() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
    };
    match (field("VmRSS:"), field("VmHWM:")) {
        (Some(now), Some(peak)) => format!("{:.0} MB resident (peak {:.0} MB)", mb(now * 1024), mb(peak * 1024)),
        _ => "resident size unknown on this system".to_owned(),
    }
}

fn mb(bytes: usize) -> f64 {
    bytes as f64 / 1e6
}

/// Median prompt and generation speeds, in tokens per second.
async fn speeds(engine: &Arc<Engine>, options: &BenchOptions) -> anyhow::Result<(f64, f64)> {
    let engine = Arc::clone(engine);
    let options = options.clone();
    tokio::task::spawn_blocking(move || -> anyhow::Result<(f64, f64)> {
        let text = sample_text(&engine, options.prompt_tokens)?;
        let ids = &text[..options.prompt_tokens];
        let mut prompt = Vec::new();
        let mut generated = Vec::new();
        for _ in 0..options.runs.max(1) {
            let t = engine.time_prompt(ids).map_err(anyhow::Error::msg)?;
            prompt.push(options.prompt_tokens as f64 / t.as_secs_f64());
            let t = engine.time_generation(&ids[..16], options.generate_tokens).map_err(anyhow::Error::msg)?;
            generated.push(options.generate_tokens as f64 / t.as_secs_f64());
        }
        Ok((median(prompt), median(generated)))
    })
    .await?
}

/// At least `n` tokens of ordinary English (the puzzle texts, repeated).
fn sample_text(engine: &Engine, n: usize) -> anyhow::Result<Vec<u32>> {
    let (library, _) = crate::puzzles::PuzzleLibrary::load(None);
    let text: String = library.all().iter().map(|p| format!("{}\n{}\n", p.surface, p.bottom)).collect();
    let mut ids = engine.tokenizer().encode(&text).map_err(anyhow::Error::msg)?;
    anyhow::ensure!(!ids.is_empty(), "no sample text");
    while ids.len() < n.max(16) {
        ids.extend_from_within(..);
    }
    Ok(ids)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Asks the first `count` scripted questions in one session, narrator and
/// known answers off, feeding each verdict into the history as a real
/// session does.
pub async fn session(judge: Arc<dyn LlmClient>, count: usize) -> anyhow::Result<SessionFigures> {
    let (library, _) = crate::puzzles::PuzzleLibrary::load(None);
    let puzzle: Arc<Puzzle> = library.get(PUZZLE).with_context(|| format!("the bundled puzzle {PUZZLE} is missing"))?;
    let prompts = Arc::new(crate::assets::load_prompts(None)?);
    // Known answers off: every question goes to the model, which is what
    // this measures (a known answer would skip it and flatter the times).
    let settings =
        PipelineSettings { narrator: false, seed: Some(7), known_answers: false, ..PipelineSettings::default() };
    let models = RoleModels { judge: Arc::clone(&judge), narrator: judge };
    let pipeline = Pipeline::new(models, prompts, settings);
    let mut game = SoupGame::new(&puzzle, 3).apply(&SoupEvent::Start, &puzzle).map_err(|r| anyhow::anyhow!("{r:?}"))?;
    let mut history = Vec::new();
    let player = Player { id: "bench:player".to_owned(), name: "Bench".to_owned() };
    let mut figures = SessionFigures::default();
    let canary = "CANARY-bench";
    let mut gate = GameGate::new(&puzzle, canary);
    let started = Instant::now();
    for (question, expected) in QUESTIONS.iter().take(count) {
        let asked = Instant::now();
        gate.catch_up(&puzzle, &game, &history);
        let view = SessionView { puzzle: &puzzle, game: &game, history: &history, canary, gate: &gate, ledger: &[] };
        let outcome =
            pipeline.run(&view, &player, &TurnInput::from(SoupVerb::Ask((*question).to_owned())), &|_| {}).await;
        figures.last_verdict = asked.elapsed();
        if figures.asked == 0 {
            figures.first_verdict = figures.last_verdict;
        }
        figures.asked += 1;
        match outcome.usage.judge_parse {
            "clean" => figures.clean += 1,
            "salvaged" => figures.salvaged += 1,
            _ => figures.fallback += 1,
        }
        if outcome.reply.verdict.is_some() && outcome.reply.verdict == Verdict::parse(expected) {
            figures.agreed += 1;
        }
        if let Some(next) = outcome.next {
            game = next;
        }
        history.extend(outcome.public);
    }
    figures.total = started.elapsed();
    Ok(figures)
}

fn print_session(mode: &str, f: &SessionFigures) {
    let pct = |n: usize| 100.0 * n as f64 / f.asked.max(1) as f64;
    println!(
        "judge, {mode:<10} {} questions: clean {} ({:.0}%), salvaged {}, fallback {}; verdict as expected {} ({:.0}%)",
        f.asked,
        f.clean,
        pct(f.clean),
        f.salvaged,
        f.fallback,
        f.agreed,
        pct(f.agreed)
    );
    println!(
        "  time to verdict {:.2} s for the first question; {:.2} s a question on average",
        f.first_verdict.as_secs_f64(),
        f.total.as_secs_f64() / f.asked.max(1) as f64
    );
}

fn print_verdict_times(mode: &str, f: &SessionFigures) {
    println!(
        "  {mode}: question 1 {:.2} s, question {} {:.2} s ({:.2}x), {:.2} s a question on average",
        f.first_verdict.as_secs_f64(),
        f.asked,
        f.last_verdict.as_secs_f64(),
        f.last_verdict.as_secs_f64() / f.first_verdict.as_secs_f64().max(1e-9),
        f.total.as_secs_f64() / f.asked.max(1) as f64
    );
}

/// The model as a provider without structured output would see it: the
/// schema is dropped, so the Judge's parser meets the raw text.
struct FreeText(Arc<dyn LlmClient>);

#[async_trait]
impl LlmClient for FreeText {
    fn describe(&self) -> String {
        format!("{} (free text)", self.0.describe())
    }

    async fn chat(&self, mut request: ChatRequest) -> Result<ChatResponse, LlmError> {
        request.json_schema = None;
        self.0.chat(request).await
    }

    async fn health(&self) -> Result<(), LlmError> {
        self.0.health().await
    }
}
