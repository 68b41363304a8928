//! `echoes serve`: runs the bot front ends over the shared `App`. Discord
//! is the first: the token comes from the `DISCORD_TOKEN` environment
//! variable only (never from config files), and its absence is one clear
//! line before anything connects.

use std::sync::Arc;

use anyhow::Context;

use crate::app::App;
use crate::core::guild::GuildStore;
use crate::discord::{self, Data, Defaults, DiscordSettings, Endpoint, ModelFactory, Parts};
use crate::store::SqliteStore;

/// The environment variable holding the bot token.
pub const DISCORD_TOKEN_VAR: &str = "DISCORD_TOKEN";

/// The bot token from the environment, or the one-line reason it is missing.
pub fn discord_token() -> anyhow::Result<String> {
    token_from(std::env::var(DISCORD_TOKEN_VAR).ok())
}

fn token_from(value: Option<String>) -> anyhow::Result<String> {
    match value.map(|t| t.trim().to_string()) {
        Some(token) if !token.is_empty() => Ok(token),
        _ => anyhow::bail!(
            "{DISCORD_TOKEN_VAR} is not set: export the bot token from the Discord developer portal \
             (Bot → Reset Token) as {DISCORD_TOKEN_VAR} and run `echoes serve --discord` again"
        ),
    }
}

/// Runs the Discord bot until Ctrl-C (or a fatal gateway error).
pub async fn serve_discord(app: &App, settings: DiscordSettings) -> anyhow::Result<()> {
    let token = discord_token()?;
    let data = discord_data(app, settings).await?;
    let endpoint = Endpoint { token, proxy: None };
    let stop = async {
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("stopping the Discord bot");
    };
    discord::run(data, &endpoint, stop).await?;
    app.engine.settle().await;
    Ok(())
}

/// The bot's shared state from the app. Server settings and bindings live
/// in the same database as the games.
pub async fn discord_data(app: &App, settings: DiscordSettings) -> anyhow::Result<Data> {
    let database = &app.settings.storage.database;
    let guilds: Arc<dyn GuildStore> = Arc::new(
        SqliteStore::open(database).await.with_context(|| format!("opening the database {}", database.display()))?,
    );
    let llm = app.settings.llm.clone();
    let models: ModelFactory = Arc::new(move |model: &str| {
        let mut llm = llm.clone();
        llm.model = model.to_string();
        Ok(crate::llm::build_roles(&llm)?)
    });
    Ok(Data::new(Parts {
        engine: app.engine.clone(),
        guilds,
        library: app.library.clone(),
        catalogue: app.catalogue.clone(),
        settings,
        defaults: Defaults { language: app.settings.language(), hint_limit: app.settings.game.hint_limit },
        models: Some(models),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_token_is_one_clear_line() {
        for missing in [None, Some(String::new()), Some("  ".into())] {
            let err = token_from(missing).unwrap_err().to_string();
            assert!(err.starts_with("DISCORD_TOKEN is not set"), "{err}");
            assert!(!err.contains('\n'), "{err}");
        }
        assert_eq!(token_from(Some(" abc ".into())).unwrap(), "abc");
    }
}
