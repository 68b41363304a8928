//! The Slack front end through slack-morphism against a local fake of
//! Slack (Web API + Socket Mode), and the Events API endpoint with signed
//! and forged requests: whole games in both modes, retries, signatures,
//! reconnection, bots, mentions, admins and Slack's rate limits
//! (`ratelimits.rs`).

mod arena;
mod game;
mod lore;
mod processes;
mod ratelimits;
mod safety;
mod tables;
mod undercover;
mod werewolf;

use std::sync::Arc;
use std::time::Duration;

use echoes::core::llm::LlmClient;
use echoes::slack::SlackSettings;
use echoes::slack::bench::Rig;
use echoes::slack::fake::{Call, FakeSlack, payloads};

pub use echoes::slack::fake::CHANNEL;

pub const WAIT: Duration = Duration::from_secs(20);
pub const PUZZLE: &str = "en-noon-gun";

pub struct Game {
    pub rig: Rig,
    pub thread: String,
    _dir: tempfile::TempDir,
}

pub async fn rig(model: Arc<dyn LlmClient>, settings: SlackSettings, socket: bool) -> (Rig, tempfile::TempDir) {
    rig_on(FakeSlack::start().await.unwrap(), model, settings, socket).await
}

/// A bot on a fake of the test's own (rate limits, say).
pub async fn rig_on(
    fake: FakeSlack,
    model: Arc<dyn LlmClient>,
    settings: SlackSettings,
    socket: bool,
) -> (Rig, tempfile::TempDir) {
    let _ = tracing_subscriber::fmt()
        .with_test_writer()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .try_init();
    let dir = tempfile::tempdir().unwrap();
    let rig = Rig::start_with(fake, &dir.path().join("echoes.db"), model, settings, socket).await.unwrap();
    (rig, dir)
}

/// A bot in `socket` mode (else the Events API) with a game started.
pub async fn game(socket: bool) -> Game {
    game_with(Arc::new(super::discord::rules()), SlackSettings::default(), socket).await
}

pub async fn game_with(model: Arc<dyn LlmClient>, settings: SlackSettings, socket: bool) -> Game {
    game_on(FakeSlack::start().await.unwrap(), model, settings, socket).await
}

pub async fn game_on(fake: FakeSlack, model: Arc<dyn LlmClient>, settings: SlackSettings, socket: bool) -> Game {
    let (rig, dir) = rig_on(fake, model, settings, socket).await;
    let thread = rig.start_game(CHANNEL, "UHOST", PUZZLE, "trig-start").await.unwrap();
    Game { rig, thread, _dir: dir }
}

/// Replies shown: "thinking…" messages updated with their answer.
pub fn answered(c: &Call) -> bool {
    c.method == "chat.update" && c.body.get("blocks").is_none() && !c.text().contains("thinking")
}

impl Game {
    /// A thread reply by `user`, as Slack delivers it.
    pub async fn say(&self, event_id: &str, user: &str, text: &str) {
        let ts = format!("1700000500.{:06}", self.rig.fake.calls().len());
        let event = payloads::message_event(CHANNEL, event_id, user, text, Some(&self.thread), &ts);
        self.rig.deliver("events_api", event_id, event).await.unwrap();
    }

    pub async fn command(&self, trigger: &str, user: &str, text: &str) {
        self.rig.deliver("slash_commands", trigger, payloads::command(CHANNEL, user, text, trigger)).await.unwrap();
    }

    pub async fn press(&self, trigger: &str, user: &str, action: &str) {
        let press = payloads::button(CHANNEL, user, action, &self.thread, trigger);
        self.rig.deliver("interactive", trigger, press).await.unwrap();
    }

    /// Waits for `n` answers in total and returns the last one's text.
    pub async fn answers(&self, n: usize) -> Vec<String> {
        let calls = self.rig.fake.wait_for_count("answers", n, WAIT, answered).await.unwrap();
        calls.iter().filter(|c| answered(c)).map(Call::text).collect()
    }

    /// Waits for an ephemeral message to `user` containing `needle`.
    pub async fn told(&self, user: &str, needle: &str) -> String {
        let told = |c: &Call| c.method == "chat.postEphemeral" && c.body["user"] == user && c.text().contains(needle);
        let calls = self.rig.fake.wait_for_count(needle, 1, WAIT, told).await.unwrap();
        calls.iter().find(|c| told(c)).map(Call::text).unwrap_or_default()
    }

    /// Every text the bot posted or updated in the channel.
    pub fn shown(&self) -> Vec<String> {
        let calls = self.rig.fake.calls();
        calls.iter().filter(|c| c.method.starts_with("chat.")).map(|c| c.body.to_string()).collect()
    }

    pub fn thinking_posts(&self) -> usize {
        let calls = self.rig.fake.calls_to("chat.postMessage");
        calls.iter().filter(|c| c.thread_ts() == Some(self.thread.as_str()) && c.text().contains("thinking")).count()
    }
}
