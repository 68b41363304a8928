//! `/soup-admin …`: the moderators' commands. The moderator check sits on
//! the group, and poise runs a group's checks for every subcommand, so no
//! verb runs for a non-moderator whatever the client shows (tested through
//! the fake gateway for every verb).

use anyhow::Context as _;
use poise::serenity_prelude as serenity;

use crate::bot::words::Markup;
use crate::core::game::{ReplyKind, TurnInput};
use crate::core::guild::{GuildConfig, NewCustomPuzzle};
use crate::core::soup::puzzle::Puzzle;
use crate::core::store::StoreError;
use crate::core::vocab::Language;

use super::answer::{is_moderator, is_thread, refuse, send_text};
use super::games::{player_of, scope_of, thread_key};
use super::render::neutralise;
use super::soup::{LanguageChoice, puzzle_choices, unknown};
use super::turns::{Origin, Turn};
use super::types::{Context, Error};
use super::words::{Word, say};

/// Largest puzzle file accepted, in bytes.
const MAX_PUZZLE_BYTES: u32 = 64 * 1024;

/// Turtle Soup moderation.
#[poise::command(
    slash_command,
    guild_only,
    rename = "soup-admin",
    check = "is_moderator",
    subcommands("puzzle", "known", "reveal", "end", "config"),
    subcommand_required
)]
pub async fn soup_admin(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Manage puzzles.
#[poise::command(
    slash_command,
    guild_only,
    subcommands("puzzle_list", "puzzle_add", "puzzle_remove", "puzzle_enable", "puzzle_disable", "puzzle_next"),
    subcommand_required
)]
pub async fn puzzle(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Correct the Judge's known answers.
#[poise::command(
    slash_command,
    guild_only,
    subcommands("known_add", "known_list", "known_remove"),
    subcommand_required
)]
pub async fn known(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// A verdict a moderator gives a question.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum VerdictChoice {
    #[name = "YES"]
    Yes,
    #[name = "NO"]
    No,
    #[name = "YES AND NO"]
    YesAndNo,
    #[name = "IRRELEVANT"]
    Irrelevant,
}

/// Store the right verdict to a question for this server's copy of a puzzle.
#[poise::command(slash_command, guild_only, rename = "add")]
pub async fn known_add(
    ctx: Context<'_>,
    #[description = "The right verdict"] verdict: VerdictChoice,
    #[description = "The puzzle (default: this thread's game)"]
    #[autocomplete = "autocomplete_any"]
    puzzle: Option<String>,
    #[description = "The question (default: the last one answered in this thread)"] question: Option<String>,
) -> Result<(), Error> {
    let data = ctx.data();
    let (scope, _, lang) = server(ctx).await?;
    let here = thread_key(ctx.channel_id());
    let Some((puzzle, question)) = data.which_question(Some(here.as_str()), &here, puzzle, question).await? else {
        return refuse(ctx, lang, Word::KnownWhich).await;
    };
    let by = player_of(ctx.author()).id;
    let verdict = match verdict {
        VerdictChoice::Yes => "YES",
        VerdictChoice::No => "NO",
        VerdictChoice::YesAndNo => "YES_AND_NO",
        VerdictChoice::Irrelevant => "IRRELEVANT",
    };
    let text = data.add_correction(&scope, &puzzle, &question, verdict, &by, Markup::Discord).await?;
    send_text(ctx, ReplyKind::Status, text, lang, true).await
}

/// List this server's corrected answers.
#[poise::command(slash_command, guild_only, rename = "list")]
pub async fn known_list(
    ctx: Context<'_>,
    #[description = "Puzzle id"]
    #[autocomplete = "autocomplete_any"]
    puzzle: Option<String>,
) -> Result<(), Error> {
    let (scope, _, lang) = server(ctx).await?;
    let text = ctx.data().list_corrections(&scope, puzzle.as_deref(), Markup::Discord).await?;
    send_text(ctx, ReplyKind::Status, text, lang, true).await
}

/// Remove one of this server's corrected answers.
#[poise::command(slash_command, guild_only, rename = "remove")]
pub async fn known_remove(
    ctx: Context<'_>,
    #[description = "The correction's id (from list)"] id: String,
) -> Result<(), Error> {
    let (scope, _, lang) = server(ctx).await?;
    let text = ctx.data().remove_correction(&scope, &id, Markup::Discord).await?;
    send_text(ctx, ReplyKind::Status, text, lang, true).await
}

/// Change settings.
#[poise::command(
    slash_command,
    guild_only,
    subcommands("config_language", "config_hint_limit", "config_channel", "config_model", "config_mod_role"),
    subcommand_required
)]
pub async fn config(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// The server's scope, settings and language.
async fn server(ctx: Context<'_>) -> Result<(String, GuildConfig, Language), Error> {
    let scope = scope_of(ctx.guild_id().context("guild only")?);
    let config = ctx.data().guilds.guild_config(&scope).await?;
    let lang = ctx.data().language_of(&config);
    Ok((scope, config, lang))
}

/// List puzzles.
#[poise::command(slash_command, guild_only, rename = "list")]
pub async fn puzzle_list(ctx: Context<'_>) -> Result<(), Error> {
    let data = ctx.data();
    let (scope, _, lang) = server(ctx).await?;
    let disabled = data.guilds.disabled_puzzles(&scope).await?;
    let mut lines: Vec<String> =
        data.library.all().iter().map(|p| line(p, disabled.contains(&p.id), false, lang)).collect();
    for custom in data.guilds.scoped_puzzles(&scope).await? {
        match Puzzle::from_toml(&custom.source, None, None) {
            Ok(p) => lines.push(line(&p, !custom.enabled, true, lang)),
            Err(_) => lines.push(format!("`{}` · ⚠️", custom.id)),
        }
    }
    let text = format!("**{}**\n{}", say(lang, &Word::Puzzles), lines.join("\n"));
    send_text(ctx, ReplyKind::Status, text, lang, true).await
}

fn line(p: &Puzzle, disabled: bool, custom: bool, lang: Language) -> String {
    let mut tags = Vec::new();
    if custom {
        tags.push(say(lang, &Word::Custom));
    }
    if disabled {
        tags.push(say(lang, &Word::Disabled));
    }
    let tags = if tags.is_empty() { String::new() } else { format!(" ({})", tags.join(", ")) };
    format!("`{}` · {} · {} · {}{tags}", p.id, p.language.code(), p.difficulty, neutralise(&p.title))
}

/// Add a custom puzzle file.
#[poise::command(slash_command, guild_only, rename = "add")]
pub async fn puzzle_add(
    ctx: Context<'_>,
    #[description = "A puzzle TOML file"] file: serenity::Attachment,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let data = ctx.data();
    let (scope, _, lang) = server(ctx).await?;
    let Some(stem) = file.filename.strip_suffix(".toml").filter(|_| file.size <= MAX_PUZZLE_BYTES) else {
        return refuse(ctx, lang, Word::PuzzleUnreadable).await;
    };
    let bytes = file.download().await.context("downloading the puzzle file")?;
    let Ok(source) = String::from_utf8(bytes) else { return refuse(ctx, lang, Word::PuzzleUnreadable).await };
    // The same rules as `echoes puzzles check`: the id must match the file name.
    let puzzle = match Puzzle::from_toml(&source, Some(stem), None) {
        Ok(p) => p,
        Err(problems) => {
            let list: Vec<String> =
                problems.iter().take(10).map(|p| format!("• {}", neutralise(&p.to_string()))).collect();
            return refuse(ctx, lang, Word::PuzzleInvalid(&list.join("\n"))).await;
        }
    };
    if data.library.get(&puzzle.id).is_some() {
        return refuse(ctx, lang, Word::PuzzleExists(&puzzle.id)).await;
    }
    let added_by = player_of(ctx.author()).id;
    let new = NewCustomPuzzle {
        scope: &scope,
        id: &puzzle.id,
        source: &source,
        added_by: &added_by,
        created_ms: data.now_ms(),
    };
    match data.guilds.add_custom_puzzle(&new).await {
        Ok(()) => refuse(ctx, lang, Word::PuzzleAdded { id: &puzzle.id, title: &neutralise(&puzzle.title) }).await,
        Err(StoreError::Duplicate(_)) => refuse(ctx, lang, Word::PuzzleExists(&puzzle.id)).await,
        Err(e) => Err(e.into()),
    }
}

/// Remove a custom puzzle.
#[poise::command(slash_command, guild_only, rename = "remove")]
pub async fn puzzle_remove(
    ctx: Context<'_>,
    #[description = "Puzzle id"]
    #[autocomplete = "autocomplete_any"]
    puzzle: String,
) -> Result<(), Error> {
    let (scope, _, lang) = server(ctx).await?;
    let id = puzzle.trim();
    if ctx.data().guilds.remove_custom_puzzle(&scope, id).await? {
        refuse(ctx, lang, Word::PuzzleRemoved(id)).await
    } else {
        refuse(ctx, lang, Word::NotCustom(&neutralise(id))).await
    }
}

/// Enable a puzzle here.
#[poise::command(slash_command, guild_only, rename = "enable")]
pub async fn puzzle_enable(
    ctx: Context<'_>,
    #[description = "Puzzle id"]
    #[autocomplete = "autocomplete_any"]
    puzzle: String,
) -> Result<(), Error> {
    set_enabled(ctx, puzzle.trim(), true).await
}

/// Disable a puzzle here.
#[poise::command(slash_command, guild_only, rename = "disable")]
pub async fn puzzle_disable(
    ctx: Context<'_>,
    #[description = "Puzzle id"]
    #[autocomplete = "autocomplete_any"]
    puzzle: String,
) -> Result<(), Error> {
    set_enabled(ctx, puzzle.trim(), false).await
}

async fn set_enabled(ctx: Context<'_>, id: &str, enabled: bool) -> Result<(), Error> {
    let data = ctx.data();
    let (scope, _, lang) = server(ctx).await?;
    if data.find_puzzle(&scope, id).await?.is_none() {
        let all = data.playable_puzzles(&scope).await?;
        let text = unknown(lang, id, &all);
        ctx.send(super::send::private(&text)).await?;
        return Ok(());
    }
    data.guilds.set_puzzle_enabled(&scope, id, enabled).await?;
    let word = if enabled { Word::PuzzleEnabled(id) } else { Word::PuzzleDisabled(id) };
    refuse(ctx, lang, word).await
}

/// Choose the next game's puzzle in this channel.
#[poise::command(slash_command, guild_only, rename = "next")]
pub async fn puzzle_next(
    ctx: Context<'_>,
    #[description = "Puzzle id"]
    #[autocomplete = "autocomplete_any"]
    puzzle: String,
) -> Result<(), Error> {
    let data = ctx.data();
    let (scope, _, lang) = server(ctx).await?;
    let id = puzzle.trim();
    let playable = data.playable_puzzles(&scope).await?;
    if !playable.iter().any(|p| p.id == id) {
        ctx.send(super::send::private(&unknown(lang, id, &playable))).await?;
        return Ok(());
    }
    let channel = game_channel(ctx);
    data.guilds.set_next_puzzle(&scope, &channel.to_string(), id).await?;
    refuse(ctx, lang, Word::NextPuzzle(id)).await
}

/// The channel new games open from: the thread's parent inside a thread.
fn game_channel(ctx: Context<'_>) -> serenity::ChannelId {
    let here = ctx.channel_id();
    match ctx {
        poise::Context::Application(a) => {
            a.interaction.channel.as_ref().filter(|c| is_thread(c.kind)).and_then(|c| c.parent_id).unwrap_or(here)
        }
        poise::Context::Prefix(_) => here,
    }
}

/// End the game here and reveal the story.
#[poise::command(slash_command, guild_only)]
pub async fn reveal(ctx: Context<'_>) -> Result<(), Error> {
    moderator_turn(ctx, true).await
}

/// End the game here without revealing it.
#[poise::command(slash_command, guild_only)]
pub async fn end(ctx: Context<'_>) -> Result<(), Error> {
    moderator_turn(ctx, false).await
}

async fn moderator_turn(ctx: Context<'_>, reveal: bool) -> Result<(), Error> {
    let data = ctx.data();
    let http = &ctx.serenity_context().http;
    let thread = ctx.channel_id();
    let (_, _, lang) = server(ctx).await?;
    let Some((handle, game)) = data.game_in(http, thread).await? else {
        return refuse(ctx, lang, Word::NoGameHere).await;
    };
    ctx.defer_ephemeral().await?;
    let player = player_of(ctx.author());
    let event_id = super::types::event_id(ctx);
    if reveal {
        let turn = Turn { thread, handle, game, player, input: TurnInput::End, event_id };
        data.take_turn(http, turn, Origin::Thread).await?;
    } else {
        let inbound = crate::core::actor::Inbound {
            event_id: Some(event_id),
            player,
            input: TurnInput::End,
            progress: None,
            moderator: true,
        };
        let delivery = handle.send(inbound).await?;
        // The story stays hidden: the thread hears only that the game ended.
        let notice = crate::core::game::Reply {
            kind: ReplyKind::Ended,
            text: say(game.puzzle.language, &Word::EndedByModerator),
            verdict: None,
        };
        super::send::post(http, thread, &notice, lang, 1, None, None).await?;
        handle.delivered(&delivery).await?;
        data.close_game(thread).await?;
    }
    refuse(ctx, lang, Word::Done).await
}

/// Set the bot's language here.
#[poise::command(slash_command, guild_only, rename = "language")]
pub async fn config_language(
    ctx: Context<'_>,
    #[description = "en or zh"] language: LanguageChoice,
) -> Result<(), Error> {
    let language: Language = language.into();
    update(ctx, "language", language.code(), |c| c.language = Some(language)).await
}

/// Set the hints per game.
#[poise::command(slash_command, guild_only, rename = "hint-limit")]
pub async fn config_hint_limit(
    ctx: Context<'_>,
    #[description = "Hints per game (0-20)"]
    #[min = 0]
    #[max = 20]
    limit: u32,
) -> Result<(), Error> {
    let limit = limit.min(20);
    update(ctx, "hint-limit", &limit.to_string(), |c| c.hint_limit = Some(limit)).await
}

/// Restrict games to a channel.
#[poise::command(slash_command, guild_only, rename = "channel")]
pub async fn config_channel(
    ctx: Context<'_>,
    #[description = "The channel games run in"] channel: serenity::ChannelId,
) -> Result<(), Error> {
    update(ctx, "channel", &format!("<#{channel}>"), |c| c.channel = Some(channel.to_string())).await
}

/// Choose the model for new games here.
#[poise::command(slash_command, guild_only, rename = "model")]
pub async fn config_model(ctx: Context<'_>, #[description = "Model name"] model: String) -> Result<(), Error> {
    let model = model.trim().to_string();
    let valid = !model.is_empty()
        && model.len() <= 100
        && model.chars().all(|c| c.is_ascii_alphanumeric() || ":._/-".contains(c));
    if !valid {
        let (_, _, lang) = server(ctx).await?;
        return refuse(ctx, lang, Word::BadModel).await;
    }
    update(ctx, "model", &format!("`{model}`"), |c| c.model = Some(model.clone())).await
}

/// Set the moderator role.
#[poise::command(slash_command, guild_only, rename = "mod-role")]
pub async fn config_mod_role(
    ctx: Context<'_>,
    #[description = "Members of this role are moderators"] role: serenity::RoleId,
) -> Result<(), Error> {
    update(ctx, "mod-role", &format!("`{role}`"), |c| c.mod_role = Some(role.to_string())).await
}

async fn update(ctx: Context<'_>, what: &str, value: &str, change: impl FnOnce(&mut GuildConfig)) -> Result<(), Error> {
    let data = ctx.data();
    let (scope, mut config, _) = server(ctx).await?;
    change(&mut config);
    data.guilds.set_guild_config(&scope, &config, data.now_ms()).await?;
    let lang = data.language_of(&config);
    refuse(ctx, lang, Word::ConfigSet { what, value }).await
}

/// Autocomplete: every puzzle this server can see, enabled or not.
pub async fn autocomplete_any(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let Some(guild) = ctx.guild_id() else { return serenity::CreateAutocompleteResponse::new() };
    let data = ctx.data();
    let scope = scope_of(guild);
    let mut all: Vec<_> = data.library.all().to_vec();
    all.extend(data.custom_puzzles(&scope, true).await.unwrap_or_default());
    puzzle_choices(&all, partial)
}
