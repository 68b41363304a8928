//! `echoes bench discord`: the Discord front end under load, offline. A
//! real serenity/poise bot talks to the local fake of Discord with an
//! instant rule-based model, so the figures measure the adapter, the actors
//! and SQLite, not a model: interaction ack latency with many `/soup ask`
//! at once across many threads, and turns per second sustained.
//!
//! Interactions reach the bot one of Discord's two ways (`Delivery`): on
//! the gateway, or POSTed to its Interactions Endpoint. On the gateway, ack
//! latency is counted from the moment the fake wrote the INTERACTION_CREATE
//! frame to the bot's socket (Discord has sent it; what follows is the
//! bot's time) to the defer callback reaching the fake; through the
//! endpoint, from the start of the POST to its response (the defer). The
//! fake runs in the same process on the same cores, so the wait in its own
//! send queue is reported too ("from queued"), but it is not the bot's.
//!
//! The rig (`offline_data`; `InstantModel` from `crate::bot`) is shared
//! with the tests.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::core::llm::LlmClient;

pub use crate::bot::instant::{InstantModel, offline_parts};

use super::fake::{CHANNEL, FakeDiscord, Opt, Since, Who};
use super::{Data, DiscordSettings};

/// The bot's state over a SQLite file, the built-in puzzles and `model`.
pub async fn offline_data(
    database: &Path,
    model: Arc<dyn LlmClient>,
    settings: DiscordSettings,
) -> anyhow::Result<Data> {
    Ok(Data::from_bot(offline_parts(database, model).await?, settings))
}

/// How Discord hands the bot its interactions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// INTERACTION_CREATE on the gateway; acks through the REST callback.
    Gateway,
    /// Signed POSTs to the Interactions Endpoint; acks in the response.
    Endpoint,
}

impl Delivery {
    fn describe(self) -> &'static str {
        match self {
            Delivery::Gateway => "interactions on the gateway, acks by REST callback",
            Delivery::Endpoint => "interactions POSTed to the Interactions Endpoint, acks in the HTTP response",
        }
    }
}

#[derive(Debug, Clone)]
pub struct DiscordBenchOptions {
    /// Game threads to spread the interactions over.
    pub threads: usize,
    /// `/soup ask` interactions dispatched at once.
    pub interactions: usize,
    /// Distinct players sending them.
    pub players: usize,
    pub delivery: Delivery,
}

impl Default for DiscordBenchOptions {
    fn default() -> Self {
        DiscordBenchOptions { threads: 100, interactions: 1_000, players: 200, delivery: Delivery::Gateway }
    }
}

#[derive(Debug, Clone)]
pub struct DiscordBenchReport {
    pub delivery: Delivery,
    pub threads: usize,
    pub interactions: usize,
    /// From the frame on the wire to the ack.
    pub ack_p50: Duration,
    pub ack_p99: Duration,
    pub ack_max: Duration,
    /// From the interaction handed to the fake to the ack (adds the fake's
    /// own send queue, on the same CPU as the bot).
    pub queued_p99: Duration,
    /// From the first dispatch to the last reply.
    pub elapsed: Duration,
    pub turns_per_sec: f64,
}

impl std::fmt::Display for DiscordBenchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        writeln!(f, "Discord front end, offline (fake Discord, instant model, SQLite file)")?;
        writeln!(f, "  {}", self.delivery.describe())?;
        writeln!(f, "  {} concurrent /soup ask across {} threads", self.interactions, self.threads)?;
        writeln!(
            f,
            "  interaction ack latency: p50 {:.1} ms  p99 {:.1} ms  max {:.1} ms  (goal p99 <= 100 ms)",
            ms(self.ack_p50),
            ms(self.ack_p99),
            ms(self.ack_max)
        )?;
        writeln!(f, "  (from queued in the fake, adding its send queue: p99 {:.1} ms)", ms(self.queued_p99))?;
        write!(
            f,
            "  turns: {} in {:.2} s = {:.0} turns/s sustained",
            self.interactions,
            self.elapsed.as_secs_f64(),
            self.turns_per_sec
        )
    }
}

/// Runs the benchmark in a temporary directory and returns the figures.
pub async fn run(opts: &DiscordBenchOptions) -> anyhow::Result<DiscordBenchReport> {
    let dir = tempfile_dir()?;
    let settings = DiscordSettings { turns_per_window: 0, ..DiscordSettings::default() };
    let data = offline_data(&dir.join("bench.db"), Arc::new(InstantModel::default()), settings).await?;
    let fake = FakeDiscord::start().await?;
    let endpoint = match opts.delivery {
        Delivery::Gateway => fake.endpoint(),
        Delivery::Endpoint => fake.endpoint_with_interactions(),
    };
    let bot = super::spawn(data, &endpoint).await?;
    if let Some(url) = &bot.interactions_url {
        fake.post_interactions_to(url);
    }
    fake.wait_ready(1, Duration::from_secs(30)).await?;
    let threads = open_threads(&fake, opts.threads).await?;
    let report = burst(&fake, &threads, opts).await;
    bot.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
    report
}

fn tempfile_dir() -> anyhow::Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("echoes-bench-discord-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// Starts `n` games (one `/soup start` each) and returns their threads.
async fn open_threads(fake: &FakeDiscord, n: usize) -> anyhow::Result<Vec<u64>> {
    let host = Who::player(500, "Host");
    for _ in 0..n {
        fake.slash(CHANNEL, &host, "soup", &["start"], &[Opt::Text("puzzle", "en-noon-gun".into())])?;
    }
    let wait = Duration::from_secs(60);
    fake.wait_for_count(|c| c.method == "POST" && c.path.ends_with("/threads"), n, wait).await?;
    // Each start posts its intro with buttons in the new thread.
    fake.wait_for_count(|c| c.method == "POST" && c.body.get("components").is_some(), n, wait).await?;
    Ok(fake.threads())
}

async fn burst(fake: &FakeDiscord, threads: &[u64], opts: &DiscordBenchOptions) -> anyhow::Result<DiscordBenchReport> {
    let players: Vec<Who> =
        (0..opts.players.max(1)).map(|i| Who::player(10_000 + i as u64, &format!("p{i}"))).collect();
    let mut burst = Vec::with_capacity(opts.interactions);
    for i in 0..opts.interactions {
        let thread = threads[i % threads.len()];
        let who = &players[i % players.len()];
        let question = Opt::Text("question", format!("Is clue number {i} important?"));
        burst.push(fake.prepare_slash(thread, who, "soup", &["ask"], &[question])?);
    }
    // All built first, then dispatched at once: the latency measured is
    // the bot's, not the time this loop takes to build payloads.
    let started = Instant::now();
    let ids: Vec<u64> = burst.into_iter().map(|p| fake.send_prepared(p)).collect();
    let is_reply = |c: &super::fake::Call| c.method == "POST" && c.path.starts_with("/webhooks/");
    let wait = Duration::from_secs(300);
    let new = |c: &super::fake::Call| c.at >= started;
    fake.wait_for_count(|c| new(c) && is_reply(c), opts.interactions, wait).await?;
    let elapsed = started.elapsed();
    let acks = sorted(fake.ack_latencies(&ids, Since::OnWire));
    let queued = sorted(fake.ack_latencies(&ids, Since::Queued));
    anyhow::ensure!(
        acks.len() == opts.interactions && queued.len() == opts.interactions,
        "only {} of {} interactions were acknowledged",
        acks.len().min(queued.len()),
        ids.len()
    );
    Ok(DiscordBenchReport {
        delivery: opts.delivery,
        threads: threads.len(),
        interactions: opts.interactions,
        ack_p50: quantile(&acks, 0.50),
        ack_p99: quantile(&acks, 0.99),
        ack_max: quantile(&acks, 1.0),
        queued_p99: quantile(&queued, 0.99),
        elapsed,
        turns_per_sec: opts.interactions as f64 / elapsed.as_secs_f64(),
    })
}

fn sorted(mut v: Vec<Duration>) -> Vec<Duration> {
    v.sort_unstable();
    v
}

/// The `q` quantile of sorted, non-empty figures (nearest rank).
fn quantile(sorted: &[Duration], q: f64) -> Duration {
    let rank = ((sorted.len() as f64 * q).ceil() as usize).saturating_sub(1).min(sorted.len().saturating_sub(1));
    sorted.get(rank).copied().unwrap_or_default()
}
