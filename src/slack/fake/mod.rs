//! A local fake of Slack for tests and benchmarks. The Web API (`/api/<method>`:
//! `auth.test`, `chat.postMessage`, `chat.update`, `chat.postEphemeral`,
//! `usergroups.users.list`, `users.info`, `apps.connections.open`, and file
//! uploads: `files.getUploadURLExternal`, the upload URL it hands out,
//! `files.completeUploadExternal`) records every call and answers like Slack; Socket Mode is a WebSocket (`apps.connections.open`
//! returns its `ws://` address) that says hello, sends `events_api`,
//! `slash_commands` and `interactive` envelopes, records each ack, and can
//! send `disconnect` and accept the reconnection. The bot reaches it through
//! slack-morphism's own client (`with_slack_api_url`). For the Events API,
//! `signed` builds requests signed like Slack's (v0 HMAC-SHA256). Started
//! with `start_limited`, it enforces Slack's rate limits (`limits.rs`: 429,
//! `Retry-After`, `ratelimited`) and tallies 429s and calls that came
//! before a wait ended (`rate_limits`). Always, it refuses what Slack
//! refuses in a message (`rules.rs`: lengths, blocks, ephemeral messages
//! to non-members, updates of others' messages, unknown threads) with
//! Slack's error, and keeps the refusal (`refusals`).

pub mod limits;
pub mod payloads;
pub mod rules;
mod socket;
mod web;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::{Notify, mpsc};

pub use limits::RateLimits;
pub use payloads::signed;

use crate::bot::quota::Quotas;
pub use crate::bot::quota::{Limit, Tally};

pub const TEAM: &str = "T0FAKE";
pub const CHANNEL: &str = "C0GAMES";
/// The bot's own user and bot ids.
pub const BOT_USER: &str = "U0BOT";
pub const BOT_ID: &str = "B0BOT";
pub const BOT_TOKEN: &str = "xoxb-fake";
pub const APP_TOKEN: &str = "xapp-fake";
pub const SIGNING_SECRET: &str = "fake-signing-secret";

/// One Web API call the bot made.
#[derive(Debug, Clone)]
pub struct Call {
    pub at: Instant,
    /// `chat.postMessage`, …
    pub method: String,
    /// The JSON body, or the query parameters as an object.
    pub body: Value,
    /// The `ts` of the message the call created or changed.
    pub ts: Option<String>,
}

impl Call {
    pub fn text(&self) -> String {
        self.body.get("text").and_then(Value::as_str).unwrap_or_default().to_string()
    }

    pub fn thread_ts(&self) -> Option<&str> {
        self.body.get("thread_ts").and_then(Value::as_str)
    }
}

pub(crate) struct Inner {
    pub ws_url: String,
    calls: Mutex<Vec<Call>>,
    changed: Notify,
    seq: AtomicU64,
    /// Open Socket Mode connections, newest last.
    pub sockets: Mutex<Vec<mpsc::UnboundedSender<String>>>,
    /// How many Socket Mode connections were ever opened.
    pub opened: AtomicU64,
    /// Envelope id → when it was sent and when it was acknowledged.
    pub envelopes: Mutex<HashMap<String, (Instant, Option<Instant>)>>,
    /// User group id → members.
    pub groups: Mutex<HashMap<String, Vec<String>>>,
    /// Display names by user id, for `users.info`.
    pub users: Mutex<HashMap<String, String>>,
    /// The Web API's own address, for upload URLs.
    pub web_url: String,
    /// Files by id: announced by `files.getUploadURLExternal`, their bytes
    /// once uploaded, shared once completed.
    pub files: Mutex<HashMap<String, Upload>>,
    /// The rate limits enforced (none by default) and their windows.
    pub limits: RateLimits,
    pub quotas: Quotas,
    /// Channels' members and messages' authors, for `rules`.
    pub workspace: Mutex<rules::Workspace>,
    /// Calls refused by `rules`, in order.
    pub refusals: Mutex<Vec<Refusal>>,
    /// Whether a test means to provoke refusals (`allow_refusals`).
    pub refusals_allowed: AtomicBool,
}

/// A message call Slack would refuse: its method, Slack's error and body.
#[derive(Debug, Clone)]
pub struct Refusal {
    pub method: String,
    pub error: &'static str,
    pub body: Value,
}

/// A file the bot uploads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Upload {
    pub name: String,
    /// The length announced before the upload.
    pub length: usize,
    pub bytes: Option<Vec<u8>>,
    /// Where `files.completeUploadExternal` shared it: channel and thread.
    pub shared: Option<(String, Option<String>)>,
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Inner {
    pub fn next_ts(&self) -> String {
        format!("1700000000.{:06}", self.seq.fetch_add(1, Ordering::Relaxed))
    }

    pub fn record(&self, call: Call) {
        lock(&self.calls).push(call);
        self.changed.notify_waiters();
    }

    pub fn acked(&self, envelope_id: &str) {
        if let Some(entry) = lock(&self.envelopes).get_mut(envelope_id) {
            entry.1.get_or_insert_with(Instant::now);
        }
        self.changed.notify_waiters();
    }
}

/// The running fake.
#[derive(Clone)]
pub struct FakeSlack {
    inner: Arc<Inner>,
    pub api_url: String,
}

impl FakeSlack {
    pub async fn start() -> anyhow::Result<FakeSlack> {
        FakeSlack::start_limited(RateLimits::default()).await
    }

    /// A fake that enforces `limits` like Slack (429 with Retry-After).
    pub async fn start_limited(limits: RateLimits) -> anyhow::Result<FakeSlack> {
        let web = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let ws = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let inner = Arc::new(Inner {
            ws_url: format!("ws://{}/link", ws.local_addr()?),
            calls: Mutex::default(),
            changed: Notify::new(),
            seq: AtomicU64::new(1),
            sockets: Mutex::default(),
            opened: AtomicU64::new(0),
            envelopes: Mutex::default(),
            groups: Mutex::default(),
            users: Mutex::default(),
            web_url: format!("http://{}", web.local_addr()?),
            files: Mutex::default(),
            limits,
            quotas: Quotas::default(),
            workspace: Mutex::default(),
            refusals: Mutex::default(),
            refusals_allowed: AtomicBool::new(false),
        });
        let api_url = format!("http://{}/api", web.local_addr()?);
        tokio::spawn(web::serve(web, inner.clone()));
        tokio::spawn(socket::serve(ws, inner.clone()));
        Ok(FakeSlack { inner, api_url })
    }

    pub fn endpoint(&self) -> super::Endpoint {
        super::Endpoint { bot_token: BOT_TOKEN.into(), api_url: Some(self.api_url.clone()) }
    }

    /// A workspace member's display name (`users.info`); unknown users
    /// are `user_not_found`.
    pub fn set_user(&self, id: &str, display_name: &str) {
        lock(&self.inner.users).insert(id.into(), display_name.into());
    }

    pub fn set_group(&self, group: &str, members: &[&str]) {
        lock(&self.inner.groups).insert(group.into(), members.iter().map(|m| m.to_string()).collect());
    }

    /// Learns from an inbound payload (event, command, interaction) who
    /// is in which channel and which messages exist (`rules`).
    pub fn saw(&self, payload: &Value) {
        lock(&self.inner.workspace).saw(payload);
    }

    /// Makes `user` a member of `channel`.
    pub fn join(&self, channel: &str, user: &str) {
        lock(&self.inner.workspace).members.entry(channel.into()).or_default().insert(user.into());
    }

    /// The calls Slack would have refused, in order.
    pub fn refusals(&self) -> Vec<Refusal> {
        lock(&self.inner.refusals).clone()
    }

    /// For a test that provokes refusals on purpose: the rig will not
    /// fail it for them.
    pub fn allow_refusals(&self) {
        self.inner.refusals_allowed.store(true, Ordering::Relaxed);
    }

    /// Refusals a test did not mean to provoke.
    pub fn unexpected_refusals(&self) -> Vec<Refusal> {
        if self.inner.refusals_allowed.load(Ordering::Relaxed) { Vec::new() } else { self.refusals() }
    }

    /// The rate limits' tally: 429s sent, limits reached, and calls that
    /// came before an announced wait ended (`bot::quota`).
    pub fn rate_limits(&self) -> Tally {
        self.inner.quotas.tally()
    }

    /// Files uploaded and shared, by id.
    pub fn shared_files(&self) -> Vec<(String, Upload)> {
        let files = lock(&self.inner.files);
        let mut shared: Vec<(String, Upload)> =
            files.iter().filter(|(_, f)| f.shared.is_some()).map(|(id, f)| (id.clone(), f.clone())).collect();
        shared.sort_by(|a, b| a.0.cmp(&b.0));
        shared
    }

    pub fn calls(&self) -> Vec<Call> {
        lock(&self.inner.calls).clone()
    }

    pub fn calls_to(&self, method: &str) -> Vec<Call> {
        self.calls().into_iter().filter(|c| c.method == method).collect()
    }

    /// Waits until `pred` holds for the calls so far.
    pub async fn wait_until(
        &self,
        what: &str,
        wait: Duration,
        pred: impl Fn(&[Call]) -> bool,
    ) -> anyhow::Result<Vec<Call>> {
        let deadline = Instant::now() + wait;
        loop {
            let changed = self.inner.changed.notified();
            let calls = self.calls();
            if pred(&calls) {
                return Ok(calls);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            anyhow::ensure!(!left.is_zero(), "timed out waiting for {what}; calls: {:#?}", summarise(&calls));
            let _ = tokio::time::timeout(left.min(Duration::from_millis(200)), changed).await;
        }
    }

    /// Waits for `n` calls matching `pred`.
    pub async fn wait_for_count(
        &self,
        what: &str,
        n: usize,
        wait: Duration,
        pred: impl Fn(&Call) -> bool,
    ) -> anyhow::Result<Vec<Call>> {
        self.wait_until(what, wait, |calls| calls.iter().filter(|c| pred(c)).count() >= n).await
    }

    /// Sends a Socket Mode frame to the newest open connection.
    pub fn send_frame(&self, frame: &Value) -> anyhow::Result<()> {
        let text = frame.to_string();
        let mut sockets = lock(&self.inner.sockets);
        sockets.retain(|s| !s.is_closed());
        let socket = sockets.last().ok_or_else(|| anyhow::anyhow!("no Socket Mode connection is open"))?;
        if let Some(payload) = frame.get("payload") {
            self.saw(payload);
        }
        if let Some(id) = frame.get("envelope_id").and_then(Value::as_str) {
            lock(&self.inner.envelopes).insert(id.to_string(), (Instant::now(), None));
        }
        socket.send(text).map_err(|_| anyhow::anyhow!("the Socket Mode connection closed"))
    }

    /// Socket Mode connections opened so far (a reconnection adds one).
    pub fn connections_opened(&self) -> u64 {
        self.inner.opened.load(Ordering::Relaxed)
    }

    pub async fn wait_connections(&self, n: u64, wait: Duration) -> anyhow::Result<()> {
        let deadline = Instant::now() + wait;
        while self.connections_opened() < n || lock(&self.inner.sockets).iter().all(|s| s.is_closed()) {
            anyhow::ensure!(
                Instant::now() < deadline,
                "only {} Socket Mode connections opened",
                self.connections_opened()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        Ok(())
    }

    /// Whether (and how fast) an envelope was acknowledged.
    pub fn ack_latency(&self, envelope_id: &str) -> Option<Duration> {
        let envelopes = lock(&self.inner.envelopes);
        let (sent, acked) = envelopes.get(envelope_id)?;
        acked.map(|a| a.duration_since(*sent))
    }

    pub async fn wait_ack(&self, envelope_id: &str, wait: Duration) -> anyhow::Result<Duration> {
        let deadline = Instant::now() + wait;
        loop {
            if let Some(latency) = self.ack_latency(envelope_id) {
                return Ok(latency);
            }
            anyhow::ensure!(Instant::now() < deadline, "envelope {envelope_id} was never acknowledged");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

fn summarise(calls: &[Call]) -> Vec<String> {
    calls.iter().map(|c| format!("{} {}", c.method, c.body)).collect()
}
