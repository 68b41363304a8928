//! Sending to Discord: every message goes out with mentions switched off
//! (`allowed_mentions` empty, replied user not pinged) and its text already
//! neutralised and sized by `render`.

use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton, CreateEmbed, CreateMessage,
};

use crate::core::catalogue::{self, ShownButton};
use crate::core::game::Reply;
use crate::core::vocab::Language;

use super::render::{Outgoing, plan};

/// The reaction put on a message that hit the rate limit.
pub const SLOW_DOWN_EMOJI: char = '⏳';

/// Allowed mentions for everything the bot sends: none at all.
pub fn no_pings() -> CreateAllowedMentions {
    CreateAllowedMentions::new().replied_user(false)
}

pub fn embed(o: &Outgoing) -> CreateEmbed {
    CreateEmbed::new().description(&o.text).colour(o.colour)
}

/// The buttons a game's declaration puts under its intro (Turtle Soup's
/// Hint / Status / Give up), in one row; none: no row.
pub fn intro_buttons(buttons: &[ShownButton]) -> Vec<CreateActionRow> {
    if buttons.is_empty() {
        return Vec::new();
    }
    let style = |s: catalogue::ButtonStyle| match s {
        catalogue::ButtonStyle::Primary => ButtonStyle::Primary,
        catalogue::ButtonStyle::Secondary => ButtonStyle::Secondary,
        catalogue::ButtonStyle::Danger => ButtonStyle::Danger,
    };
    let row = buttons.iter().map(|b| CreateButton::new(&b.id).label(&b.label).style(style(b.style))).collect();
    vec![CreateActionRow::Buttons(row)]
}

/// A message for one planned piece, answering `reply_to` when given.
pub fn message(o: &Outgoing, reply_to: Option<(serenity::ChannelId, serenity::MessageId)>) -> CreateMessage {
    let mut m = CreateMessage::new().embed(embed(o)).allowed_mentions(no_pings());
    if let Some(reference) = reply_to {
        m = m.reference_message(reference);
    }
    if let Some((name, bytes)) = &o.file {
        m = m.add_file(CreateAttachment::bytes(bytes.clone(), name.clone()));
    }
    m
}

/// Posts a reply in a channel; the first message answers `reply_to`.
/// A reply from the outbox (`outbox`: its row) carries a nonce per piece
/// that Discord enforces: posted again (a process died between posting
/// and marking it sent, and another resends it), Discord returns the
/// first message instead of a second one.
pub async fn post(
    http: &serenity::Http,
    channel: serenity::ChannelId,
    reply: &Reply,
    lang: Language,
    max_messages: usize,
    reply_to: Option<serenity::MessageId>,
    outbox: Option<i64>,
) -> serenity::Result<()> {
    for (i, o) in plan(reply, lang, max_messages).iter().enumerate() {
        let reference = reply_to.filter(|_| i == 0).map(|id| (channel, id));
        let mut m = message(o, reference);
        if let Some(row) = outbox {
            m = m.nonce(serenity::Nonce::String(nonce(row, i))).enforce_nonce(true);
        }
        channel.send_message(http, m).await?;
    }
    Ok(())
}

/// Piece `piece` of outbox row `row`: at most 25 characters, as Discord allows.
pub fn nonce(row: i64, piece: usize) -> String {
    format!("o{row}.{piece}")
}

/// The follow-up pieces for an interaction's reply.
pub fn followups(reply: &Reply, lang: Language, max_messages: usize) -> Vec<poise::CreateReply> {
    plan(reply, lang, max_messages).iter().map(command_reply).collect()
}

pub fn command_reply(o: &Outgoing) -> poise::CreateReply {
    let mut r = poise::CreateReply::default().embed(embed(o)).allowed_mentions(no_pings());
    if let Some((name, bytes)) = &o.file {
        r = r.attachment(CreateAttachment::bytes(bytes.clone(), name.clone()));
    }
    r
}

/// A one-line private answer to an interaction.
pub fn private(text: &str) -> poise::CreateReply {
    poise::CreateReply::default().content(super::render::neutralise(text)).ephemeral(true).allowed_mentions(no_pings())
}
