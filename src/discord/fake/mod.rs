//! A local fake of Discord for tests and benchmarks: the REST API (every
//! call the bot makes is recorded and answered like Discord would) and the
//! WebSocket gateway (Hello, Identify with its shard, READY, heartbeats,
//! GUILD_CREATE per server on the shard, events routed by server's shard,
//! then whatever events a test dispatches). The bot reaches it through
//! serenity's own client: `HttpBuilder::proxy` with the rate limiter off
//! routes every REST call here, and the gateway URL comes from
//! `GET /gateway` like in production. The REST API speaks HTTP/2 (one
//! connection for every call, as with discord.com) and HTTP/1.1; the
//! gateway notes when each interaction's frame went out (`Since::OnWire`).
//!
//! Started with `start_limited`, it enforces Discord's rate limits
//! (`limits.rs`: per route with `X-RateLimit-*` headers, and global; 429
//! with `Retry-After`) and tallies 429s and calls that came before an
//! announced wait ended (`rate_limits`); its `endpoint()` then asks the
//! bot to keep the limits itself (`discord/limiter.rs`).
//!
//! Pointed at a bot's Interactions Endpoint (`post_interactions_to`), the
//! fake POSTs interactions there instead, signed with its Ed25519 key like
//! Discord; an interaction response in the HTTP response is recorded as
//! the callback it stands for (`Call::inline`).

mod gateway;
pub mod limits;
pub mod payloads;
mod rest;
pub mod spec;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::{Notify, broadcast, watch};

pub use limits::RateLimits;
pub use payloads::{Opt, Who};
pub use spec::Violation;

use crate::bot::quota::Quotas;
pub use crate::bot::quota::{Limit, Tally};

use super::Endpoint;

pub const GUILD: u64 = 10;
pub const CHANNEL: u64 = 20;
/// A second server, on shard 1 of 2 (`(id >> 22) % 2`; `GUILD` is on
/// shard 0), with its own games channel.
pub const GUILD_B: u64 = 1 << 22;
pub const CHANNEL_B: u64 = 30;
pub const APP: u64 = 2;
pub const BOT: u64 = 1;
const TOKEN: &str = "fake-token";
/// The fake's Ed25519 key for signing interactions (fixed: it is a fake).
const SIGNING_SEED: [u8; 32] = [42; 32];

/// One REST call the bot made.
#[derive(Debug, Clone)]
pub struct Call {
    pub at: Instant,
    pub method: String,
    /// The path below `/api/v10`, e.g. `/channels/20/messages`.
    pub path: String,
    /// The JSON body (`payload_json` for multipart requests), or null.
    pub body: Value,
    /// Attached files: name and contents.
    pub files: Vec<(String, Vec<u8>)>,
    /// The id of the message or thread the call created (none for a
    /// message posted again with the nonce of one it created before).
    pub created: Option<u64>,
    /// Not a REST call: the interaction response the bot gave in its HTTP
    /// response to an interaction POSTed to its endpoint.
    pub inline: bool,
}

impl Call {
    pub fn is(&self, method: &str, path_prefix: &str) -> bool {
        self.method == method && self.path.starts_with(path_prefix)
    }

    /// Every embed description and the content, joined: what a reader sees.
    pub fn text(&self) -> String {
        let mut parts = Vec::new();
        if let Some(c) = self.body.get("content").and_then(Value::as_str) {
            parts.push(c.to_string());
        }
        for e in self.body.get("embeds").and_then(Value::as_array).into_iter().flatten() {
            if let Some(d) = e.get("description").and_then(Value::as_str) {
                parts.push(d.to_string());
            }
        }
        if let Some(data) = self.body.get("data") {
            let inner = Call { body: data.clone(), ..self.clone() };
            parts.push(inner.text());
        }
        parts.join("\n")
    }
}

pub(crate) struct Inner {
    pub base: String,
    pub gateway: String,
    pub bot: Who,
    pub members: Mutex<Vec<Who>>,
    calls: Mutex<Vec<Call>>,
    call_added: Notify,
    ids: AtomicU64,
    pub events: broadcast::Sender<Arc<Dispatch>>,
    /// How many times a bot has identified (READY sent).
    pub ready: watch::Sender<u64>,
    /// The shard count `GET /gateway/bot` recommends.
    pub shards: AtomicU64,
    /// The shards bots identified as, in order: `[id, total]`.
    pub identified: Mutex<Vec<(u64, u64)>>,
    /// Channels and threads by id (Discord's JSON).
    pub channels: Mutex<HashMap<u64, Value>>,
    /// Interaction token → channel, for follow-ups.
    pub tokens: Mutex<HashMap<String, u64>>,
    /// Files served under `/files/<name>`.
    pub files: Mutex<HashMap<String, Vec<u8>>>,
    /// When each interaction was queued for the gateway (for ack latency).
    pub dispatched: Mutex<HashMap<u64, Instant>>,
    /// When each interaction's frame was first written to a bot's socket
    /// (or its POST to the bot's endpoint began).
    pub on_wire: Mutex<HashMap<u64, Instant>>,
    /// Messages created with an enforced nonce, by channel and nonce:
    /// the same nonce again returns the first message, creating none.
    pub nonces: Mutex<HashMap<(u64, String), Value>>,
    /// The bot's Interactions Endpoint, once interactions go there.
    interactions: Mutex<Option<String>>,
    /// Discord's side of the endpoint's signatures.
    signer: ed25519_dalek::SigningKey,
    /// The client interactions are POSTed with (HTTP/2, one connection).
    poster: reqwest::Client,
    /// DM channels the bot opened: channel → user.
    pub dms: Mutex<HashMap<u64, u64>>,
    /// Users who do not accept DMs from the bot (Discord answers 50007).
    pub closed_dms: Mutex<std::collections::HashSet<u64>>,
    /// The rate limits enforced (none by default) and their windows.
    pub limits: RateLimits,
    pub quotas: Quotas,
    /// Discord's published API, held against every call (`spec.rs`).
    spec: Option<&'static spec::Spec>,
    /// Calls and interaction responses Discord would have refused.
    violations: Mutex<Vec<Violation>>,
    /// Whether the test expects violations (it sends bad bodies itself).
    violations_allowed: std::sync::atomic::AtomicBool,
}

/// One gateway dispatch (op 0) queued for the connected bots.
pub(crate) struct Dispatch {
    /// The server it happens in: only the connection running that
    /// server's shard gets it.
    pub guild: Option<u64>,
    pub event: String,
    /// The event's `d`, already JSON.
    pub d: String,
    /// An interaction's id, so the gateway can note when it went out.
    pub interaction: Option<u64>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Inner {
    pub fn next_id(&self) -> u64 {
        self.ids.fetch_add(1, Ordering::Relaxed)
    }

    /// What Discord would refuse in this call (kept for the test); empty
    /// when it conforms or no document is loaded.
    pub fn conform(&self, method: &str, path: &str, body: &Value) -> Vec<Violation> {
        let Some(spec) = self.spec else { return Vec::new() };
        let found = spec.check(method, path, body);
        for violation in &found {
            tracing::warn!(%violation, "Discord would refuse this");
        }
        lock(&self.violations).extend(found.iter().cloned());
        found
    }

    pub fn record(&self, call: Call) {
        lock(&self.calls).push(call);
        self.call_added.notify_waiters();
    }

    pub fn channel(&self, id: u64) -> Option<Value> {
        lock(&self.channels).get(&id).cloned()
    }

    pub fn set_channel(&self, id: u64, value: Value) {
        lock(&self.channels).insert(id, value);
    }

    pub fn token_channel(&self, token: &str) -> Option<u64> {
        lock(&self.tokens).get(token).copied()
    }

    /// The current Unix time and Discord's signature over it and `payload`.
    fn signed(&self, payload: &str) -> (String, String) {
        let timestamp = super::endpoint::unix_now().to_string();
        let signature = sign(&self.signer, &timestamp, payload.as_bytes());
        (timestamp, signature)
    }

    /// The DM channel for a user, opened now if the bot had none.
    pub fn dm_channel(&self, user: u64) -> u64 {
        let mut dms = lock(&self.dms);
        if let Some((channel, _)) = dms.iter().find(|(_, u)| **u == user) {
            return *channel;
        }
        let channel = self.next_id();
        dms.insert(channel, user);
        channel
    }

    /// Whether posting in `channel` is a DM to someone who closed theirs.
    pub fn dm_refused(&self, channel: u64) -> bool {
        let user = lock(&self.dms).get(&channel).copied();
        user.is_some_and(|u| lock(&self.closed_dms).contains(&u))
    }

    /// A user's JSON: a guild member's, or a bare one.
    pub fn user_json(&self, id: u64) -> Value {
        let members = lock(&self.members);
        members.iter().find(|w| w.id == id).map_or_else(|| Who::player(id, "someone").user(), Who::user)
    }

    pub fn file(&self, name: &str) -> Option<Vec<u8>> {
        lock(&self.files).get(name).cloned()
    }

    /// Sends a dispatch (op 0) to every connected bot; each connection
    /// numbers its own events.
    pub fn dispatch(&self, event: &str, d: Value) {
        let guild = d["guild_id"].as_str().and_then(|g| g.parse().ok());
        let event = Dispatch { guild, event: event.to_string(), d: d.to_string(), interaction: None };
        let _ = self.events.send(Arc::new(event));
    }

    /// The server a channel or thread is in.
    pub fn guild_of(&self, channel: u64) -> u64 {
        let guild = self.channel(channel).and_then(|c| c["guild_id"].as_str().and_then(|g| g.parse().ok()));
        guild.unwrap_or(GUILD)
    }

    /// The servers on shard `id` of `total`, as Discord assigns them.
    pub fn guilds_on(&self, shard: Option<(u64, u64)>) -> Vec<u64> {
        let all = if self.channel(CHANNEL_B).is_some() { vec![GUILD, GUILD_B] } else { vec![GUILD] };
        all.into_iter().filter(|g| shard.is_none_or(|(id, total)| (g >> 22) % total.max(1) == id)).collect()
    }
}

/// Where an ack latency is counted from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Since {
    /// The test or benchmark handed the interaction to the fake.
    Queued,
    /// The fake's gateway wrote its frame to the bot's socket: the moment
    /// Discord has sent it, so what follows is the bot's own time.
    OnWire,
}

/// An interaction ready to dispatch (JSON already serialised). A clone
/// sent again is Discord delivering the same interaction twice.
#[derive(Clone)]
pub struct Prepared {
    id: u64,
    channel: u64,
    payload: String,
    /// Timestamp and signature, made ahead when interactions are POSTed
    /// (Discord signs on its own machines: not the bot's time).
    signed: Option<(String, String)>,
}

impl Prepared {
    /// The interaction as Discord would send it (JSON).
    pub fn json(&self) -> &str {
        &self.payload
    }
}

/// The fake: start it, point a bot at `endpoint()`, drive it, read `calls()`.
pub struct FakeDiscord {
    inner: Arc<Inner>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
        // A test whose bot sent Discord what it would refuse fails here,
        // naming each route and field (unless it is failing already).
        let violations = self.unexpected_violations();
        if !violations.is_empty() && !std::thread::panicking() {
            let list: Vec<String> = violations.iter().map(ToString::to_string).collect();
            panic!("the bot sent what Discord's API refuses:\n{}", list.join("\n"));
        }
    }
}

impl FakeDiscord {
    /// Binds the REST API and the gateway on 127.0.0.1 (random ports).
    pub async fn start() -> anyhow::Result<FakeDiscord> {
        FakeDiscord::start_limited(RateLimits::default()).await
    }

    /// A fake that enforces `limits` like Discord (429 with Retry-After).
    pub async fn start_limited(limits: RateLimits) -> anyhow::Result<FakeDiscord> {
        let rest = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let ws = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let base = format!("http://{}", rest.local_addr()?);
        let gateway = format!("ws://{}", ws.local_addr()?);
        let bot = Who { bot: true, ..Who::player(BOT, "Echoes") };
        let mut channels = HashMap::new();
        channels.insert(CHANNEL, payloads::channel(CHANNEL, GUILD, 0, "games", None, false));
        channels.insert(CHANNEL + 1, payloads::channel(CHANNEL + 1, GUILD, 0, "other", None, false));
        let inner = Arc::new(Inner {
            base,
            gateway,
            bot,
            members: Mutex::default(),
            calls: Mutex::default(),
            call_added: Notify::new(),
            ids: AtomicU64::new(1_000_000),
            events: broadcast::channel(65_536).0,
            ready: watch::channel(0).0,
            shards: AtomicU64::new(1),
            identified: Mutex::default(),
            channels: Mutex::new(channels),
            tokens: Mutex::default(),
            files: Mutex::default(),
            dispatched: Mutex::default(),
            on_wire: Mutex::default(),
            nonces: Mutex::default(),
            interactions: Mutex::default(),
            signer: ed25519_dalek::SigningKey::from_bytes(&SIGNING_SEED),
            poster: reqwest::Client::builder().http2_prior_knowledge().build()?,
            dms: Mutex::default(),
            closed_dms: Mutex::default(),
            limits,
            quotas: Quotas::default(),
            spec: spec::Spec::shared(),
            violations: Mutex::default(),
            violations_allowed: std::sync::atomic::AtomicBool::new(false),
        });
        let tasks =
            vec![tokio::spawn(rest::serve(rest, inner.clone())), tokio::spawn(gateway::serve(ws, inner.clone()))];
        Ok(FakeDiscord { inner, tasks })
    }

    /// How a bot reaches this fake; it keeps rate limits when the fake
    /// enforces them.
    pub fn endpoint(&self) -> Endpoint {
        let base = Some(self.inner.base.clone());
        Endpoint {
            token: TOKEN.into(),
            proxy: base,
            http2: true,
            interactions: None,
            keep_limits: self.inner.limits.is_on(),
        }
    }

    /// The rate limits' tally: 429s sent, limits reached, and calls that
    /// came before an announced wait ended (`bot::quota`).
    pub fn rate_limits(&self) -> Tally {
        self.inner.quotas.tally()
    }

    /// How a bot reaches this fake and serves an Interactions Endpoint it
    /// can verify (on a free loopback port).
    pub fn endpoint_with_interactions(&self) -> Endpoint {
        let interactions = super::InteractionsEndpoint { bind: "127.0.0.1:0".into(), public_key: self.public_key() };
        Endpoint { interactions: Some(interactions), ..self.endpoint() }
    }

    /// The app's public key as the developer portal shows it (hex).
    pub fn public_key(&self) -> String {
        hex::encode(self.inner.signer.verifying_key().to_bytes())
    }

    /// Discord's signature (hex) over `timestamp` + `body`.
    pub fn sign(&self, timestamp: &str, body: &[u8]) -> String {
        sign(&self.inner.signer, timestamp, body)
    }

    /// From now on interactions are POSTed to `url` (a bot's Interactions
    /// Endpoint) instead of sent on the gateway.
    pub fn post_interactions_to(&self, url: &str) {
        *lock(&self.inner.interactions) = Some(url.to_string());
    }

    pub fn base_url(&self) -> &str {
        &self.inner.base
    }

    /// Waits until `n` bots in all have identified and received READY, and
    /// the last one registered its commands.
    pub async fn wait_ready(&self, n: u64, timeout: Duration) -> anyhow::Result<()> {
        let mut rx = self.inner.ready.subscribe();
        tokio::time::timeout(timeout, rx.wait_for(|count| *count >= n))
            .await
            .map_err(|_| anyhow::anyhow!("no bot identified within {timeout:?}"))??;
        let prefix = format!("/applications/{APP}/");
        self.wait_for_count(|c| c.is("PUT", &prefix), n as usize, timeout).await?;
        Ok(())
    }

    /// The user stops accepting DMs from the bot.
    pub fn close_dms(&self, user: u64) {
        lock(&self.inner.closed_dms).insert(user);
    }

    /// Messages the bot sent a user in their DMs (from call index `from`).
    pub fn dms_to(&self, user: u64, from: usize) -> Vec<Call> {
        let channels: Vec<u64> = lock(&self.inner.dms).iter().filter(|(_, u)| **u == user).map(|(c, _)| *c).collect();
        let paths: Vec<String> = channels.iter().map(|c| format!("/channels/{c}/messages")).collect();
        self.calls_since(from).into_iter().filter(|c| c.method == "POST" && paths.contains(&c.path)).collect()
    }

    /// Adds a member to the guild sent in GUILD_CREATE.
    /// The shard count `GET /gateway/bot` recommends (1 unless set).
    pub fn set_shards(&self, total: u64) {
        self.inner.shards.store(total.max(1), Ordering::Relaxed);
    }

    /// Adds the second server, `GUILD_B` (shard 1 of 2) with its games
    /// channel `CHANNEL_B`; bots that identify afterwards see it.
    pub fn add_second_guild(&self) {
        self.inner.set_channel(CHANNEL_B, payloads::channel(CHANNEL_B, GUILD_B, 0, "games", None, false));
    }

    /// The shards bots identified as so far, `(id, total)`, in order.
    pub fn identified(&self) -> Vec<(u64, u64)> {
        lock(&self.inner.identified).clone()
    }

    pub fn add_member(&self, who: &Who) {
        lock(&self.inner.members).push(who.clone());
    }

    /// Every call and interaction response Discord would have refused.
    pub fn violations(&self) -> Vec<Violation> {
        lock(&self.inner.violations).clone()
    }

    /// The test sends bad bodies on purpose: its fake does not fail it.
    pub fn allow_violations(&self) {
        self.inner.violations_allowed.store(true, Ordering::Relaxed);
    }

    fn unexpected_violations(&self) -> Vec<Violation> {
        if self.inner.violations_allowed.load(Ordering::Relaxed) { Vec::new() } else { self.violations() }
    }

    /// Every REST call so far, in order.
    pub fn calls(&self) -> Vec<Call> {
        lock(&self.inner.calls).clone()
    }

    /// Calls from index `from` on.
    pub fn calls_since(&self, from: usize) -> Vec<Call> {
        lock(&self.inner.calls).get(from..).map(<[Call]>::to_vec).unwrap_or_default()
    }

    pub fn call_count(&self) -> usize {
        lock(&self.inner.calls).len()
    }

    /// Waits for the first call (from the start) that matches.
    pub async fn wait_for(&self, matches: impl Fn(&Call) -> bool, timeout: Duration) -> anyhow::Result<Call> {
        let found = self.wait_for_count(&matches, 1, timeout).await?;
        Ok(found.into_iter().next().unwrap_or_else(|| unreachable!("wait_for_count returned too few")))
    }

    /// Waits until `n` calls match; returns them.
    pub async fn wait_for_count(
        &self,
        matches: impl Fn(&Call) -> bool,
        n: usize,
        timeout: Duration,
    ) -> anyhow::Result<Vec<Call>> {
        let deadline = tokio::time::Instant::now() + timeout;
        // Only calls added since the last look are scanned, and only
        // matches are cloned: a benchmark waiting for thousands of calls
        // must not spend the CPU it measures on re-reading the record.
        let mut found = Vec::new();
        let mut scanned = 0;
        loop {
            let notified = self.inner.call_added.notified();
            {
                let calls = lock(&self.inner.calls);
                found.extend(calls[scanned..].iter().filter(|c| matches(c)).cloned());
                scanned = calls.len();
            }
            if found.len() >= n {
                return Ok(found);
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                let seen: Vec<String> = self.calls().iter().map(|c| format!("{} {}", c.method, c.path)).collect();
                anyhow::bail!("{} of {n} expected calls within {timeout:?}; calls: {seen:#?}", found.len());
            }
        }
    }

    fn place(&self, channel: u64) -> anyhow::Result<Value> {
        self.inner.channel(channel).ok_or_else(|| anyhow::anyhow!("the fake knows no channel {channel}"))
    }

    /// A user posts a message; returns its id.
    pub fn say(&self, channel: u64, who: &Who, content: &str) -> anyhow::Result<u64> {
        let id = self.inner.next_id();
        self.inner
            .dispatch("MESSAGE_CREATE", payloads::message(id, channel, self.inner.guild_of(channel), who, content)?);
        Ok(id)
    }

    /// A user runs `/name path… options…`; returns the interaction id.
    pub fn slash(&self, channel: u64, who: &Who, name: &str, path: &[&str], options: &[Opt]) -> anyhow::Result<u64> {
        let prepared = self.prepare_slash(channel, who, name, path, options)?;
        Ok(self.send_prepared(prepared))
    }

    /// A slash command built but not sent yet, so a burst can be built
    /// first and then dispatched at once.
    pub fn prepare_slash(
        &self,
        channel: u64,
        who: &Who,
        name: &str,
        path: &[&str],
        options: &[Opt],
    ) -> anyhow::Result<Prepared> {
        let id = self.inner.next_id();
        let channel_json = self.place(channel)?;
        let place = payloads::Place { guild: self.inner.guild_of(channel), channel: &channel_json };
        let payload = payloads::command(id, APP, &place, who, (name, path), options)?.to_string();
        let signed = lock(&self.inner.interactions).is_some().then(|| self.inner.signed(&payload));
        Ok(Prepared { id, channel, payload, signed })
    }

    /// Dispatches a prepared interaction; returns its id.
    pub fn send_prepared(&self, prepared: Prepared) -> u64 {
        let Prepared { id, channel, payload, signed } = prepared;
        let guild = Some(self.inner.guild_of(channel));
        lock(&self.inner.tokens).insert(payloads::token(id), channel);
        lock(&self.inner.dispatched).insert(id, Instant::now());
        if let Some(url) = lock(&self.inner.interactions).clone() {
            let signed = signed.unwrap_or_else(|| self.inner.signed(&payload));
            tokio::spawn(post_interaction(self.inner.clone(), url, id, payload, signed));
            return id;
        }
        let event = Dispatch { guild, event: "INTERACTION_CREATE".into(), d: payload, interaction: Some(id) };
        let _ = self.inner.events.send(Arc::new(event));
        id
    }

    /// A user presses a button under one of the bot's messages.
    pub fn press(&self, channel: u64, who: &Who, custom_id: &str) -> anyhow::Result<u64> {
        let id = self.inner.next_id();
        let channel_json = self.place(channel)?;
        let guild = self.inner.guild_of(channel);
        let place = payloads::Place { guild, channel: &channel_json };
        let message = payloads::message(self.inner.next_id(), channel, guild, &self.inner.bot, "")?;
        let payload = payloads::button(id, APP, &place, who, custom_id, message)?;
        self.send_interaction(id, channel, payload);
        Ok(id)
    }

    fn send_interaction(&self, id: u64, channel: u64, payload: Value) {
        self.send_prepared(Prepared { id, channel, payload: payload.to_string(), signed: None });
    }

    /// Re-sends an event exactly (Discord redelivering it).
    pub fn redeliver_message(&self, id: u64, channel: u64, who: &Who, content: &str) -> anyhow::Result<()> {
        self.inner
            .dispatch("MESSAGE_CREATE", payloads::message(id, channel, self.inner.guild_of(channel), who, content)?);
        Ok(())
    }

    /// Serves a file the bot can download (an attachment's URL).
    pub fn host_file(&self, name: &str, bytes: Vec<u8>) -> Opt {
        lock(&self.inner.files).insert(name.to_string(), bytes);
        let url = format!("{}/files/{name}", self.inner.base);
        Opt::File("file", name.to_string(), self.inner.next_id(), url)
    }

    /// A thread's parent archives it (THREAD_UPDATE with archived = true).
    pub fn archive_thread(&self, thread: u64) -> anyhow::Result<()> {
        let mut channel = self.place(thread)?;
        channel["thread_metadata"]["archived"] = Value::Bool(true);
        self.inner.set_channel(thread, channel.clone());
        let payload = payloads::typed::<poise::serenity_prelude::GuildChannel>(channel)?;
        self.inner.dispatch("THREAD_UPDATE", payload);
        Ok(())
    }

    /// A thread is deleted (THREAD_DELETE).
    pub fn delete_thread(&self, thread: u64) -> anyhow::Result<()> {
        let channel = self.place(thread)?;
        let d = serde_json::json!({"id": channel["id"], "guild_id": channel["guild_id"],
            "parent_id": channel["parent_id"], "type": channel["type"]});
        self.inner.dispatch("THREAD_DELETE", d);
        Ok(())
    }

    /// Threads the bot created, oldest first.
    pub fn threads(&self) -> Vec<u64> {
        self.calls()
            .iter()
            .filter(|c| c.method == "POST" && c.path.ends_with("/threads"))
            .filter_map(|c| c.created)
            .collect()
    }

    /// How long after `since` each of these interactions was acknowledged
    /// (the interaction callback, or the endpoint's HTTP response), for
    /// those that were.
    pub fn ack_latencies(&self, ids: &[u64], since: Since) -> Vec<Duration> {
        let wanted: std::collections::HashSet<u64> = ids.iter().copied().collect();
        let started = match since {
            Since::Queued => lock(&self.inner.dispatched).clone(),
            Since::OnWire => lock(&self.inner.on_wire).clone(),
        };
        self.calls()
            .iter()
            .filter(|c| c.method == "POST" && c.path.starts_with("/interactions/") && c.path.ends_with("/callback"))
            .filter_map(|c| {
                let id: u64 = c.path.split('/').nth(2)?.parse().ok().filter(|id| wanted.contains(id))?;
                Some(c.at.saturating_duration_since(*started.get(&id)?))
            })
            .collect()
    }
}

fn sign(key: &ed25519_dalek::SigningKey, timestamp: &str, body: &[u8]) -> String {
    use ed25519_dalek::Signer as _;
    let mut signed = Vec::with_capacity(timestamp.len() + body.len());
    signed.extend_from_slice(timestamp.as_bytes());
    signed.extend_from_slice(body);
    hex::encode(key.sign(&signed).to_bytes())
}

/// POSTs one interaction to the bot's endpoint, signed, like Discord. A
/// response carrying the interaction response (200) is recorded as the
/// callback it stands for; 202 means the bot calls back through REST.
async fn post_interaction(inner: Arc<Inner>, url: String, id: u64, payload: String, signed: (String, String)) {
    use super::endpoint::{SIGNATURE_HEADER, TIMESTAMP_HEADER};
    let (timestamp, signature) = signed;
    let request = inner
        .poster
        .post(&url)
        .header(SIGNATURE_HEADER, signature)
        .header(TIMESTAMP_HEADER, timestamp)
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .body(payload);
    lock(&inner.on_wire).insert(id, Instant::now());
    let response = match request.send().await {
        Ok(response) => response,
        Err(e) => {
            tracing::warn!(interaction = id, error = %e, "fake Discord could not POST an interaction");
            return;
        }
    };
    let at = Instant::now();
    let status = response.status();
    let body = response.bytes().await.unwrap_or_default();
    match status.as_u16() {
        200 => {
            let body = serde_json::from_slice(&body).unwrap_or(Value::Null);
            let path = format!("/interactions/{id}/{}/callback", payloads::token(id));
            inner.conform("POST", &path, &body);
            let call = Call { at, method: "POST".into(), path, body, files: Vec::new(), created: None, inline: true };
            inner.record(call);
        }
        202 => {}
        _ => {
            tracing::warn!(interaction = id, %status, body = %String::from_utf8_lossy(&body), "the bot refused an interaction")
        }
    }
}
