//! `/soup …`: the players' commands. Each one checks what it can without
//! waiting (a game here? rate limit?), answers privately when refused,
//! otherwise defers at once (Discord's 3-second limit) and plays the turn.

use std::sync::Arc;

use anyhow::Context as _;
use poise::serenity_prelude as serenity;

use crate::bot::words::Markup;
use crate::bot::{NoPuzzle, Wanted};
use crate::core::catalogue::{Catalogue, Frontend, Move, Parsed, ShownButton};
use crate::core::game::{Reply, ReplyKind, TurnInput};
use crate::core::guild::GuildConfig;
use crate::core::soup::puzzle::Puzzle;
use crate::core::vocab::Difficulty;
use crate::core::vocab::Language;

use super::answer::{first_response, is_thread, refuse, refuse_text, send_text};
use super::games::{player_of, scope_of};
use super::render::{neutralise, safe_name};
use super::send::{intro_buttons, private};
use super::turns::{Origin, Turn};
use super::types::{Context, Data, Error};
use super::words::{Word, say};

#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum DifficultyChoice {
    #[name = "easy"]
    Easy,
    #[name = "medium"]
    Medium,
    #[name = "hard"]
    Hard,
}

impl From<DifficultyChoice> for Difficulty {
    fn from(d: DifficultyChoice) -> Self {
        match d {
            DifficultyChoice::Easy => Difficulty::Easy,
            DifficultyChoice::Medium => Difficulty::Medium,
            DifficultyChoice::Hard => Difficulty::Hard,
        }
    }
}

#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum LanguageChoice {
    #[name = "en"]
    En,
    #[name = "zh"]
    Zh,
}

impl From<LanguageChoice> for Language {
    fn from(l: LanguageChoice) -> Self {
        match l {
            LanguageChoice::En => Language::En,
            LanguageChoice::Zh => Language::Zh,
        }
    }
}

/// Turtle Soup.
#[poise::command(
    slash_command,
    guild_only,
    subcommands("start", "leaderboard", "stats", "puzzles", "help", "forget_me", "transcript"),
    subcommand_required
)]
pub async fn soup(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Start a game.
#[poise::command(slash_command, guild_only)]
pub async fn start(
    ctx: Context<'_>,
    #[description = "Puzzle id (random when empty)"]
    #[autocomplete = "autocomplete_playable"]
    puzzle: Option<String>,
    #[description = "Difficulty"] difficulty: Option<DifficultyChoice>,
    #[description = "Language"] language: Option<LanguageChoice>,
    #[description = "AI players at the table (named as AI)"]
    #[min = 0]
    #[max = 4]
    ai_players: Option<u32>,
) -> Result<(), Error> {
    let data = ctx.data();
    let http = &ctx.serenity_context().http;
    let guild = ctx.guild_id().context("guild only")?;
    let scope = scope_of(guild);
    let config = data.guilds.guild_config(&scope).await?;
    let lang = data.language_of(&config);
    let here = ctx.channel_id();
    let (in_thread, parent) = where_invoked(ctx);
    if let Some(only) = config.channel.as_deref().filter(|c| *c != parent.to_string() && *c != here.to_string()) {
        return refuse(ctx, lang, Word::WrongChannel(only)).await;
    }
    if in_thread && data.game_in(http, here).await?.is_some() {
        return refuse(ctx, lang, Word::AlreadyRunning).await;
    }
    let wanted = Wanted { id: puzzle, difficulty: difficulty.map(Into::into), language: language.map(Into::into) };
    let puzzle = match choose_puzzle(data, &scope, parent, wanted, lang).await? {
        Ok(p) => p,
        Err(text) => return refuse_text(ctx, &text).await,
    };
    defer(ctx).await?;
    let thread = if in_thread { here } else { open_thread(http, here, &puzzle).await? };
    start_in(ctx, thread, &scope, puzzle, &config, lang, ai_players.unwrap_or(0)).await
}

async fn start_in(
    ctx: Context<'_>,
    thread: serenity::ChannelId,
    scope: &str,
    puzzle: Arc<Puzzle>,
    config: &GuildConfig,
    lang: Language,
    ai_players: u32,
) -> Result<(), Error> {
    let data = ctx.data();
    let http = &ctx.serenity_context().http;
    let host = player_of(ctx.author());
    let Some((handle, intro)) = data.open_game(thread, scope, puzzle.clone(), config, host, ai_players).await? else {
        ctx.send(private(&say(lang, &Word::AlreadyRunning))).await?;
        return Ok(());
    };
    let buttons = data.catalogue.buttons(Frontend::Discord, "soup", puzzle.language);
    post_intro(http, thread, &intro.reply, &puzzle, &buttons).await?;
    handle.delivered(&intro).await?;
    let title = neutralise(&puzzle.title);
    ctx.send(
        poise::CreateReply::default()
            .content(say(lang, &Word::StartedIn { thread: thread.get(), title: &title }))
            .allowed_mentions(super::send::no_pings()),
    )
    .await?;
    Ok(())
}

/// Whether the command ran in a thread, and the channel games open in.
fn where_invoked(ctx: Context<'_>) -> (bool, serenity::ChannelId) {
    let here = ctx.channel_id();
    let poise::Context::Application(actx) = ctx else { return (false, here) };
    match actx.interaction.channel.as_ref() {
        Some(c) if is_thread(c.kind) => (true, c.parent_id.unwrap_or(here)),
        _ => (false, here),
    }
}

async fn open_thread(
    http: &serenity::Http,
    channel: serenity::ChannelId,
    puzzle: &Puzzle,
) -> Result<serenity::ChannelId, Error> {
    let name: String = format!("🐢 {}", puzzle.title).chars().take(100).collect();
    let thread = serenity::CreateThread::new(name)
        .kind(serenity::ChannelType::PublicThread)
        .auto_archive_duration(serenity::AutoArchiveDuration::OneDay);
    Ok(channel.create_thread(http, thread).await?.id)
}

async fn post_intro(
    http: &serenity::Http,
    thread: serenity::ChannelId,
    intro: &Reply,
    puzzle: &Puzzle,
    buttons: &[ShownButton],
) -> Result<(), Error> {
    let lang = puzzle.language;
    let mut pieces = super::render::plan(intro, lang, 1);
    let first = pieces.remove(0);
    let embed = super::send::embed(&first).title(neutralise(&puzzle.title).chars().take(256).collect::<String>());
    let m = serenity::CreateMessage::new()
        .embed(embed)
        .components(intro_buttons(buttons))
        .allowed_mentions(super::send::no_pings());
    thread.send_message(http, m).await?;
    Ok(())
}

/// The puzzle for a new game, or the refusal to show.
async fn choose_puzzle(
    data: &Data,
    scope: &str,
    channel: serenity::ChannelId,
    wanted: Wanted,
    lang: Language,
) -> Result<Result<Arc<Puzzle>, String>, Error> {
    Ok(data.bot.choose_puzzle(scope, &channel.to_string(), wanted, lang).await?.map_err(|no| match no {
        NoPuzzle::Unknown { id, near } => say(lang, &Word::UnknownPuzzle { id: &neutralise(&id), near: &near }),
        NoPuzzle::NoMatch => say(lang, &Word::NoPuzzleMatches),
    }))
}

pub fn unknown(lang: Language, id: &str, puzzles: &[Arc<Puzzle>]) -> String {
    say(lang, &Word::UnknownPuzzle { id: &neutralise(id), near: &crate::bot::puzzles::near_ids(id, puzzles) })
}

/// Turtle Soup's moves as the catalogue declares them (`ask`, `guess`,
/// `hint`, `status`, …): generated commands with one handler, which reads
/// the verb back through the catalogue. The bot's own verbs (`start`,
/// `leaderboard`, …) are the functions here.
pub fn play_verbs(catalogue: &Catalogue) -> Vec<poise::Command<Data, Error>> {
    catalogue
        .for_frontend(Frontend::Discord)
        .filter(|v| v.group == "soup" && !matches!(v.action, Some(Move::Bot | Move::Start)))
        .map(|v| super::table_commands::leaf(&v.name, v, soup_verb))
        .collect()
}

fn soup_verb(
    ctx: poise::ApplicationContext<'_, Data, Error>,
) -> poise::BoxFuture<'_, Result<(), poise::FrameworkError<'_, Data, Error>>> {
    Box::pin(async move {
        let Some(verb) = super::table_commands::declared(&ctx) else { return Ok(()) };
        play_verb(ctx.into(), verb, ctx.args)
            .await
            .map_err(|error| poise::FrameworkError::new_command(ctx.into(), error))
    })
}

/// One of Soup's moves: its words neutralised, then played in the thread's game.
async fn play_verb(
    ctx: Context<'_>,
    verb: &crate::core::catalogue::Verb,
    args: &[serenity::ResolvedOption<'_>],
) -> Result<(), Error> {
    let named: Vec<(String, String)> =
        super::table_commands::named(verb, args).into_iter().map(|(n, v)| (n, neutralise(&v))).collect();
    let parsed = ctx.data().catalogue.read_named(Frontend::Discord, "soup", &verb.name, &named, "/soup ");
    let Ok(Parsed::Input { input, .. }) = parsed else { return Ok(()) };
    // A move with words (a question, a guess) counts toward the rate limit.
    let limited = !input.text().is_empty();
    turn_command(ctx, input, limited).await
}

/// Acknowledges the command (a public "thinking…") as its first
/// response: in the HTTP response when Discord POSTed it, otherwise through
/// the acks' client, so the 3-second deadline never waits behind other
/// REST calls.
async fn defer(ctx: Context<'_>) -> Result<(), Error> {
    let thinking = serenity::CreateInteractionResponse::Defer(serenity::CreateInteractionResponseMessage::new());
    first_response(ctx, thinking).await
}

/// Sends `response` as the interaction's first response (nothing when it
/// has one already); prefix commands just defer.
/// A turn through a slash command in a game thread.
async fn turn_command(ctx: Context<'_>, input: TurnInput, limited: bool) -> Result<(), Error> {
    let data = ctx.data();
    let http = &ctx.serenity_context().http;
    let thread = ctx.channel_id();
    let Some((handle, game)) = data.game_in(http, thread).await? else {
        let lang = data.guild_language(ctx.guild_id()).await;
        return refuse(ctx, lang, Word::NoGameHere).await;
    };
    let player = player_of(ctx.author());
    if limited && let Err(wait) = data.limiter.check(&player.id, data.now_ms()) {
        return refuse(ctx, game.puzzle.language, Word::SlowDown(wait)).await;
    }
    defer(ctx).await?;
    let origin = match ctx {
        poise::Context::Application(app) => Origin::Interaction(app.interaction.token.clone()),
        poise::Context::Prefix(p) => Origin::Message(p.msg.id),
    };
    let turn = Turn { thread, handle, game, player, input, event_id: super::types::event_id(ctx) };
    data.take_turn(http, turn, origin).await?;
    Ok(())
}

/// Which games a leaderboard counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum BoardScope {
    #[name = "server"]
    Server,
    #[name = "global"]
    Global,
}

/// The button under `/soup forget-me`.
pub const FORGET_BUTTON: &str = "soup:forget-me";

/// Erase what the bot remembers about you: asks first, privately, with a
/// button.
#[poise::command(slash_command, guild_only, rename = "forget-me")]
pub async fn forget_me(ctx: Context<'_>) -> Result<(), Error> {
    let lang = ctx.data().guild_language(ctx.guild_id()).await;
    let button = serenity::CreateButton::new(FORGET_BUTTON)
        .label(say(lang, &Word::ForgetButton))
        .style(serenity::ButtonStyle::Danger);
    let reply = poise::CreateReply::default()
        .content(say(lang, &Word::ForgetConfirm))
        .ephemeral(true)
        .components(vec![serenity::CreateActionRow::Buttons(vec![button])]);
    ctx.send(reply).await?;
    Ok(())
}

/// The confirm button pressed: the presser is forgotten (only they see it).
pub async fn on_forget(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
) -> Result<(), Error> {
    let lang = data.guild_language(press.guild_id).await;
    let removed = data.forget_player(&player_of(&press.user).id).await?;
    let message = serenity::CreateInteractionResponseMessage::new()
        .content(say(lang, &Word::Forgotten(removed)))
        .ephemeral(true)
        .allowed_mentions(super::send::no_pings());
    data.first_response(&ctx.http, press.id, &press.token, serenity::CreateInteractionResponse::Message(message)).await
}

/// A player's Turtle Soup record on this server.
#[poise::command(slash_command, guild_only)]
pub async fn stats(
    ctx: Context<'_>,
    #[description = "Whose (you, if nobody)"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let data = ctx.data();
    let lang = data.guild_language(ctx.guild_id()).await;
    let user = player.as_ref().unwrap_or_else(|| ctx.author());
    let who = super::games::player_of(user);
    let scope = ctx.guild_id().map(super::games::scope_of);
    let text = data.soup_stats_text(&who.id, &safe_name(&who.name), scope.as_deref(), lang, Markup::Discord).await?;
    send_text(ctx, ReplyKind::Status, text, lang, false).await
}

/// The last game that ended in this thread, as a Markdown file.
#[poise::command(slash_command, guild_only)]
pub async fn transcript(ctx: Context<'_>) -> Result<(), Error> {
    let data = ctx.data();
    let lang = data.guild_language(ctx.guild_id()).await;
    let guild = ctx.guild_id().context("guild only")?;
    let here = ctx.channel_id();
    if data.game_in(&ctx.serenity_context().http, here).await?.is_some() {
        return refuse(ctx, lang, Word::NoTranscriptYet(true)).await;
    }
    let Some(found) = data.soup_transcript(&super::games::thread_key(here), &scope_of(guild)).await? else {
        return refuse(ctx, lang, Word::NoTranscriptYet(false)).await;
    };
    defer(ctx).await?;
    let file = serenity::CreateAttachment::bytes(neutralise(&found.markdown).into_bytes(), found.name);
    let reply = poise::CreateReply::default()
        .content(say(lang, &Word::TranscriptOf(&safe_name(&found.puzzle.title))))
        .attachment(file)
        .allowed_mentions(super::send::no_pings());
    ctx.send(reply).await?;
    Ok(())
}

/// Show the top scores.
#[poise::command(slash_command, guild_only)]
pub async fn leaderboard(
    ctx: Context<'_>,
    #[description = "This server (the default) or everywhere"] scope: Option<BoardScope>,
) -> Result<(), Error> {
    let data = ctx.data();
    let lang = data.guild_language(ctx.guild_id()).await;
    let global = scope == Some(BoardScope::Global);
    let server = ctx.guild_id().map(super::games::scope_of).filter(|_| !global);
    let rows = crate::bot::boards::leaderboard(data.store.as_ref(), server.as_deref()).await?;
    let mut text = format!("**{}**\n", say(lang, &Word::Leaderboard { global }));
    if rows.is_empty() {
        text.push_str(&say(lang, &Word::NoScores));
    }
    text.push_str(&crate::bot::leaderboard_lines(&rows, safe_name));
    send_text(ctx, ReplyKind::Status, text, lang, false).await
}

/// List the puzzles.
#[poise::command(slash_command, guild_only)]
pub async fn puzzles(
    ctx: Context<'_>,
    #[description = "Only puzzles in this language"] language: Option<LanguageChoice>,
) -> Result<(), Error> {
    let data = ctx.data();
    let guild = ctx.guild_id().context("guild only")?;
    let lang = data.guild_language(Some(guild)).await;
    let language: Option<Language> = language.map(Into::into);
    let lines: Vec<String> = data
        .playable_puzzles(&scope_of(guild))
        .await?
        .iter()
        .filter(|p| language.is_none_or(|l| p.language == l))
        .map(|p| format!("`{}` · {} · {} · {}", p.id, p.language.code(), p.difficulty, neutralise(&p.title)))
        .collect();
    let text = format!("**{}**\n{}", say(lang, &Word::Puzzles), lines.join("\n"));
    send_text(ctx, ReplyKind::Status, text, lang, true).await
}

/// Show the commands.
#[poise::command(slash_command, guild_only)]
pub async fn help(ctx: Context<'_>) -> Result<(), Error> {
    let data = ctx.data();
    let lang = data.guild_language(ctx.guild_id()).await;
    send_text(ctx, ReplyKind::Status, help_text(data, lang), lang, true).await
}

/// Turtle Soup's commands from the catalogue, players first, then one
/// line for each other game (its `start`; Discord's command menu lists the
/// rest of its verbs).
pub fn help_text(data: &Data, lang: Language) -> String {
    let mut players = Vec::new();
    let mut moderators = Vec::new();
    let mut games: Vec<String> = Vec::new();
    for verb in data.catalogue.for_frontend(Frontend::Discord) {
        if !verb.group.starts_with("soup") {
            if verb.name == "start" {
                games.push(format!("`/{} start` {}", verb.group, verb.help(lang)));
            }
            continue;
        }
        let opts: String = verb
            .options
            .iter()
            .map(|o| if o.required { format!(" <{}>", o.name) } else { format!(" [{}]", o.name) })
            .collect();
        let line = format!("`/{} {}{opts}` {}", verb.group, verb.name, verb.help(lang));
        match verb.who {
            crate::core::catalogue::Who::Player => players.push(line),
            crate::core::catalogue::Who::Moderator => moderators.push(line),
        }
    }
    let mut text = format!(
        "**{}**\n{}\n\n**{}**\n{}",
        say(lang, &Word::Players),
        players.join("\n"),
        say(lang, &Word::Moderators),
        moderators.join("\n")
    );
    if !games.is_empty() {
        text.push_str(&format!("\n\n**{}**\n{}", say(lang, &Word::OtherGames), games.join("\n")));
    }
    text
}

/// Autocomplete: puzzles a new game here may use.
pub async fn autocomplete_playable(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let puzzles = match ctx.guild_id() {
        Some(guild) => ctx.data().playable_puzzles(&scope_of(guild)).await.unwrap_or_default(),
        None => Vec::new(),
    };
    puzzle_choices(&puzzles, partial)
}

pub fn puzzle_choices(puzzles: &[Arc<Puzzle>], partial: &str) -> serenity::CreateAutocompleteResponse {
    let partial = partial.to_lowercase();
    let choices = puzzles
        .iter()
        .filter(|p| p.id.contains(&partial) || p.title.to_lowercase().contains(&partial))
        .take(25)
        .map(|p| {
            let label: String = format!("{} · {}", p.title, p.id).chars().take(100).collect();
            serenity::AutocompleteChoice::new(label, p.id.clone())
        })
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}
