//! `echoes bench slack`: the Slack front end under load, offline, through
//! slack-morphism against the local fake. Two figures:
//! - Events API ack latency (signed request sent → HTTP 200 received) with
//!   many thread replies at once while the model takes 30 s per call: the
//!   ack must never wait for the model (Slack's limit is 3 s).
//! - Socket Mode turns per second with an instant model: thread replies as
//!   `events_api` envelopes across many games until every reply is shown.
//!
//! The rig (`Rig`, `SlowModel`) is shared with the tests.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use serde_json::Value;

use crate::bot::BotParts;
use crate::bot::instant::{InstantModel, offline_parts};
use crate::core::llm::{ChatRequest, ChatResponse, LlmClient, LlmError};

use super::fake::{APP_TOKEN, FakeSlack, SIGNING_SECRET, payloads, signed};
use super::settings::SlackSettings;
use super::socket::{SocketBot, config, start};
use super::{SlackBot, events_router};

/// A model that takes `delay` before answering like `InstantModel`.
#[derive(Debug, Clone)]
pub struct SlowModel {
    pub delay: Duration,
    pub inner: InstantModel,
}

#[async_trait]
impl LlmClient for SlowModel {
    fn describe(&self) -> String {
        format!("slow ({:?})", self.delay)
    }

    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError> {
        tokio::time::sleep(self.delay).await;
        self.inner.chat(request).await
    }

    async fn health(&self) -> Result<(), LlmError> {
        Ok(())
    }
}

/// A bot connected to a fake Slack, over Socket Mode or the Events API.
pub struct Rig {
    pub fake: FakeSlack,
    pub bot: Arc<SlackBot>,
    pub socket: Option<SocketBot>,
    /// `http://127.0.0.1:PORT` of the Events API endpoint.
    pub events: Option<String>,
    pub http: reqwest::Client,
}

impl Rig {
    /// A bot over `database`; Socket Mode when `socket`, else the Events API.
    pub async fn start(
        database: &Path,
        model: Arc<dyn LlmClient>,
        settings: SlackSettings,
        socket: bool,
    ) -> anyhow::Result<Rig> {
        let fake = FakeSlack::start().await?;
        Rig::start_with(fake, database, model, settings, socket).await
    }

    pub async fn start_with(
        fake: FakeSlack,
        database: &Path,
        model: Arc<dyn LlmClient>,
        settings: SlackSettings,
        socket: bool,
    ) -> anyhow::Result<Rig> {
        Rig::start_from(fake, offline_parts(database, model).await?, settings, socket).await
    }

    /// A bot built from `parts` (hosted games, a clock of the test's own).
    pub async fn start_from(
        fake: FakeSlack,
        parts: BotParts,
        settings: SlackSettings,
        socket: bool,
    ) -> anyhow::Result<Rig> {
        let bot = SlackBot::connect(parts, settings, &fake.endpoint()).await?;
        let (socket, events) = if socket {
            let opened = fake.connections_opened();
            let running = start(bot.clone(), APP_TOKEN, config(1)).await?;
            fake.wait_connections(opened + 1, Duration::from_secs(10)).await?;
            (Some(running), None)
        } else {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
            let url = format!("http://{}", listener.local_addr()?);
            let app = events_router(bot.clone(), SIGNING_SECRET);
            tokio::spawn(async move { axum::serve(crate::bot::net::no_delay(listener), app).await });
            (None, Some(url))
        };
        Ok(Rig { fake, bot, socket, events, http: reqwest::Client::new() })
    }

    pub async fn stop(self) {
        if let Some(socket) = &self.socket {
            socket.stop().await;
        }
    }

    /// Stops the bot as a process ends: the socket closes and this bot no
    /// longer plays its sessions (their actors and timers stop with the
    /// last handle), so a bot started next on the same database is the
    /// only one that fires their deadlines. Returns the fake, for it.
    pub async fn halt(self) -> FakeSlack {
        if let Some(socket) = &self.socket {
            socket.stop().await;
        }
        self.bot.shut_down();
        self.fake.clone()
    }

    /// Posts a body to the Events API signed with `secret` at `timestamp`.
    pub async fn post_signed(
        &self,
        path: &str,
        body: &str,
        secret: &str,
        timestamp: i64,
        retry: Option<u32>,
    ) -> anyhow::Result<(u16, String)> {
        let url = format!("{}{path}", self.events.as_deref().unwrap_or_default());
        let kind = if path.ends_with("/events") { "application/json" } else { "application/x-www-form-urlencoded" };
        let mut request = self
            .http
            .post(url)
            .header("content-type", kind)
            .header("x-slack-request-timestamp", timestamp.to_string())
            .header("x-slack-signature", signed(secret, timestamp, body))
            .body(body.to_string());
        if let Some(n) = retry {
            request = request.header("x-slack-retry-num", n.to_string()).header("x-slack-retry-reason", "http_timeout");
        }
        let response = request.send().await?;
        Ok((response.status().as_u16(), response.text().await?))
    }

    /// Sends what Slack would: an envelope over Socket Mode, or a signed
    /// request to the Events API. `kind` is `events_api`,
    /// `slash_commands` or `interactive`.
    pub async fn deliver(&self, kind: &str, id: &str, payload: Value) -> anyhow::Result<()> {
        if self.socket.is_some() {
            return self.fake.send_frame(&payloads::envelope(kind, id, payload));
        }
        self.fake.saw(&payload);
        let (path, body) = match kind {
            "events_api" => ("/slack/events", payload.to_string()),
            "slash_commands" => ("/slack/commands", payloads::command_form(&payload)),
            _ => ("/slack/interactions", payloads::interaction_form(&payload)),
        };
        let (status, _) = self.post_signed(path, &body, SIGNING_SECRET, now_secs(), None).await?;
        anyhow::ensure!(status == 200, "the Events API answered {status}");
        Ok(())
    }

    /// Starts a game with `/soup start <args>` in `channel` and returns
    /// its thread ts (the intro message, updated with its buttons).
    pub async fn start_game(&self, channel: &str, user: &str, args: &str, trigger: &str) -> anyhow::Result<String> {
        self.deliver("slash_commands", trigger, payloads::command(channel, user, &format!("start {args}"), trigger))
            .await?;
        let intro = |c: &super::fake::Call| {
            c.method == "chat.update" && c.body.get("blocks").is_some() && c.body["channel"] == channel
        };
        let calls = self.fake.wait_for_count("the intro", 1, Duration::from_secs(30), intro).await?;
        let ts = calls.iter().rev().find(|c| intro(c)).and_then(|c| c.ts.clone());
        ts.ok_or_else(|| anyhow::anyhow!("the intro has no ts"))
    }
}

/// A test's rig fails it when the bot sent what Slack would refuse
/// (`fake::rules`), unless the test asked for refusals.
impl Drop for Rig {
    fn drop(&mut self) {
        let refusals = self.fake.unexpected_refusals();
        if !refusals.is_empty() && !std::thread::panicking() {
            panic!("the bot sent {} call(s) Slack would refuse: {refusals:#?}", refusals.len());
        }
    }
}

pub fn now_secs() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

#[derive(Debug, Clone)]
pub struct SlackBenchOptions {
    /// Games (one channel each) the turns are spread over.
    pub games: usize,
    /// Events API thread replies sent at once with the slow model.
    pub events: usize,
    pub model_delay: Duration,
    /// Socket Mode thread replies with the instant model.
    pub turns: usize,
}

impl Default for SlackBenchOptions {
    fn default() -> Self {
        SlackBenchOptions { games: 50, events: 500, model_delay: Duration::from_secs(30), turns: 1_000 }
    }
}

#[derive(Debug, Clone)]
pub struct SlackBenchReport {
    pub opts: SlackBenchOptions,
    pub ack_p50: Duration,
    pub ack_p99: Duration,
    pub ack_max: Duration,
    pub turns_elapsed: Duration,
    pub turns_per_sec: f64,
}

impl std::fmt::Display for SlackBenchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let o = &self.opts;
        writeln!(f, "Slack front end, offline (fake Slack through slack-morphism, SQLite file)")?;
        writeln!(
            f,
            "  Events API: {} concurrent signed thread replies across {} games, model slowed to {:.0} s",
            o.events,
            o.games,
            o.model_delay.as_secs_f64()
        )?;
        writeln!(
            f,
            "    ack latency: p50 {:.1} ms  p99 {:.1} ms  max {:.1} ms  (Slack's limit 3000 ms)",
            ms(self.ack_p50),
            ms(self.ack_p99),
            ms(self.ack_max)
        )?;
        write!(
            f,
            "  Socket Mode: {} thread replies across {} games, instant model: {:.2} s = {:.0} turns/s",
            o.turns,
            o.games,
            self.turns_elapsed.as_secs_f64(),
            self.turns_per_sec
        )
    }
}

fn scratch() -> anyhow::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("echoes-bench-slack-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

fn settings() -> SlackSettings {
    SlackSettings { turns_per_window: 0, ..SlackSettings::default() }
}

/// Runs both measurements in a temporary directory.
pub async fn run(opts: &SlackBenchOptions) -> anyhow::Result<SlackBenchReport> {
    let dir = scratch()?;
    let slow = Arc::new(SlowModel { delay: opts.model_delay, inner: InstantModel::default() });
    let events = Rig::start(&dir.join("events.db"), slow, settings(), false).await?;
    let mut acks = ack_latencies(&events, opts).await?;
    events.stop().await;
    let socket = Rig::start(&dir.join("socket.db"), Arc::new(InstantModel::default()), settings(), true).await?;
    let turns_elapsed = turns(&socket, opts).await?;
    socket.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
    acks.sort_unstable();
    let pick = |q: f64| acks[((acks.len() as f64 * q).ceil() as usize).saturating_sub(1).min(acks.len() - 1)];
    Ok(SlackBenchReport {
        opts: opts.clone(),
        ack_p50: pick(0.50),
        ack_p99: pick(0.99),
        ack_max: *acks.last().unwrap_or(&Duration::ZERO),
        turns_elapsed,
        turns_per_sec: opts.turns as f64 / turns_elapsed.as_secs_f64(),
    })
}

async fn open_games(rig: &Rig, games: usize) -> anyhow::Result<Vec<(String, String)>> {
    let mut threads = Vec::with_capacity(games);
    for g in 0..games {
        let channel = format!("CBENCH{g}");
        let ts = rig.start_game(&channel, "UHOST", "en-noon-gun", &format!("start-{g}")).await?;
        threads.push((channel, ts));
    }
    Ok(threads)
}

fn reply(threads: &[(String, String)], i: usize, prefix: &str) -> (String, Value) {
    let (channel, ts) = &threads[i % threads.len()];
    let id = format!("{prefix}-{i}");
    let user = format!("U{:04}", i % 200);
    let text = format!("Is clue number {i} important?");
    (id.clone(), payloads::message_event(channel, &id, &user, &text, Some(ts), &format!("1700000100.{i:06}")))
}

async fn ack_latencies(rig: &Rig, opts: &SlackBenchOptions) -> anyhow::Result<Vec<Duration>> {
    let threads = open_games(rig, opts.games).await?;
    let mut sends = tokio::task::JoinSet::new();
    for i in 0..opts.events {
        let (_, payload) = reply(&threads, i, "ev");
        let (http, url) = (rig.http.clone(), format!("{}/slack/events", rig.events.as_deref().unwrap_or_default()));
        sends.spawn(async move {
            let body = payload.to_string();
            let ts = now_secs();
            let started = Instant::now();
            let response = http
                .post(url)
                .header("content-type", "application/json")
                .header("x-slack-request-timestamp", ts.to_string())
                .header("x-slack-signature", signed(SIGNING_SECRET, ts, &body))
                .body(body)
                .send()
                .await?;
            anyhow::ensure!(response.status().is_success(), "ack status {}", response.status());
            Ok::<Duration, anyhow::Error>(started.elapsed())
        });
    }
    let mut acks = Vec::with_capacity(opts.events);
    while let Some(done) = sends.join_next().await {
        acks.push(done??);
    }
    Ok(acks)
}

async fn turns(rig: &Rig, opts: &SlackBenchOptions) -> anyhow::Result<Duration> {
    let threads = open_games(rig, opts.games).await?;
    let thinking = crate::slack::words::say(crate::core::vocab::Language::En, &crate::slack::words::Word::Thinking);
    let answered =
        |c: &super::fake::Call| c.method == "chat.update" && c.body.get("blocks").is_none() && c.text() != thinking;
    let before = rig.fake.calls().iter().filter(|c| answered(c)).count();
    let started = Instant::now();
    for i in 0..opts.turns {
        let (id, payload) = reply(&threads, i, "sm");
        rig.deliver("events_api", &format!("env-{id}"), payload).await?;
    }
    rig.fake.wait_for_count("every reply", before + opts.turns, Duration::from_secs(300), answered).await?;
    Ok(started.elapsed())
}
