//! The Discord front end (serenity + poise): group Turtle Soup in channel
//! threads, with moderator commands. The same engine and command catalogue
//! as the terminal.
//!
//! It only translates. A slash command, thread message or button becomes
//! an `Inbound` (event id = the message or interaction id, player
//! `discord:<user id>`) for the thread's session actor; the `Delivery` that
//! comes back is rendered (mentions neutralised, split at 2,000 characters
//! or filed, verdicts colour-coded), sent, and marked delivered. Game rules
//! live in `core`; this is the only module that names serenity or poise.
//!
//! - `soup.rs`, `admin.rs`: Turtle Soup's command groups;
//!   `table_commands.rs`: one group per hosted seated game, built from the
//!   catalogue with one handler; `content.rs`: a server's own content for
//!   a game; `tables.rs`: a table's delivery (lobby and vote buttons,
//!   private messages as ephemeral follow-ups or DMs); `events.rs`: messages,
//!   buttons, threads archived or deleted; `errors.rs`: the one `on_error`.
//! - `endpoint.rs`: the Interactions Endpoint URL (Discord POSTs signed
//!   interactions; the first response can be the HTTP response).
//! - `games.rs`: thread ↔ session (over `crate::bot`, which holds the
//!   live games, the puzzle choice and the rate limiter);
//!   `turns.rs`: one turn in, its reply out, the end-of-game wrap-up.
//! - `render.rs`, `send.rs`, `words.rs`: text and its delivery.
//! - `limiter.rs`: Discord's rate limits kept in front of a proxy URL,
//!   where serenity's own limiter cannot run.
//! - `invite.rs`: the link that adds the bot to a server, with exactly the
//!   permissions `PERMISSIONS` lists.
//! - `fake/`: a local fake of Discord's REST API and gateway for tests and
//!   `bench.rs` (both only with the `fakes` feature).

pub mod admin;
mod answer;
#[cfg(feature = "fakes")]
pub mod bench;
pub mod config;
mod content;
pub mod endpoint;
mod errors;
mod events;
#[cfg(feature = "fakes")]
pub mod fake;
pub mod games;
pub mod invite;
mod limiter;
pub mod render;
pub(crate) mod send;
pub mod soup;
mod table_commands;
pub mod tables;
mod turns;
pub mod types;
pub mod words;

use std::future::Future;
use std::sync::Arc;

use anyhow::Context as _;
use poise::serenity_prelude as serenity;

use crate::core::catalogue::{Catalogue, Frontend};

pub use config::DiscordSettings;
pub use send::SLOW_DOWN_EMOJI;
pub use types::{Data, Defaults, Error, ModelFactory, Parts};

/// Discord caps command descriptions at 100 characters.
const MAX_DESCRIPTION: usize = 100;

/// The slash command tree, with descriptions (en, zh) from the catalogue:
/// Turtle Soup's groups, and one group for each hosted seated game whose
/// group the catalogue lists for Discord.
pub fn commands(catalogue: &Catalogue, seated: &[&str]) -> Vec<poise::Command<Data, Error>> {
    let mut soup = soup::soup();
    soup.subcommands.extend(soup::play_verbs(catalogue));
    let mut commands = vec![soup, admin::soup_admin()];
    for group in seated {
        if catalogue.for_frontend(Frontend::Discord).any(|v| v.group == *group) {
            commands.push(table_commands::command_for(group, catalogue));
        }
    }
    for top in &mut commands {
        let group = top.name.clone();
        describe(&mut top.subcommands, &group, "", catalogue);
    }
    commands
}

fn describe(commands: &mut [poise::Command<Data, Error>], group: &str, path: &str, catalogue: &Catalogue) {
    for command in commands {
        let name = if path.is_empty() { command.name.to_string() } else { format!("{path} {}", command.name) };
        if !command.subcommands.is_empty() {
            describe(&mut command.subcommands, group, &name, catalogue);
            continue;
        }
        let Some(verb) = catalogue.for_frontend(Frontend::Discord).find(|v| v.group == group && v.name == name) else {
            continue;
        };
        command.description = Some(cut(&verb.help.en).into());
        let zh = command.description_localizations.to_mut();
        zh.push(("zh-CN".into(), cut(&verb.help.zh).into()));
        zh.push(("zh-TW".into(), cut(&verb.help.zh).into()));
    }
}

fn cut(text: &str) -> String {
    text.chars().take(MAX_DESCRIPTION).collect()
}

/// A leaf verb of the command tree, named as in the catalogue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OfferedVerb {
    pub group: String,
    /// "ask", or "puzzle add" for a verb below a sub-group.
    pub name: String,
    /// Option names and whether each is required.
    pub options: Vec<(String, bool)>,
}

/// Every leaf verb a command tree offers.
pub fn offered_verbs(commands: &[poise::Command<Data, Error>]) -> Vec<OfferedVerb> {
    fn walk(commands: &[poise::Command<Data, Error>], group: &str, path: &str, out: &mut Vec<OfferedVerb>) {
        for c in commands {
            let name = if path.is_empty() { c.name.to_string() } else { format!("{path} {}", c.name) };
            if c.subcommands.is_empty() {
                let options = c.parameters.iter().map(|p| (p.name.to_string(), p.required)).collect();
                out.push(OfferedVerb { group: group.to_string(), name, options });
            } else {
                walk(&c.subcommands, group, &name, out);
            }
        }
    }
    let mut out = Vec::new();
    for top in commands {
        walk(&top.subcommands, &top.name, "", &mut out);
    }
    out
}

/// Gateway intents: guilds (threads), guild messages, and message content
/// when configured (privileged; slash commands work without it).
pub fn intents(settings: &DiscordSettings) -> serenity::GatewayIntents {
    let mut intents = serenity::GatewayIntents::GUILDS | serenity::GatewayIntents::GUILD_MESSAGES;
    if settings.message_content {
        intents |= serenity::GatewayIntents::MESSAGE_CONTENT;
    }
    intents
}

/// What the bot does in a server's channels, one permission each; the
/// invite link (`invite.rs`, `echoes discord invite`) asks for exactly
/// these. Answers to interactions (every slash command's reply and
/// follow-ups, with their embeds and files) and a seat's DMs need none.
/// `MANAGE_THREADS` is read from the moderator (`admin.rs`), never needed
/// by the bot.
pub const PERMISSIONS: &[serenity::Permissions] = &[
    // See the channel a game opens from and the messages in its threads.
    serenity::Permissions::VIEW_CHANNEL,
    // `/soup start` and a hosted game's `start` open a public thread
    // (`soup::open_thread`, `table_commands`).
    serenity::Permissions::CREATE_PUBLIC_THREADS,
    // Whatever the bot posts outside an interaction's answer goes in a game
    // thread (`send::post`, `tables`, `turns`, `events`), never in the
    // channel itself.
    serenity::Permissions::SEND_MESSAGES_IN_THREADS,
    // Replies are embeds, coloured by verdict (`send::embed`).
    serenity::Permissions::EMBED_LINKS,
    // A reply longer than `max_reply_messages` goes as a file (`send::message`, `turns`).
    serenity::Permissions::ATTACH_FILES,
    // A reply answers the player's message (a message reference), and a
    // reaction is put on a message the bot reads.
    serenity::Permissions::READ_MESSAGE_HISTORY,
    // The reaction on a message over the rate limit (`SLOW_DOWN_EMOJI`).
    serenity::Permissions::ADD_REACTIONS,
];

/// Every permission in `PERMISSIONS`, as one set.
pub fn permissions() -> serenity::Permissions {
    PERMISSIONS.iter().fold(serenity::Permissions::empty(), |all, p| all | *p)
}

pub fn framework(data: Data) -> poise::Framework<Data, Error> {
    let options = poise::FrameworkOptions {
        commands: commands(&data.catalogue, &data.hosted.iter().map(|g| g.group()).collect::<Vec<_>>()),
        on_error: errors::on_error,
        event_handler: |framework, event| Box::pin(events::on_event(framework, event)),
        allowed_mentions: Some(send::no_pings()),
        ..Default::default()
    };
    let dev_guild = data.settings.dev_guild;
    poise::Framework::builder()
        .options(options)
        .initialize_owners(false)
        .setup(move |ctx, _ready, framework| {
            Box::pin(async move {
                let commands = &framework.options().commands;
                if dev_guild == 0 {
                    poise::builtins::register_globally(ctx, commands).await?;
                } else {
                    poise::builtins::register_in_guild(ctx, commands, serenity::GuildId::new(dev_guild)).await?;
                }
                Ok(data)
            })
        })
        .build()
}

/// Where the bot's REST calls and gateway URL come from.
#[derive(Debug, Clone)]
pub struct Endpoint {
    pub token: String,
    /// `None`: discord.com. `Some("http://127.0.0.1:PORT")`: every REST
    /// call (and so the gateway URL) goes there, with serenity's rate
    /// limiter off (it would send to discord.com).
    pub proxy: Option<String>,
    /// Speak HTTP/2 to the proxy over plain TCP (prior knowledge). The bot
    /// reaches discord.com over HTTP/2 (negotiated in TLS), one connection
    /// for every call; a local fake that speaks it too sees the same traffic.
    pub http2: bool,
    /// Serve Discord's Interactions Endpoint URL too (interactions then
    /// arrive as signed POSTs instead of on the gateway).
    pub interactions: Option<InteractionsEndpoint>,
    /// Keep Discord's rate limits in our relay (`limiter.rs`) in front of
    /// `proxy` or discord.com, serenity's own limiter off: what a real bot
    /// does (serenity's misses two of Discord's rules), and a test whose
    /// fake enforces limits. Off, calls go straight to `proxy` with no
    /// limiter at all (a fake with no limits).
    pub keep_limits: bool,
}

/// Where the Interactions Endpoint listens, and the key requests are
/// signed with.
#[derive(Debug, Clone)]
pub struct InteractionsEndpoint {
    /// e.g. `0.0.0.0:8080`; port 0 takes any free port.
    pub bind: String,
    /// The app's public key, hex (developer portal → General Information).
    pub public_key: String,
}

/// A bot connected (or connecting) to the gateway.
pub struct RunningBot {
    pub shard_manager: Arc<serenity::ShardManager>,
    pub http: Arc<serenity::Http>,
    /// The Interactions Endpoint's URL (`http://ADDR/interactions`) when
    /// it serves one.
    pub interactions_url: Option<String>,
    task: tokio::task::JoinHandle<Result<(), serenity::Error>>,
    endpoint_task: Option<tokio::task::JoinHandle<()>>,
    /// The rate-limit relay in front of a proxy, when kept.
    limiter_task: Option<tokio::task::JoinHandle<()>>,
    /// The bot's live games, let go when it stops.
    bot: Arc<crate::bot::Bot>,
}

impl RunningBot {
    /// Turtle Soup games this process runs now (threads it has seen).
    pub fn live_games(&self) -> usize {
        self.bot.games.len()
    }

    /// Disconnects and waits for the client to stop.
    pub async fn stop(self) {
        if let Some(endpoint) = &self.endpoint_task {
            endpoint.abort();
        }
        self.shard_manager.shutdown_all().await;
        let _ = self.task.await;
        if let Some(limiter) = &self.limiter_task {
            limiter.abort();
        }
        // This process no longer plays its sessions: their actors and
        // timers stop, also where a handle is still held.
        self.bot.shut_down();
    }

    /// Waits until the client stops by itself (a fatal gateway error).
    pub async fn join(self) -> anyhow::Result<()> {
        self.task.await.context("the Discord client task panicked")?.context("the Discord connection failed")
    }
}

/// Builds the client and starts it in the background.
pub async fn spawn(mut data: Data, endpoint: &Endpoint) -> anyhow::Result<RunningBot> {
    let (endpoint, limiter_task) = limiter::in_front(endpoint).await?;
    let endpoint = &endpoint;
    // Acks get a client (and so an HTTP/2 connection) of their own: a
    // 3-second deadline must not wait for stream slots behind follow-ups.
    data.acks = Some(Arc::new(rest_client(endpoint)?.build()));
    let listening = match &endpoint.interactions {
        Some(e) => {
            let key = endpoint::public_key(&e.public_key)?;
            let listener = tokio::net::TcpListener::bind(&e.bind)
                .await
                .with_context(|| format!("listening for Discord interactions on {}", e.bind))?;
            Some((listener, key))
        }
        None => None,
    };
    let inbox = data.inbox.clone();
    let intents = intents(&data.settings);
    let courier_data = data.clone();
    let mut client = serenity::ClientBuilder::new_with_http(rest_client(endpoint)?.build(), intents)
        .framework(endpoint::Shared::new(framework(data), inbox.clone()))
        .await
        .context("building the Discord client")?;
    let (mut interactions_url, mut endpoint_task) = (None, None);
    if let Some((listener, key)) = listening {
        let url = format!("http://{}{}", listener.local_addr()?, endpoint::PATH);
        tracing::info!(url = %url, "Discord Interactions Endpoint listening");
        endpoint_task = Some(endpoint::serve(listener, inbox, key));
        interactions_url = Some(url);
    }
    let shard_manager = client.shard_manager.clone();
    let http = client.http.clone();
    // Deadlines and AI seats' moves are shown in their threads.
    courier_data.engine.set_courier(Arc::new(tables::DiscordCourier::new(&courier_data, http.clone())));
    let shards = courier_data.settings.shards;
    let task = tokio::spawn(async move {
        match shards {
            Some(s) => client.start_shard_range(s.first..s.last, s.total).await,
            None => client.start().await,
        }
    });
    let bot = courier_data.bot.clone();
    Ok(RunningBot { shard_manager, http, interactions_url, task, endpoint_task, limiter_task, bot })
}

/// A REST client for `endpoint`: discord.com, or a local proxy with
/// serenity's rate limiter off (HTTP/2 by prior knowledge when asked).
fn rest_client(endpoint: &Endpoint) -> anyhow::Result<serenity::HttpBuilder> {
    let mut http = serenity::HttpBuilder::new(&endpoint.token);
    if let Some(proxy) = &endpoint.proxy {
        http = http.proxy(proxy.clone()).ratelimiter_disabled(true);
        if endpoint.http2 {
            let client =
                reqwest::Client::builder().http2_prior_knowledge().build().context("building the HTTP client")?;
            http = http.client(client);
        }
    }
    Ok(http)
}

/// Runs the bot until `shutdown` completes or the connection fails.
pub async fn run(data: Data, endpoint: &Endpoint, shutdown: impl Future<Output = ()>) -> anyhow::Result<()> {
    let bot = spawn(data, endpoint).await?;
    let manager = bot.shard_manager.clone();
    tokio::select! {
        result = bot.join() => result,
        () = shutdown => {
            manager.shutdown_all().await;
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests;
