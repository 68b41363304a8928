//! A server's own content for a seated game on Discord (`/undercover pairs
//! add|list|remove`, `/rpg worlds …`): the moderators' verbs the catalogue
//! declares with `move = "content"`, answered privately. What the content
//! is, and whether it is valid, is the game's (`HostedGame::custom`).

use std::sync::Arc;

use anyhow::Context as _;
use poise::serenity_prelude as serenity;
use serenity::{ResolvedOption, ResolvedValue};

use crate::bot::HostedGame;
use crate::bot::words::Markup;
use crate::core::catalogue::Verb;
use crate::core::vocab::Language;

use super::answer::{group_of, is_moderator, refuse};
use super::games::{player_of, scope_of};
use super::render::neutralise;
use super::send::private;
use super::types::{Context, Data, Error};
use super::words::Word;

/// The largest file a moderator may add.
const MAX_FILE_BYTES: u32 = 256 * 1024;

/// What a moderator's verb on the server's own content works with: the
/// bot, the game, the scope and the server's language.
type ContentVerb = (Data, Arc<dyn HostedGame>, String, Language);

/// `add` (text, or a file), `list` or `remove <id>` on the server's own
/// content for the command's game.
pub(super) async fn content_verb(
    ctx: Context<'_>,
    verb: &Verb,
    named: &[(String, String)],
    args: &[ResolvedOption<'_>],
) -> Result<(), Error> {
    let file = args.iter().find_map(|a| match a.value {
        ResolvedValue::Attachment(file) => Some(file.clone()),
        _ => None,
    });
    if file.is_some() {
        ctx.defer_ephemeral().await?;
    }
    let Some((data, game, scope, lang)) = allowed(ctx).await? else { return Ok(()) };
    let text_of = |kind: &str| {
        verb.options
            .iter()
            .filter(|o| o.kind == kind)
            .find_map(|o| named.iter().find(|(n, _)| *n == o.name).map(|(_, v)| v.clone()))
    };
    let text = match verb.name.rsplit(' ').next().unwrap_or_default() {
        "add" => {
            let source = match file {
                Some(file) => match read(&file).await? {
                    Some(source) => source,
                    None => return refuse(ctx, lang, Word::FileUnreadable { max_kib: MAX_FILE_BYTES / 1024 }).await,
                },
                None => text_of("text").unwrap_or_default(),
            };
            let language = text_of("language").and_then(|l| Language::parse(&l));
            data.add_content(&game, &scope, language, &source, &player_of(ctx.author()), Markup::Discord).await?
        }
        "list" => data.list_content(&game, &scope, lang, Markup::Discord).await?,
        _ => {
            let id = text_of("text").unwrap_or_default();
            data.remove_content(&game, &scope, &id, lang, Markup::Discord).await?
        }
    };
    ctx.send(private(&neutralise(&text))).await?;
    Ok(())
}

/// A text file a moderator attached, when it is small enough and UTF-8.
async fn read(file: &serenity::Attachment) -> Result<Option<String>, Error> {
    if file.size > MAX_FILE_BYTES {
        return Ok(None);
    }
    let bytes = file.download().await.context("downloading the attached file")?;
    Ok(String::from_utf8(bytes).ok())
}

/// The bot, game, scope and language for a moderator's content verb;
/// `None` once the invoker has been refused.
async fn allowed(ctx: Context<'_>) -> Result<Option<ContentVerb>, Error> {
    let data = ctx.data();
    let guild = ctx.guild_id().context("guild only")?;
    let lang = data.guild_language(Some(guild)).await;
    let group = group_of(ctx).unwrap_or_default();
    let Some(game) = data.hosted(&group) else {
        refuse(ctx, lang, Word::NoTableHere { group: &group }).await?;
        return Ok(None);
    };
    if !is_moderator(ctx).await? {
        refuse(ctx, lang, Word::NotModerator).await?;
        return Ok(None);
    }
    Ok(Some((data.clone(), game, scope_of(guild), lang)))
}
