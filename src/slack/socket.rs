//! Socket Mode: slack-morphism's listener opens the WebSocket(s) with the
//! app-level token (`apps.connections.open`), reconnects after a
//! `disconnect` envelope or a dropped connection, and acknowledges each
//! envelope when our callback returns. The callbacks only normalise and
//! `accept` (which spawns the turn), so the ack never waits for a model.

use std::sync::Arc;

use slack_morphism::prelude::*;

use super::SlackBot;
use super::ingress::{from_command, from_interaction, from_push};

type Client = Arc<SlackHyperClient>;

/// A running Socket Mode connection set.
pub struct SocketBot {
    listener: SlackClientSocketModeListener<SlackClientHyperHttpsConnector>,
}

impl SocketBot {
    pub async fn stop(&self) {
        self.listener.shutdown().await;
    }
}

/// Connection settings: `connections` WebSockets (Slack advises two),
/// opened without the staggered start when `connections` is 1.
pub fn config(connections: u32) -> SlackClientSocketModeConfig {
    SlackClientSocketModeConfig::new().with_max_connections_count(connections.max(1))
}

/// Opens the connections and starts listening in the background.
pub async fn start(
    bot: Arc<SlackBot>,
    app_token: &str,
    config: SlackClientSocketModeConfig,
) -> anyhow::Result<SocketBot> {
    let callbacks = SlackSocketModeListenerCallbacks::new()
        .with_command_events(on_command)
        .with_interaction_events(on_interaction)
        .with_push_events(on_push);
    let environment = Arc::new(
        SlackClientEventsListenerEnvironment::new(bot.client.clone())
            .with_error_handler(on_error)
            .with_user_state(bot.clone()),
    );
    let listener = SlackClientSocketModeListener::new(&config, environment, callbacks);
    let token = SlackApiToken::new(app_token.to_string().into());
    listener.listen_for(&token).await.map_err(|e| anyhow::anyhow!("Slack Socket Mode failed: {e}"))?;
    listener.start().await;
    Ok(SocketBot { listener })
}

async fn bot_of(state: &SlackClientEventsUserState) -> Option<Arc<SlackBot>> {
    state.read().await.get_user_state::<Arc<SlackBot>>().cloned()
}

async fn on_command(
    event: SlackCommandEvent,
    _client: Client,
    state: SlackClientEventsUserState,
) -> UserCallbackResult<SlackCommandEventResponse> {
    let started = std::time::Instant::now();
    if let Some(bot) = bot_of(&state).await {
        bot.accept(from_command(&event));
    }
    acked(started);
    Ok(SlackCommandEventResponse::new(SlackMessageContent::new()))
}

async fn on_interaction(
    event: SlackInteractionEvent,
    _client: Client,
    state: SlackClientEventsUserState,
) -> UserCallbackResult<()> {
    let started = std::time::Instant::now();
    if let (Some(bot), Some(incoming)) = (bot_of(&state).await, from_interaction(&event)) {
        bot.accept(incoming);
    }
    acked(started);
    Ok(())
}

async fn on_push(
    event: SlackPushEventCallback,
    _client: Client,
    state: SlackClientEventsUserState,
) -> UserCallbackResult<()> {
    let started = std::time::Instant::now();
    if let Some(bot) = bot_of(&state).await
        && let Some(incoming) = from_push(&event, bot.me.get().map(String::as_str))
    {
        bot.accept(incoming);
    }
    acked(started);
    Ok(())
}

/// Counts an envelope acknowledged (the listener acks when the callback
/// returns) and the time the callback took.
fn acked(started: std::time::Instant) {
    crate::core::telemetry::telemetry().ack("slack", started.elapsed());
}

fn on_error(
    err: Box<dyn std::error::Error + Send + Sync>,
    _client: Client,
    _state: SlackClientEventsUserState,
) -> axum::http::StatusCode {
    tracing::warn!(error = %err, "Slack Socket Mode error");
    axum::http::StatusCode::OK
}
