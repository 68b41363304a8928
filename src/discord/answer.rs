//! Answering a command, for every command module: a private refusal in
//! the server's language (through the interaction's first response when
//! none was sent yet), fixed text as colour-coded embeds, an
//! interaction's first response, and what a handler asks of where it ran
//! and who ran it (the command's group, a thread, a moderator).

use std::sync::atomic::Ordering;

use poise::serenity_prelude as serenity;

use crate::core::game::{Reply, ReplyKind};
use crate::core::vocab::Language;

use super::games::scope_of;
use super::send::{followups, private};
use super::types::{Context, Error};
use super::words::{Word, say};

/// Refuses privately, in the server's language.
pub(super) async fn refuse(ctx: Context<'_>, lang: Language, word: Word<'_>) -> Result<(), Error> {
    refuse_text(ctx, &say(lang, &word)).await
}

pub(super) async fn refuse_text(ctx: Context<'_>, text: &str) -> Result<(), Error> {
    let first = match ctx {
        poise::Context::Application(app) => !app.has_sent_initial_response.load(Ordering::SeqCst),
        poise::Context::Prefix(_) => false,
    };
    if first {
        let message = private(text).to_slash_initial_response(serenity::CreateInteractionResponseMessage::new());
        return first_response(ctx, serenity::CreateInteractionResponse::Message(message)).await;
    }
    ctx.send(private(text)).await?;
    Ok(())
}

pub(super) async fn first_response(
    ctx: Context<'_>,
    response: serenity::CreateInteractionResponse,
) -> Result<(), Error> {
    let poise::Context::Application(app) = ctx else {
        return Ok(ctx.defer().await?);
    };
    if app.has_sent_initial_response.load(Ordering::SeqCst) {
        return Ok(());
    }
    let (id, token) = (app.interaction.id, &app.interaction.token);
    ctx.data().first_response(&ctx.serenity_context().http, id, token, response).await?;
    app.has_sent_initial_response.store(true, Ordering::SeqCst);
    Ok(())
}

/// Sends fixed text as colour-coded embeds (or a file when long).
pub(super) async fn send_text(
    ctx: Context<'_>,
    kind: ReplyKind,
    text: String,
    lang: Language,
    private: bool,
) -> Result<(), Error> {
    let reply = Reply { kind, text, verdict: None };
    for piece in followups(&reply, lang, ctx.data().settings.max_reply_messages) {
        ctx.send(piece.ephemeral(private)).await?;
    }
    Ok(())
}

/// Whether the caller moderates here: Manage Threads, Administrator, or
/// the server's moderator role.
pub async fn is_moderator(ctx: Context<'_>) -> Result<bool, Error> {
    let poise::Context::Application(actx) = ctx else { return Ok(false) };
    let (Some(member), Some(guild)) = (actx.interaction.member.as_deref(), ctx.guild_id()) else { return Ok(false) };
    let perms = member.permissions.unwrap_or(serenity::Permissions::empty());
    if perms.contains(serenity::Permissions::MANAGE_THREADS) || perms.contains(serenity::Permissions::ADMINISTRATOR) {
        return Ok(true);
    }
    let config = ctx.data().guilds.guild_config(&scope_of(guild)).await?;
    let role = config.mod_role.and_then(|r| r.parse::<u64>().ok());
    Ok(role.is_some_and(|role| member.roles.iter().any(|r| r.get() == role)))
}

/// The command group a subcommand belongs to (`/undercover join` → `undercover`).
pub(super) fn group_of(ctx: Context<'_>) -> Option<String> {
    ctx.parent_commands().first().map(|c| c.name.to_string())
}

pub fn is_thread(kind: serenity::ChannelType) -> bool {
    matches!(kind, serenity::ChannelType::PublicThread | serenity::ChannelType::PrivateThread)
}
