//! Seated games' slash commands, built at start-up from the catalogue:
//! one `/<group>` per hosted game, a subcommand per declared verb (a
//! sub-group for `pairs add|list|remove`), its options, choices and
//! bounds from the declaration, and **one** handler for every verb. The
//! handler reads the verb and its options back through the catalogue, as
//! Slack and the terminal read a typed line, so no code here names a
//! game's verb: a new game's verbs reach Discord by being declared.

use poise::serenity_prelude as serenity;
use serenity::{CommandOptionType, CreateCommandOption, ResolvedOption, ResolvedValue};

use crate::core::catalogue::{Catalogue, Frontend, Move, Parsed, ReadError, Verb, VerbOption};
use crate::core::game::TurnInput;

use super::answer::{group_of, is_moderator, refuse};
use super::games::{player_of, scope_of, thread_key};
use super::render::neutralise;
use super::send::{no_pings, private};
use super::tables::Answer;
use super::types::{Context, Data, Error};
use super::words::{Word, say};
use crate::bot::Opening;
use crate::core::actor::Inbound;

/// The languages a `language` option offers, in choice order (Discord
/// sends the index).
const LANGUAGES: [&str; 2] = ["en", "zh"];

type Command = poise::Command<Data, Error>;

/// A verb's handler, as poise keeps it.
pub(super) type Action = for<'a> fn(
    poise::ApplicationContext<'a, Data, Error>,
) -> poise::BoxFuture<'a, Result<(), poise::FrameworkError<'a, Data, Error>>>;

/// The command tree of one hosted game: the catalogue's Discord verbs of
/// `group`, nothing more.
pub fn command_for(group: &str, catalogue: &Catalogue) -> Command {
    let mut top = node(group, group);
    for verb in catalogue.for_frontend(Frontend::Discord).filter(|v| v.group == group) {
        match verb.name.split_once(' ') {
            Some((parent, child)) => {
                if !top.subcommands.iter().any(|c| c.name == parent) {
                    top.subcommands.push(node(parent, &format!("{group} {parent}")));
                }
                let at = top.subcommands.iter().position(|c| c.name == parent).unwrap_or_default();
                top.subcommands[at].subcommands.push(leaf(child, verb, table_verb));
            }
            None => top.subcommands.push(leaf(&verb.name, verb, table_verb)),
        }
    }
    top
}

/// A command that only holds subcommands.
fn node(name: &str, qualified: &str) -> Command {
    Command {
        name: name.to_string().into(),
        qualified_name: qualified.to_string().into(),
        identifying_name: format!("table_{}", qualified.replace(' ', "_")).into(),
        source_code_name: "table".into(),
        description: Some(name.to_string().into()),
        subcommand_required: true,
        guild_only: true,
        slash_action: Some(|_| Box::pin(async { Ok(()) })),
        ..Default::default()
    }
}

/// A verb: its options from the declaration, its handler, and the
/// declaration itself for the handler to read (`declared`).
pub(super) fn leaf(name: &str, verb: &Verb, action: Action) -> Command {
    Command {
        name: name.to_string().into(),
        qualified_name: format!("{} {}", verb.group, verb.name).into(),
        identifying_name: format!("verb_{}_{}", verb.group, verb.name.replace(' ', "_")).into(),
        source_code_name: "verb".into(),
        description: Some(verb.help.en.chars().take(100).collect::<String>().into()),
        guild_only: true,
        parameters: verb.options.iter().map(parameter).collect(),
        custom_data: Box::new(verb.clone()),
        slash_action: Some(action),
        ..Default::default()
    }
}

/// The declaration a generated command was built from.
pub(super) fn declared<'a>(ctx: &poise::ApplicationContext<'a, Data, Error>) -> Option<&'a Verb> {
    ctx.command().custom_data.downcast_ref::<Verb>()
}

/// The one handler of every seated game's verb.
fn table_verb(
    ctx: poise::ApplicationContext<'_, Data, Error>,
) -> poise::BoxFuture<'_, Result<(), poise::FrameworkError<'_, Data, Error>>> {
    Box::pin(async move {
        let Some(verb) = declared(&ctx) else { return Ok(()) };
        run(ctx.into(), verb, ctx.args).await.map_err(|error| poise::FrameworkError::new_command(ctx.into(), error))
    })
}

fn parameter(option: &VerbOption) -> poise::CommandParameter<Data, Error> {
    let choices = match option.kind.as_str() {
        "language" => LANGUAGES
            .iter()
            .map(|l| poise::CommandParameterChoice {
                name: (*l).into(),
                localizations: Default::default(),
                __non_exhaustive: (),
            })
            .collect(),
        _ => Vec::new(),
    };
    poise::CommandParameter {
        name: option.name.clone().into(),
        name_localizations: Default::default(),
        description: Some(option.describe.clone().unwrap_or_else(|| option.name.replace('_', " ")).into()),
        description_localizations: Default::default(),
        required: option.required,
        channel_types: None,
        choices: choices.into(),
        type_setter: Some(type_setter(option)),
        autocomplete_callback: None,
        __non_exhaustive: (),
    }
}

/// The option's Discord type and bounds (a `fn` pointer, as poise keeps
/// it: the bounds the declarations use are listed; another range is
/// registered without bounds and left to the game to check).
fn type_setter(option: &VerbOption) -> fn(CreateCommandOption) -> CreateCommandOption {
    use CommandOptionType as T;
    match (option.kind.as_str(), option.min, option.max) {
        ("number", Some(3), Some(12)) => |o| o.kind(T::Integer).min_int_value(3).max_int_value(12),
        ("number", Some(0), Some(11)) => |o| o.kind(T::Integer).min_int_value(0).max_int_value(11),
        ("number", Some(0), Some(8)) => |o| o.kind(T::Integer).min_int_value(0).max_int_value(8),
        ("number", Some(1), Some(100)) => |o| o.kind(T::Integer).min_int_value(1).max_int_value(100),
        ("number", ..) => |o| o.kind(T::Integer),
        ("language", ..) => |o| o.kind(T::Integer),
        ("flag", ..) => |o| o.kind(T::Boolean),
        ("file", ..) => |o| o.kind(T::Attachment),
        ("user", ..) => |o| o.kind(T::User),
        ("role", ..) => |o| o.kind(T::Role),
        ("channel", ..) => |o| o.kind(T::Channel),
        _ => |o| o.kind(T::String),
    }
}

/// An option's value as the catalogue reads it (a language choice's
/// code, a flag's `yes`/`no`).
fn value_text(option: Option<&VerbOption>, value: &ResolvedValue<'_>) -> String {
    match value {
        ResolvedValue::String(s) => (*s).to_string(),
        ResolvedValue::Integer(i) if option.is_some_and(|o| o.kind == "language") => {
            LANGUAGES.get(*i as usize).copied().unwrap_or_default().to_string()
        }
        ResolvedValue::Integer(i) => i.to_string(),
        ResolvedValue::Number(n) => n.to_string(),
        ResolvedValue::Boolean(b) => if *b { "yes" } else { "no" }.to_string(),
        ResolvedValue::Attachment(a) => a.filename.clone(),
        ResolvedValue::User(u, _) => u.id.to_string(),
        ResolvedValue::Role(r) => r.id.to_string(),
        _ => String::new(),
    }
}

/// The options by name, as text.
pub(super) fn named(verb: &Verb, args: &[ResolvedOption<'_>]) -> Vec<(String, String)> {
    args.iter()
        .map(|a| {
            let option = verb.options.iter().find(|o| o.name == a.name);
            (a.name.to_string(), value_text(option, &a.value))
        })
        .collect()
}

/// The one handler: a lobby, the server's content, the game's record, or
/// a move for the table, each read through the catalogue.
async fn run(ctx: Context<'_>, verb: &Verb, args: &[ResolvedOption<'_>]) -> Result<(), Error> {
    let data = ctx.data();
    let named = named(verb, args);
    match verb.action {
        Some(Move::Start) => start(ctx, &data.catalogue.start_named(Frontend::Discord, &verb.group, &named)).await,
        Some(Move::Content) => super::content::content_verb(ctx, verb, &named, args).await,
        Some(Move::Bot) => stats(ctx).await,
        _ => {
            let prefix = format!("/{} ", verb.group);
            match data.catalogue.read_named(Frontend::Discord, &verb.group, &verb.name, &named, &prefix) {
                Ok(Parsed::Input { input, verb }) => table_turn(ctx, input, verb.answers_privately()).await,
                Ok(Parsed::Bot { .. }) => Ok(()),
                Err(ReadError::Usage(usage) | ReadError::Unknown(usage)) => {
                    ctx.send(private(&neutralise(&usage))).await?;
                    Ok(())
                }
            }
        }
    }
}

/// Opens a lobby in a new thread.
async fn start(ctx: Context<'_>, options: &crate::core::game::TableOptions) -> Result<(), Error> {
    let data = ctx.data();
    let http = &ctx.serenity_context().http;
    let guild = ctx.guild_id().ok_or_else(|| anyhow::anyhow!("guild only"))?;
    let scope = scope_of(guild);
    let config = data.guilds.guild_config(&scope).await?;
    let lang = data.language_of(&config);
    let group = group_of(ctx).unwrap_or_default();
    let Some(game) = data.hosted(&group) else { return refuse(ctx, lang, Word::NoTableHere { group: &group }).await };
    if data.find_table(&thread_key(ctx.channel_id())).await?.is_some()
        || data.game_in(http, ctx.channel_id()).await?.is_some()
    {
        return refuse(ctx, lang, Word::AlreadyRunning).await;
    }
    ctx.defer().await?;
    let name: String = format!("🎲 {}", game.group()).chars().take(100).collect();
    let thread = serenity::CreateThread::new(name)
        .kind(serenity::ChannelType::PublicThread)
        .auto_archive_duration(serenity::AutoArchiveDuration::OneDay);
    let thread = ctx.channel_id().create_thread(http, thread).await?.id;
    let host = player_of(ctx.author());
    let (table, intro) =
        match data.open_table(game, &thread_key(thread), &scope, &config, host.clone(), options).await? {
            Opening::Open(table, intro) => (table, intro),
            Opening::Busy => {
                ctx.send(private(&say(options.language.unwrap_or(lang), &Word::AlreadyRunning))).await?;
                return Ok(());
            }
            Opening::Refused(why) => {
                ctx.send(private(&neutralise(&why))).await?;
                return Ok(());
            }
        };
    data.deliver_table(http, thread, &table, &intro, &host, None).await?;
    let open = say(table.language, &Word::LobbyOpen { group: &group, thread: thread.get() });
    ctx.send(poise::CreateReply::default().content(open).allowed_mentions(no_pings())).await?;
    Ok(())
}

/// Wins per role in this server.
async fn stats(ctx: Context<'_>) -> Result<(), Error> {
    let data = ctx.data();
    let guild = ctx.guild_id().ok_or_else(|| anyhow::anyhow!("guild only"))?;
    let lang = data.guild_language(Some(guild)).await;
    let group = group_of(ctx).unwrap_or_default();
    let Some(game) = data.hosted(&group) else { return refuse(ctx, lang, Word::NoTableHere { group: &group }).await };
    let rows = data.store.role_stats(game.kind(), Some(&scope_of(guild)), 30).await?;
    let text = crate::bot::role_stats_lines(lang, &rows, |role| game.role_name(lang, role), neutralise);
    ctx.send(poise::CreateReply::default().content(text).allowed_mentions(no_pings())).await?;
    Ok(())
}

/// The game group a command was invoked under (`/undercover join` → `undercover`).
/// One command turn in a table's thread; a `secret` move is acknowledged
/// privately.
pub(super) async fn table_turn(ctx: Context<'_>, input: TurnInput, secret: bool) -> Result<(), Error> {
    let data = ctx.data();
    let http = &ctx.serenity_context().http;
    let thread = ctx.channel_id();
    let lang = data.guild_language(ctx.guild_id()).await;
    let group = group_of(ctx).unwrap_or_default();
    let Some(table) = data.table_in(http, thread).await? else {
        return refuse(ctx, lang, Word::NoTableHere { group: &group }).await;
    };
    if group != table.game.group() {
        return refuse(ctx, lang, Word::NoTableHere { group: &group }).await;
    }
    let player = player_of(ctx.author());
    if let Err(wait) = data.limiter.check(&player.id, data.now_ms()) {
        return refuse(ctx, table.language, Word::SlowDown(wait)).await;
    }
    let poise::Context::Application(app) = ctx else { return Ok(()) };
    if secret {
        ctx.defer_ephemeral().await?;
    } else {
        ctx.defer().await?;
    }
    let moderator = is_moderator(ctx).await?;
    let mut inbound = Inbound::new(player.clone(), input).with_event(super::types::event_id(ctx));
    inbound.moderator = moderator;
    let token = app.interaction.token.clone();
    let origin = Answer { token, public_reply: !secret };
    data.play_table(http, thread, table, inbound, &player, Some(origin)).await
}
