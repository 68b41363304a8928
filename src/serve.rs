//! `echoes serve`: runs the bot front ends over the shared `App`. Tokens
//! come from the environment only (never from config files): Discord's
//! `DISCORD_TOKEN`; Slack's `SLACK_BOT_TOKEN` plus `SLACK_APP_TOKEN`
//! (Socket Mode) or `SLACK_SIGNING_SECRET` (Events API). A missing one is
//! one clear line before anything connects.

use std::sync::Arc;

use anyhow::Context;

use crate::app::App;
use crate::bot::{BotParts, Defaults, ModelFactory};
use crate::core::guild::GuildStore;
use crate::discord::{self, Data, DiscordSettings, Endpoint};
use crate::slack::Mode;

/// The environment variable holding the bot token.
pub const DISCORD_TOKEN_VAR: &str = "DISCORD_TOKEN";

/// The bot token from the environment, or the one-line reason it is missing.
pub fn discord_token() -> anyhow::Result<String> {
    token_from(std::env::var(DISCORD_TOKEN_VAR).ok())
}

/// A setting's value, trimmed; `None` when unset or blank.
fn present(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_string()).filter(|v| !v.is_empty())
}

fn token_from(value: Option<String>) -> anyhow::Result<String> {
    match present(value) {
        Some(token) => Ok(token),
        _ => anyhow::bail!(
            "{DISCORD_TOKEN_VAR} is not set: export the bot token from the Discord developer portal \
             (Bot → Reset Token) as {DISCORD_TOKEN_VAR} and run `echoes serve --discord` again"
        ),
    }
}

/// The app's public key: set, the bot serves Discord's Interactions
/// Endpoint URL (interactions arrive as signed POSTs).
pub const DISCORD_PUBLIC_KEY_VAR: &str = "DISCORD_PUBLIC_KEY";
/// Where that endpoint listens (default `DEFAULT_INTERACTIONS_BIND`).
pub const DISCORD_INTERACTIONS_BIND_VAR: &str = "DISCORD_INTERACTIONS_BIND";
pub const DEFAULT_INTERACTIONS_BIND: &str = "0.0.0.0:8080";

/// The Interactions Endpoint from the environment: none without a public
/// key, one clear line when the key is malformed.
fn interactions_endpoint(
    get: impl Fn(&str) -> Option<String>,
) -> anyhow::Result<Option<discord::InteractionsEndpoint>> {
    let read = |name: &str| present(get(name));
    let Some(public_key) = read(DISCORD_PUBLIC_KEY_VAR) else { return Ok(None) };
    discord::endpoint::public_key(&public_key).with_context(|| format!("{DISCORD_PUBLIC_KEY_VAR} is not usable"))?;
    let bind = read(DISCORD_INTERACTIONS_BIND_VAR).unwrap_or_else(|| DEFAULT_INTERACTIONS_BIND.to_string());
    Ok(Some(discord::InteractionsEndpoint { bind, public_key }))
}

/// Completes on Ctrl-C, or on SIGTERM (`docker stop`, systemd, Kubernetes).
async fn stopped() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
                return;
            }
            Err(e) => tracing::warn!(error = %e, "cannot listen for SIGTERM; Ctrl-C stops the bot"),
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// Runs the Discord bot until Ctrl-C or SIGTERM (or a fatal gateway error).
pub async fn serve_discord(app: &App, settings: DiscordSettings) -> anyhow::Result<()> {
    let token = discord_token()?;
    let interactions = interactions_endpoint(|name| std::env::var(name).ok())?;
    let data = discord_data(app, settings).await?;
    let endpoint = Endpoint { token, proxy: None, http2: false, interactions, keep_limits: true };
    let stop = async {
        stopped().await;
        tracing::info!("stopping the Discord bot");
    };
    discord::run(data, &endpoint, stop).await?;
    app.engine.settle().await;
    Ok(())
}

/// The bot's shared state from the app. Server settings and bindings live
/// in the same database as the games.
pub async fn discord_data(app: &App, settings: DiscordSettings) -> anyhow::Result<Data> {
    Ok(Data::from_bot(bot_parts(app).await?, settings))
}

/// The platform-neutral parts of a bot from the app: the engine, scopes
/// and bindings in the games' database, and engines per configured model.
pub async fn bot_parts(app: &App) -> anyhow::Result<BotParts> {
    let database = app.settings.storage.database();
    let guilds: Arc<dyn GuildStore> = Arc::new(crate::bot::runtime::open_store(&database).await?);
    let llm = app.settings.llm.clone();
    let models: ModelFactory = Arc::new(move |model: &str| {
        let mut llm = llm.clone();
        llm.model = model.to_string();
        Ok(crate::llm::build_roles(&llm)?.metered())
    });
    Ok(BotParts {
        engine: app.engine.clone(),
        guilds,
        library: app.library.clone(),
        catalogue: app.catalogue.clone(),
        defaults: Defaults {
            language: app.settings.language(),
            hint_limit: app.settings.game.hint_limit,
            start: app.settings.start_defaults(),
        },
        models: Some(models),
        hosted: crate::assets::hosted_games(),
    })
}

pub const SLACK_BOT_TOKEN_VAR: &str = "SLACK_BOT_TOKEN";
pub const SLACK_APP_TOKEN_VAR: &str = "SLACK_APP_TOKEN";
pub const SLACK_SIGNING_SECRET_VAR: &str = "SLACK_SIGNING_SECRET";

/// Slack's secrets for one connection mode.
#[derive(Debug, Clone)]
pub struct SlackTokens {
    pub mode: Mode,
    pub bot: String,
    /// The app-level token (Socket Mode) or the signing secret (Events API).
    pub second: String,
}

/// Slack's tokens from the environment, or one line naming what is missing.
pub fn slack_tokens(mode: Mode) -> anyhow::Result<SlackTokens> {
    slack_tokens_from(mode, |name| std::env::var(name).ok())
}

fn slack_tokens_from(mode: Mode, get: impl Fn(&str) -> Option<String>) -> anyhow::Result<SlackTokens> {
    let second_var = match mode {
        Mode::Socket => SLACK_APP_TOKEN_VAR,
        Mode::Events => SLACK_SIGNING_SECRET_VAR,
    };
    let read = |name: &str| present(get(name));
    let (bot, second) = (read(SLACK_BOT_TOKEN_VAR), read(second_var));
    let missing: Vec<&str> = [(SLACK_BOT_TOKEN_VAR, bot.is_none()), (second_var, second.is_none())]
        .into_iter()
        .filter(|m| m.1)
        .map(|m| m.0)
        .collect();
    match (bot, second) {
        (Some(bot), Some(second)) => Ok(SlackTokens { mode, bot, second }),
        _ => anyhow::bail!(
            "{} not set: export the bot token (xoxb-…, OAuth & Permissions) and {} from your Slack app's settings, \
             then run `echoes serve --slack` again",
            missing.join(" and "),
            match mode {
                Mode::Socket =>
                    "the app-level token (xapp-…, Basic Information → App-Level Tokens, scope connections:write)",
                Mode::Events => "the signing secret (Basic Information → App Credentials)",
            }
        ),
    }
}

/// Runs the Slack bot until Ctrl-C or SIGTERM.
pub async fn serve_slack(app: &App, tokens: SlackTokens) -> anyhow::Result<()> {
    let settings = app.settings.slack.clone();
    let endpoint = crate::slack::Endpoint { bot_token: tokens.bot, api_url: None };
    let bot = crate::slack::SlackBot::connect(bot_parts(app).await?, settings.clone(), &endpoint).await?;
    match tokens.mode {
        Mode::Socket => {
            let socket = crate::slack::socket::start(bot, &tokens.second, crate::slack::socket::config(2)).await?;
            stopped().await;
            socket.stop().await;
        }
        Mode::Events => {
            let listener = tokio::net::TcpListener::bind(&settings.bind)
                .await
                .with_context(|| format!("listening on {}", settings.bind))?;
            tracing::info!(bind = %settings.bind, "Slack Events API endpoint: POST /slack/events, /slack/commands, /slack/interactions");
            let app_router = crate::slack::events_router(bot, &tokens.second);
            axum::serve(crate::bot::net::no_delay(listener), app_router)
                .with_graceful_shutdown(stopped())
                .await
                .context("the Slack Events API endpoint failed")?;
        }
    }
    tracing::info!("stopping the Slack bot");
    app.engine.settle().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interactions_endpoint_needs_a_well_formed_public_key() {
        let none = interactions_endpoint(|_| None).unwrap();
        assert!(none.is_none(), "no key, no endpoint");
        let key = hex::encode(ed25519_dalek::SigningKey::from_bytes(&[7; 32]).verifying_key().to_bytes());
        let env = |k: String| move |name: &str| (name == DISCORD_PUBLIC_KEY_VAR).then(|| k.clone());
        let on = interactions_endpoint(env(key.clone())).unwrap().expect("a key turns it on");
        assert_eq!((on.bind.as_str(), on.public_key.as_str()), (DEFAULT_INTERACTIONS_BIND, key.as_str()));
        let err = interactions_endpoint(env("not-hex".into())).unwrap_err();
        assert!(format!("{err:#}").contains("64 hex digits"), "{err:#}");
    }

    #[test]
    fn a_missing_token_is_one_clear_line() {
        for missing in [None, Some(String::new()), Some("  ".into())] {
            let err = token_from(missing).unwrap_err().to_string();
            assert!(err.starts_with("DISCORD_TOKEN is not set"), "{err}");
            assert!(!err.contains('\n'), "{err}");
        }
        assert_eq!(token_from(Some(" abc ".into())).unwrap(), "abc");
    }

    #[test]
    fn missing_slack_tokens_are_named_in_one_line() {
        let none = |_: &str| None;
        let err = slack_tokens_from(Mode::Socket, none).unwrap_err().to_string();
        assert!(err.starts_with("SLACK_BOT_TOKEN and SLACK_APP_TOKEN not set"), "{err}");
        assert!(!err.contains('\n'), "{err}");
        let bot_only = |n: &str| (n == SLACK_BOT_TOKEN_VAR).then(|| "xoxb-1".to_string());
        let err = slack_tokens_from(Mode::Events, bot_only).unwrap_err().to_string();
        assert!(err.starts_with("SLACK_SIGNING_SECRET not set"), "{err}");
        let all = |_: &str| Some(" t ".to_string());
        let tokens = slack_tokens_from(Mode::Socket, all).unwrap();
        assert_eq!((tokens.bot.as_str(), tokens.second.as_str()), ("t", "t"));
    }
}
