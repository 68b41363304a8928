//! The Discord front end through the real serenity/poise client against a
//! local fake of Discord (REST + gateway): whole games, moderators, safety
//! (mentions, bots, rate limits, errors), Discord's own rate limits
//! (`ratelimits.rs`) and restarts.

pub mod arena;
mod bench;
mod conformance;
mod endpoint;
mod game;
mod lore;
mod moderators;
mod ratelimits;
mod restart;
mod safety;
mod shards;
mod tables;
pub mod undercover;
pub mod werewolf;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use echoes::discord::bench::{InstantModel, offline_data};
use echoes::discord::fake::{APP, Call, FakeDiscord, Opt, RateLimits, Who};
use echoes::discord::{DiscordSettings, RunningBot};
use serde_json::Value;

pub use echoes::discord::fake::CHANNEL;

pub const WAIT: Duration = Duration::from_secs(20);
pub const PUZZLE: &str = "en-noon-gun";

/// A fake Discord, a bot connected to it, and the bot's database.
pub struct Rig {
    pub fake: FakeDiscord,
    bot: Option<RunningBot>,
    _dir: tempfile::TempDir,
    pub db: PathBuf,
    model: InstantModel,
    settings: DiscordSettings,
    starts: u64,
    /// Interactions are POSTed to the bot's Interactions Endpoint.
    endpoint: bool,
    /// Hosts the test game (`ballot`) on this clock.
    tables: Option<Arc<crate::engine::ManualClock>>,
}

/// The fake Judge's rules for the noon-gun puzzle.
pub fn rules() -> InstantModel {
    InstantModel::new(&[
        ("alone", InstantModel::question("NO")),
        ("watch", InstantModel::question("YES")),
        ("PARTIAL", InstantModel::guess(&["f1"])),
        ("FULL", InstantModel::guess(&["f1", "f2", "f3"])),
    ])
}

impl Rig {
    pub async fn start() -> Rig {
        Rig::with(rules(), DiscordSettings::default()).await
    }

    pub async fn with(model: InstantModel, settings: DiscordSettings) -> Rig {
        Rig::on(FakeDiscord::start().await.unwrap(), model, settings).await
    }

    /// A rig whose fake enforces `limits` (and whose bot keeps them).
    pub async fn limited(limits: RateLimits) -> Rig {
        Rig::on(FakeDiscord::start_limited(limits).await.unwrap(), rules(), DiscordSettings::default()).await
    }

    async fn on(fake: FakeDiscord, model: InstantModel, settings: DiscordSettings) -> Rig {
        // `RUST_LOG=echoes=debug,serenity=debug cargo test discord` shows the bot's side.
        let _ = tracing_subscriber::fmt()
            .with_test_writer()
            .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
            .try_init();
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("echoes.db");
        let mut rig = Rig { fake, bot: None, _dir: dir, db, model, settings, starts: 0, endpoint: false, tables: None };
        rig.connect().await;
        rig
    }

    /// A rig whose bot serves the Interactions Endpoint, with the fake
    /// POSTing interactions there.
    pub async fn via_endpoint() -> Rig {
        let mut rig = Rig::with(rules(), DiscordSettings::default()).await;
        rig.endpoint = true;
        rig.restart().await;
        rig
    }

    /// The bot's Interactions Endpoint URL (endpoint rigs only).
    pub fn interactions_url(&self) -> String {
        self.bot.as_ref().and_then(|b| b.interactions_url.clone()).expect("the bot serves an endpoint")
    }

    async fn connect(&mut self) {
        let model = Arc::new(self.model.clone());
        let data = match &self.tables {
            Some(clock) => tables::data_with_ballot(&self.db, model, self.settings.clone(), clock.clone()).await,
            None => offline_data(&self.db, model, self.settings.clone()).await.unwrap(),
        };
        let endpoint = if self.endpoint { self.fake.endpoint_with_interactions() } else { self.fake.endpoint() };
        let bot = echoes::discord::spawn(data, &endpoint).await.unwrap();
        if let Some(url) = &bot.interactions_url {
            self.fake.post_interactions_to(url);
        }
        self.bot = Some(bot);
        self.starts += 1;
        self.fake.wait_ready(self.starts, WAIT).await.unwrap();
    }

    /// Stops the bot and starts a new one on the same database.
    pub async fn restart(&mut self) {
        if let Some(bot) = self.bot.take() {
            bot.stop().await;
        }
        self.connect().await;
    }

    /// `/soup start` in the games channel; returns the new thread.
    pub async fn start_game(&self, who: &Who) -> u64 {
        let before = self.fake.threads().len();
        let id = self.fake.slash(CHANNEL, who, "soup", &["start"], &[Opt::Text("puzzle", PUZZLE.into())]).unwrap();
        let reply = self.reply_to(id).await;
        assert!(reply.text().contains("is on: join the game"), "{}", reply.text());
        let threads = self.fake.threads();
        assert_eq!(threads.len(), before + 1);
        threads[before]
    }

    /// The (first) answer to an interaction: an immediate message or a follow-up.
    pub async fn reply_to(&self, interaction: u64) -> Call {
        self.replies_to(interaction, 1).await.remove(0)
    }

    pub async fn replies_to(&self, interaction: u64, n: usize) -> Vec<Call> {
        let followup = format!("/webhooks/{APP}/tok{interaction}");
        let callback = format!("/interactions/{interaction}/");
        let answers = move |c: &Call| {
            (c.method == "POST" && c.path == followup) || (c.is("POST", &callback) && c.body["type"] == 4)
        };
        self.fake.wait_for_count(answers, n, WAIT).await.unwrap()
    }

    /// Messages the bot posted in a channel (from call index `from`).
    pub fn posts_in(&self, channel: u64, from: usize) -> Vec<Call> {
        let path = format!("/channels/{channel}/messages");
        self.fake.calls_since(from).into_iter().filter(|c| c.method == "POST" && c.path == path).collect()
    }

    /// Waits until the bot has posted `n` messages in a channel after call `from`.
    pub async fn wait_posts(&self, channel: u64, from: usize, n: usize) -> Vec<Call> {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let posts = self.posts_in(channel, from);
            if posts.len() >= n {
                return posts;
            }
            let calls: Vec<String> =
                self.fake.calls_since(from).iter().map(|c| format!("{} {}", c.method, c.path)).collect();
            assert!(
                tokio::time::Instant::now() < deadline,
                "{} of {n} posts in {channel}; calls: {calls:#?}",
                posts.len()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    pub fn database(&self) -> &std::path::Path {
        &self.db
    }
}

/// Ephemeral (flag 64) in a callback or follow-up body.
pub fn is_private(call: &Call) -> bool {
    let flags = call.body.get("flags").or_else(|| call.body.get("data").and_then(|d| d.get("flags")));
    flags.and_then(Value::as_u64).is_some_and(|f| f & 64 != 0)
}

/// An embed colour in a message body.
pub fn colour(call: &Call) -> Option<u64> {
    call.body["embeds"].get(0).and_then(|e| e["color"].as_u64())
}
