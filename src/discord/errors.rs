//! The one place Discord errors become user text: one friendly line
//! (private where Discord allows it) in the server's language, with the
//! cause chain in the log and never in chat.

use poise::FrameworkError;
use poise::serenity_prelude as serenity;

use super::send::{no_pings, private};
use super::types::{Data, Error};
use super::words::{Word, say};
use crate::core::game::error::database_away;

pub fn on_error(error: FrameworkError<'_, Data, Error>) -> poise::BoxFuture<'_, ()> {
    Box::pin(handle(error))
}

/// What a user hears for each kind of failure.
fn word_for(error: &FrameworkError<'_, Data, Error>) -> Word<'static> {
    match error {
        FrameworkError::CommandCheckFailed { .. }
        | FrameworkError::MissingUserPermissions { .. }
        | FrameworkError::NotAnOwner { .. } => Word::NotModerator,
        FrameworkError::ArgumentParse { .. } | FrameworkError::CommandStructureMismatch { .. } => Word::BadOption,
        FrameworkError::GuildOnly { .. } => Word::GuildOnly,
        FrameworkError::Command { error, .. } | FrameworkError::EventHandler { error, .. }
            if database_away(error.as_ref()) =>
        {
            Word::DatabaseAway
        }
        _ => Word::Oops,
    }
}

async fn handle(error: FrameworkError<'_, Data, Error>) {
    log(&error);
    let word = word_for(&error);
    if let FrameworkError::EventHandler { event, framework, .. } = &error {
        tell_event_author(framework.serenity_context, framework.user_data, event, &word).await;
        return;
    }
    let Some(ctx) = error.ctx() else { return };
    let lang = ctx.data().guild_language(ctx.guild_id()).await;
    if let Err(e) = ctx.send(private(&say(lang, &word))).await {
        tracing::warn!(error = %e, "could not tell the user about an error");
    }
}

fn log(error: &FrameworkError<'_, Data, Error>) {
    let command = error.ctx().map(|c| c.command().qualified_name.clone()).unwrap_or_default();
    match error {
        FrameworkError::Command { error, .. } => {
            tracing::error!(%command, error = %format!("{error:#}"), "command failed")
        }
        FrameworkError::EventHandler { error, event, .. } => {
            tracing::error!(event = event.snake_case_name(), error = %format!("{error:#}"), "event handler failed")
        }
        FrameworkError::Setup { error, .. } => tracing::error!(error = %format!("{error:#}"), "bot setup failed"),
        FrameworkError::CommandCheckFailed { error: Some(error), .. } => {
            tracing::error!(%command, error = %format!("{error:#}"), "moderator check failed")
        }
        FrameworkError::CommandCheckFailed { error: None, ctx, .. } => {
            tracing::info!(%command, user = %ctx.author().id, "refused: not a moderator")
        }
        FrameworkError::ArgumentParse { error, input, .. } => {
            tracing::info!(%command, ?input, error = %error, "could not parse an option")
        }
        other => tracing::warn!(%command, error = %other, "framework error"),
    }
}

/// A failed turn from a message or button still gets one friendly line.
async fn tell_event_author(ctx: &serenity::Context, data: &Data, event: &serenity::FullEvent, word: &Word<'_>) {
    let sent = match event {
        serenity::FullEvent::Message { new_message: msg } => {
            let lang = data.guild_language(msg.guild_id).await;
            let m = serenity::CreateMessage::new()
                .content(say(lang, word))
                .reference_message(msg)
                .allowed_mentions(no_pings());
            msg.channel_id.send_message(&ctx.http, m).await.map(drop)
        }
        serenity::FullEvent::InteractionCreate { interaction: serenity::Interaction::Component(press) } => {
            let lang = data.guild_language(press.guild_id).await;
            let f = serenity::CreateInteractionResponseFollowup::new()
                .content(say(lang, word))
                .ephemeral(true)
                .allowed_mentions(no_pings());
            press.create_followup(&ctx.http, f).await.map(drop)
        }
        _ => Ok(()),
    };
    if let Err(e) = sent {
        tracing::warn!(error = %e, "could not tell the user about an error");
    }
}
