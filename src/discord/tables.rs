//! Seated games on Discord (`bot::tables`), their delivery: vote buttons
//! under a ballot, lobby buttons, and delivery by audience: public messages in the game's
//! thread, a seat's message as an ephemeral follow-up when that seat
//! asked, otherwise as a DM; when DMs are closed, a public line (without
//! the secret) tells the player to use `/… whisper`. A seat's message is
//! never posted in the thread, also not after a restart.

use std::sync::Arc;

use poise::serenity_prelude as serenity;
use serenity::{
    Builder as _, ButtonStyle, CreateActionRow, CreateButton, CreateInteractionResponseFollowup, CreateMessage,
    Mentionable as _,
};

use crate::bot::LiveTable;
use crate::core::actor::{Courier, Delivery, Inbound};
use crate::core::catalogue::{Frontend, Move};
use crate::core::game::{Audience, Reply, ReplyKind, TurnInput};
use crate::core::store::OutboxItem;
use crate::core::vocab::Language;
use crate::core::vocab::Player;

use super::games::{player_of, thread_key};
use super::render::neutralise;
use super::send::{message, no_pings};
use super::types::{Data, Error};
use super::words::{Word, say};

/// Vote buttons carry `table:vote:<option id>`.
pub const VOTE_BUTTON: &str = "table:vote:";

/// A plain message in the thread of a game that plays messages (the Lore
/// RPG): a turn by its author, answered in the thread.
pub async fn on_table_message(ctx: &serenity::Context, data: &Data, msg: &serenity::Message) -> Result<(), Error> {
    let http = &ctx.http;
    let Some(table) = data.table_in(http, msg.channel_id).await? else { return Ok(()) };
    if !table.game.plays_messages() {
        return Ok(());
    }
    let player = player_of(&msg.author);
    if data.limiter.check(&player.id, data.now_ms()).is_err() {
        msg.react(http, serenity::ReactionType::Unicode(super::send::SLOW_DOWN_EMOJI.to_string())).await?;
        return Ok(());
    }
    if let Err(e) = msg.channel_id.broadcast_typing(http).await {
        tracing::debug!(error = %e, "typing indicator failed");
    }
    let inbound = Inbound::new(player.clone(), TurnInput::Say(neutralise(&msg.content))).with_event(msg.id.to_string());
    data.play_table(http, msg.channel_id, table, inbound, &player, None).await
}

/// A turn's steps shown in the thread while it runs: one message, posted
/// at the first step, edited at each next one, deleted at the end.
struct ProgressPost {
    tx: tokio::sync::mpsc::UnboundedSender<Option<String>>,
    task: tokio::task::JoinHandle<()>,
}

impl ProgressPost {
    fn start(http: Arc<serenity::Http>, thread: serenity::ChannelId) -> ProgressPost {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Option<String>>();
        let task = tokio::spawn(async move {
            let mut posted: Option<serenity::MessageId> = None;
            'steps: while let Some(step) = rx.recv().await {
                let Some(mut text) = step else { break };
                // Only the latest step is worth showing.
                while let Ok(next) = rx.try_recv() {
                    match next {
                        Some(newer) => text = newer,
                        None => break 'steps,
                    }
                }
                let text = format!("⏳ {text}…");
                match posted {
                    None => {
                        let post = CreateMessage::new().content(text).allowed_mentions(no_pings());
                        posted = thread.send_message(http.as_ref(), post).await.ok().map(|m| m.id);
                    }
                    Some(id) => {
                        let edit = serenity::EditMessage::new().content(text);
                        if let Err(e) = thread.edit_message(http.as_ref(), id, edit).await {
                            tracing::debug!(error = %e, "could not update the progress message");
                        }
                    }
                }
            }
            if let Some(id) = posted
                && let Err(e) = thread.delete_message(http.as_ref(), id).await
            {
                tracing::debug!(error = %e, "could not remove the progress message");
            }
        });
        ProgressPost { tx, task }
    }

    fn callback(&self) -> Arc<dyn Fn(crate::core::services::Progress) + Send + Sync> {
        let tx = self.tx.clone();
        Arc::new(move |p: crate::core::services::Progress| {
            if let crate::core::services::Progress::Step(step) = p {
                let _ = tx.send(Some(step));
            }
        })
    }

    async fn finish(self) {
        let _ = self.tx.send(None);
        let _ = self.task.await;
    }
}

/// How the turn's own reply goes back.
pub struct Answer {
    /// The interaction's token: its follow-ups answer the invoker.
    pub token: String,
    /// The reply is the (public) follow-up; otherwise the follow-up is a
    /// private "done" and the reply is posted in the thread.
    pub public_reply: bool,
}

impl Data {
    /// The seated game in a thread, posting what a restart left unsent
    /// (public rows in the thread, seat rows privately).
    pub async fn table_in(
        &self,
        http: &serenity::Http,
        thread: serenity::ChannelId,
    ) -> Result<Option<LiveTable>, Error> {
        let Some(found) = self.bot.find_table(&thread_key(thread)).await? else { return Ok(None) };
        for item in found.unsent.iter().chain(&found.unsent_private) {
            self.deliver_row(http, thread, &found.table, item).await?;
        }
        Ok(Some(found.table))
    }

    async fn deliver_row(
        &self,
        http: &serenity::Http,
        thread: serenity::ChannelId,
        table: &LiveTable,
        item: &OutboxItem,
    ) -> Result<(), Error> {
        let reply = Reply::new(item.kind, item.body.clone());
        match &item.audience {
            Audience::Everyone => self.post_public(http, thread, &reply, table.language, &[]).await?,
            Audience::Seat(seat) => self.direct(http, thread, table, seat, &reply).await?,
            Audience::Moderators => {
                tracing::info!(session = %table.handle.id, "a message for moderators was not posted")
            }
        }
        crate::bot::delivery::shown(self.store.as_ref(), item.id).await?;
        Ok(())
    }

    /// Plays a table turn on the game runtime and shows what it says.
    pub async fn play_table(
        &self,
        http: &Arc<serenity::Http>,
        thread: serenity::ChannelId,
        table: LiveTable,
        mut inbound: Inbound,
        player: &Player,
        answer: Option<Answer>,
    ) -> Result<(), Error> {
        let (data, http, player) = (self.clone(), http.clone(), player.clone());
        crate::bot::runtime::on_games(async move {
            // A game with named steps (the Lore RPG) shows them as it goes.
            let shown = table.game.plays_messages().then(|| ProgressPost::start(http.clone(), thread));
            if let Some(post) = &shown {
                inbound.progress = Some(post.callback());
            }
            let delivery = table.handle.send(inbound).await;
            if let Some(post) = shown {
                post.finish().await;
            }
            data.deliver_table(&http, thread, &table, &delivery?, &player, answer.as_ref()).await
        })
        .await?
    }

    /// Shows a table turn's reply and messages by audience, marks them
    /// delivered, and unbinds the thread when the game ended.
    pub async fn deliver_table(
        &self,
        http: &serenity::Http,
        thread: serenity::ChannelId,
        table: &LiveTable,
        delivery: &Delivery,
        invoker: &Player,
        answer: Option<&Answer>,
    ) -> Result<(), Error> {
        let lang = table.language;
        let refused = delivery.reply.kind == ReplyKind::Rejected;
        let ballot = !delivery.choices.is_empty();
        // A new phase's deadline as a Discord timestamp, which counts down live.
        let mut reply = delivery.reply.clone();
        if let Some(ms) = delivery.deadline_ms.filter(|_| !refused && !delivery.duplicate) {
            reply.text.push_str(&format!("\n⏳ <t:{}:R>", ms.div_euclid(1000)));
        }
        match answer {
            Some(a) if refused || delivery.duplicate => {
                self.followup(http, &a.token, &delivery.reply.text, true).await?
            }
            Some(a) if a.public_reply && !ballot => self.followup(http, &a.token, &reply.text, false).await?,
            Some(a) => {
                self.followup(http, &a.token, &format!("✅ {}", say(lang, &Word::Done)), true).await?;
                self.post_public(http, thread, &reply, lang, &delivery.choices).await?;
            }
            None => self.post_public(http, thread, &reply, lang, &delivery.choices).await?,
        }
        for m in &delivery.messages {
            match &m.audience {
                Audience::Everyone => self.post_public(http, thread, &m.reply, lang, &[]).await?,
                Audience::Seat(seat) if *seat == invoker.id && answer.is_some() => {
                    let token = &answer.map(|a| a.token.clone()).unwrap_or_default();
                    self.followup(http, token, &m.reply.text, true).await?;
                }
                Audience::Seat(seat) => self.direct(http, thread, table, seat, &m.reply).await?,
                Audience::Moderators => {
                    tracing::info!(session = %table.handle.id, "a message for moderators was not posted")
                }
            }
        }
        table.handle.delivered(delivery).await?;
        if delivery.over && !delivery.duplicate {
            self.bot.end_table(&thread_key(thread)).await?;
        }
        Ok(())
    }

    async fn followup(&self, http: &serenity::Http, token: &str, text: &str, ephemeral: bool) -> Result<(), Error> {
        CreateInteractionResponseFollowup::new()
            .content(neutralise(text))
            .ephemeral(ephemeral)
            .allowed_mentions(no_pings())
            .execute(http, (None, token))
            .await?;
        Ok(())
    }

    /// Posts in the thread, with vote buttons when the reply opens a ballot.
    async fn post_public(
        &self,
        http: &serenity::Http,
        thread: serenity::ChannelId,
        reply: &Reply,
        lang: Language,
        choices: &[(String, String)],
    ) -> Result<(), Error> {
        let max = self.settings.max_reply_messages;
        let pieces = super::render::plan(reply, lang, max);
        for (i, piece) in pieces.iter().enumerate() {
            let mut m: CreateMessage = message(piece, None);
            if i + 1 == pieces.len() && !choices.is_empty() {
                m = m.components(vote_buttons(choices));
            } else if i + 1 == pieces.len() && reply.kind == ReplyKind::Lobby {
                m = m.components(lobby_buttons(lang));
            }
            thread.send_message(http, m).await?;
        }
        Ok(())
    }

    /// A seat's private message: a DM; when DMs are closed, a public line
    /// without the secret. Agents' seats read their state, not messages.
    async fn direct(
        &self,
        http: &serenity::Http,
        thread: serenity::ChannelId,
        table: &LiveTable,
        seat: &str,
        reply: &Reply,
    ) -> Result<(), Error> {
        let Some(user) = seat.strip_prefix("discord:").and_then(|id| id.parse::<u64>().ok()) else { return Ok(()) };
        let user = serenity::UserId::new(user);
        let sent = async {
            let dm = user.create_dm_channel(http).await?;
            dm.id
                .send_message(http, CreateMessage::new().content(neutralise(&reply.text)).allowed_mentions(no_pings()))
                .await
        };
        if let Err(e) = sent.await {
            tracing::info!(user = %user, error = %e, "cannot DM a seat; telling them to use whisper");
            let group = table.game.group();
            // The verb that shows a seat its secret again, as the game named it.
            let verb = self
                .catalogue
                .for_frontend(Frontend::Discord)
                .find(|v| v.group == group && v.action == Some(Move::Whisper))
                .map_or("whisper", |v| v.name.as_str());
            let closed = say(table.language, &Word::DmsClosed { group, verb });
            let text = format!("{}: {closed}", user.mention());
            thread.send_message(http, CreateMessage::new().content(text).allowed_mentions(no_pings())).await?;
        }
        Ok(())
    }
}

fn vote_buttons(choices: &[(String, String)]) -> Vec<CreateActionRow> {
    choices
        .chunks(5)
        .take(5)
        .map(|row| {
            let buttons = row
                .iter()
                .map(|(id, label)| {
                    let label: String = neutralise(label).chars().take(80).collect();
                    CreateButton::new(format!("{VOTE_BUTTON}{id}")).label(label).style(ButtonStyle::Secondary)
                })
                .collect();
            CreateActionRow::Buttons(buttons)
        })
        .collect()
}

/// Lobby buttons carry `table:join`, `table:leave` and `table:begin`.
pub const LOBBY_BUTTON: &str = "table:";

/// Join / Leave / Start under a lobby.
fn lobby_buttons(lang: Language) -> Vec<CreateActionRow> {
    let button = |verb: &str, word: Word<'_>, style| {
        CreateButton::new(format!("{LOBBY_BUTTON}{verb}")).label(say(lang, &word)).style(style)
    };
    vec![CreateActionRow::Buttons(vec![
        button("join", Word::ButtonJoin, ButtonStyle::Primary),
        button("leave", Word::ButtonLeave, ButtonStyle::Secondary),
        button("begin", Word::ButtonBegin, ButtonStyle::Success),
    ])]
}

/// A lobby button pressed (`join`, `leave`, `begin`): played like the
/// verb, acknowledged privately; `false` for another button.
pub async fn on_lobby_button(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    verb: &str,
) -> Result<bool, Error> {
    let input = match verb {
        "join" => TurnInput::Join,
        "leave" => TurnInput::Leave,
        "begin" => TurnInput::Begin,
        _ => return Ok(false),
    };
    play_button(ctx, data, press, input).await?;
    Ok(true)
}

/// A vote button pressed in a table's thread: acknowledged privately,
/// played like `/… vote`.
pub async fn on_vote_button(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    option: &str,
) -> Result<(), Error> {
    play_button(ctx, data, press, TurnInput::Vote(option.to_string())).await
}

/// A table's button: deferred privately, then played as `input` by the
/// presser (a moderator's press counts as a moderator's).
async fn play_button(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    input: TurnInput,
) -> Result<(), Error> {
    let http = &ctx.http;
    let thinking =
        serenity::CreateInteractionResponse::Defer(serenity::CreateInteractionResponseMessage::new().ephemeral(true));
    data.first_response(http, press.id, &press.token, thinking).await?;
    let Some(table) = data.table_in(http, press.channel_id).await? else {
        let lang = data.guild_language(press.guild_id).await;
        return data.followup(http, &press.token, &say(lang, &Word::NoGameHere), true).await;
    };
    let player = player_of(&press.user);
    let mut inbound = Inbound::new(player.clone(), input).with_event(press.id.to_string());
    let perms = press.member.as_ref().and_then(|m| m.permissions).unwrap_or(serenity::Permissions::empty());
    inbound.moderator =
        perms.contains(serenity::Permissions::MANAGE_THREADS) || perms.contains(serenity::Permissions::ADMINISTRATOR);
    let answer = Answer { token: press.token.clone(), public_reply: false };
    data.play_table(http, press.channel_id, table, inbound, &player, Some(answer)).await
}

/// Shows the replies of table turns no command waits for (a deadline
/// passed, an AI seat moved) in their threads. It holds the bot weakly:
/// the engine holds the courier, and a stopped bot must not live on
/// through it.
pub struct DiscordCourier {
    bot: std::sync::Weak<crate::bot::Bot>,
    settings: Arc<super::DiscordSettings>,
    limiter: Arc<crate::bot::limits::RateLimiter>,
    inbox: Arc<super::types::Inbox>,
    http: Arc<serenity::Http>,
}

impl DiscordCourier {
    pub fn new(data: &Data, http: Arc<serenity::Http>) -> DiscordCourier {
        DiscordCourier {
            bot: Arc::downgrade(&data.bot),
            settings: data.settings.clone(),
            limiter: data.limiter.clone(),
            inbox: data.inbox.clone(),
            http,
        }
    }

    fn data(&self) -> Option<Data> {
        let (settings, limiter, inbox) = (self.settings.clone(), self.limiter.clone(), self.inbox.clone());
        Some(Data { bot: self.bot.upgrade()?, settings, limiter, acks: None, inbox })
    }
}

impl Courier for DiscordCourier {
    fn reopen(&self, session_id: &str) {
        let Some(data) = self.data() else { return };
        let (http, session_id) = (self.http.clone(), session_id.to_string());
        tokio::spawn(async move {
            match data.bot.reopen_session(&session_id).await {
                Ok(unsent) => {
                    for delivery in unsent {
                        if let Err(e) = data.courier_deliver(&http, &session_id, &delivery).await {
                            tracing::warn!(session = %session_id, error = %format!("{e:#}"), "could not show an unsent reply");
                        }
                    }
                }
                Err(e) => {
                    tracing::warn!(session = %session_id, error = %format!("{e:#}"), "could not reopen a session")
                }
            }
        });
    }

    fn deliver(&self, session_id: &str, delivery: Delivery) {
        let Some(data) = self.data() else { return };
        let (http, session_id) = (self.http.clone(), session_id.to_string());
        tokio::spawn(async move {
            if let Err(e) = data.courier_deliver(&http, &session_id, &delivery).await {
                tracing::warn!(session = %session_id, error = %format!("{e:#}"), "could not show an engine turn");
            }
        });
    }
}

impl Data {
    /// A Soup turn nobody's command waits for (an AI player's): posted
    /// in the game's thread, and the game wrapped up when it ended.
    async fn soup_courier(&self, http: &serenity::Http, session_id: &str, delivery: &Delivery) -> Result<(), Error> {
        let Some((key, found)) = self.bot.soup_by_session(session_id).await? else { return Ok(()) };
        let Some(thread) = key.strip_prefix("discord:").and_then(|t| t.parse::<u64>().ok()) else { return Ok(()) };
        let thread = serenity::ChannelId::new(thread);
        let lang = found.game.puzzle.language;
        let (max, row) = (self.settings.max_reply_messages, delivery.outbox_id);
        super::send::post(http, thread, &delivery.reply, lang, max, None, row).await?;
        found.handle.delivered(delivery).await?;
        if crate::core::actor::is_final(delivery.reply.kind) && !delivery.duplicate {
            self.finish(http, thread, &found.game).await?;
        } else if delivery.over {
            self.close_game(thread).await?;
        }
        Ok(())
    }

    async fn courier_deliver(&self, http: &serenity::Http, session_id: &str, delivery: &Delivery) -> Result<(), Error> {
        let Some(thread_key) = self.bot.tables.thread_of(session_id) else {
            return self.soup_courier(http, session_id, delivery).await;
        };
        let Some(thread) = thread_key.strip_prefix("discord:").and_then(|t| t.parse::<u64>().ok()) else {
            return Ok(());
        };
        let thread = serenity::ChannelId::new(thread);
        let Some(table) = self.bot.find_table(&thread_key).await?.map(|f| f.table) else { return Ok(()) };
        let nobody = Player { id: String::new(), name: String::new() };
        self.deliver_table(http, thread, &table, delivery, &nobody, None).await
    }
}
