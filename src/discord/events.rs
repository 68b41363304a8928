//! Gateway events that are not slash commands: ordinary messages in game
//! threads (each one a turn by its author), the Hint / Status / Give up
//! buttons, and threads archived or deleted (their games end cleanly).

use poise::serenity_prelude as serenity;
use serenity::FullEvent;

use crate::core::actor::Inbound;
use crate::core::catalogue::{Frontend, Parsed};
use crate::core::game::TurnInput;
use crate::core::game::{Reply, ReplyKind};
use crate::core::vocab::Language;
use crate::core::vocab::Player;

use super::games::player_of;
use super::render::neutralise;
use super::send::no_pings;
use super::turns::{Origin, Turn};
use super::types::{Data, Error};
use super::words::{Word, say};

pub async fn on_event(framework: poise::FrameworkContext<'_, Data, Error>, event: &FullEvent) -> Result<(), Error> {
    let (ctx, data) = (framework.serenity_context, framework.user_data);
    match event {
        FullEvent::Message { new_message } => on_message(ctx, data, new_message).await,
        FullEvent::InteractionCreate { interaction: serenity::Interaction::Component(press) } => {
            on_button(ctx, data, press).await
        }
        FullEvent::ThreadUpdate { new, .. } if new.thread_metadata.as_ref().is_some_and(|m| m.archived) => {
            thread_closed(data, new.id, "archived").await
        }
        FullEvent::ThreadDelete { thread, .. } => thread_closed(data, thread.id, "deleted").await,
        FullEvent::Ready { data_about_bot } => {
            tracing::info!(user = %data_about_bot.user.name, guilds = data_about_bot.guilds.len(), "connected to Discord");
            // Seated games with a running deadline resume now, so their
            // timers fire even if nobody speaks in the thread.
            match data.bot.resume_deadlines().await {
                Ok(0) => {}
                Ok(n) => tracing::info!(tables = n, "resumed tables with deadlines"),
                Err(e) => tracing::warn!(error = %format!("{e:#}"), "could not resume tables with deadlines"),
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// A message in a game thread is a turn; anything else is ignored.
async fn on_message(ctx: &serenity::Context, data: &Data, msg: &serenity::Message) -> Result<(), Error> {
    if msg.author.bot || msg.guild_id.is_none() || msg.content.trim().is_empty() || !is_plain(msg) {
        return Ok(());
    }
    let http = &ctx.http;
    let Some((handle, game)) = data.game_in(http, msg.channel_id).await? else {
        return super::tables::on_table_message(ctx, data, msg).await;
    };
    let player = player_of(&msg.author);
    if data.limiter.check(&player.id, data.now_ms()).is_err() {
        msg.react(http, serenity::ReactionType::Unicode(super::send::SLOW_DOWN_EMOJI.to_string())).await?;
        return Ok(());
    }
    // Shown until the reply arrives (or for 10 s).
    if let Err(e) = msg.channel_id.broadcast_typing(http).await {
        tracing::debug!(error = %e, "typing indicator failed");
    }
    // A command said plainly ("hint", "提示", "give up") is that command.
    let input = match data.catalogue.said(Frontend::Discord, "soup", &msg.content) {
        Some(Parsed::Input { input, .. }) => input,
        Some(Parsed::Bot { .. }) => return say_help(http, data, msg, game.puzzle.language).await,
        None => TurnInput::Say(neutralise(&msg.content)),
    };
    let turn = Turn { thread: msg.channel_id, handle, game, player, input, event_id: msg.id.to_string() };
    data.take_turn(http, turn, Origin::Message(msg.id)).await?;
    Ok(())
}

/// The help, answering a plain "help" in a game's thread.
async fn say_help(http: &serenity::Http, data: &Data, msg: &serenity::Message, lang: Language) -> Result<(), Error> {
    let reply = Reply::new(ReplyKind::Status, super::soup::help_text(data, lang));
    for piece in super::render::plan(&reply, lang, data.settings.max_reply_messages) {
        msg.channel_id.send_message(http, super::send::message(&piece, Some((msg.channel_id, msg.id)))).await?;
    }
    Ok(())
}

/// Ordinary and reply messages; not joins, pins, thread notices.
fn is_plain(msg: &serenity::Message) -> bool {
    matches!(msg.kind, serenity::MessageType::Regular | serenity::MessageType::InlineReply)
}

async fn on_button(ctx: &serenity::Context, data: &Data, press: &serenity::ComponentInteraction) -> Result<(), Error> {
    if let Some(option) = press.data.custom_id.strip_prefix(super::tables::VOTE_BUTTON) {
        return super::tables::on_vote_button(ctx, data, press, option).await;
    }
    if let Some(verb) = press.data.custom_id.strip_prefix(super::tables::LOBBY_BUTTON)
        && super::tables::on_lobby_button(ctx, data, press, verb).await?
    {
        return Ok(());
    }
    if press.data.custom_id == super::soup::FORGET_BUTTON {
        return super::soup::on_forget(ctx, data, press).await;
    }
    let Some(input) = data.catalogue.button(Frontend::Discord, &press.data.custom_id) else { return Ok(()) };
    let http = &ctx.http;
    let Some((handle, game)) = data.game_in(http, press.channel_id).await? else {
        let lang = data.guild_language(press.guild_id).await;
        let message = serenity::CreateInteractionResponseMessage::new()
            .content(say(lang, &Word::NoGameHere))
            .ephemeral(true)
            .allowed_mentions(no_pings());
        let refusal = serenity::CreateInteractionResponse::Message(message);
        return data.first_response(http, press.id, &press.token, refusal).await;
    };
    // "Thinking…" until the follow-up replaces it.
    let thinking = serenity::CreateInteractionResponse::Defer(serenity::CreateInteractionResponseMessage::new());
    data.first_response(http, press.id, &press.token, thinking).await?;
    let player = player_of(&press.user);
    let turn = Turn { thread: press.channel_id, handle, game, player, input, event_id: press.id.to_string() };
    data.take_turn(http, turn, Origin::Interaction(press.token.clone())).await?;
    Ok(())
}

/// A thread that was archived or deleted ends its game: the game is
/// closed in the record (as revealed, without posting) and unbound.
async fn thread_closed(data: &Data, thread: serenity::ChannelId, why: &str) -> Result<(), Error> {
    let key = super::games::thread_key(thread);
    if data.bot.find_table(&key).await?.is_some() {
        // A seated game's record stays as it is; the thread no longer plays it.
        data.bot.end_table(&key).await?;
        tracing::info!(thread = %thread, why, "thread closed; table unbound");
        return Ok(());
    }
    let Some((handle, game)) = data.game_quietly(thread).await? else { return Ok(()) };
    let system = Player { id: "discord:system".into(), name: "system".into() };
    let event_id = Some(format!("thread-{why}:{thread}"));
    let inbound = Inbound { event_id, player: system, input: TurnInput::End, progress: None, moderator: true };
    match handle.send(inbound).await {
        Ok(delivery) => handle.delivered(&delivery).await?,
        Err(e) => tracing::warn!(thread = %thread, error = %e, "could not close the game's record"),
    }
    data.close_game(thread).await?;
    tracing::info!(thread = %thread, why, session = %game.session_id, "thread closed; game ended");
    Ok(())
}
