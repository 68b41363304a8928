//! Seated games on Slack (`bot::tables`): `/<group> <verb>` for each hosted
//! game (`/undercover join`, verbs from the catalogue), the game thread
//! under the lobby message, a ballot with Block Kit vote buttons, and
//! delivery by audience: public messages in the thread, a seat's message
//! with `chat.postEphemeral` to that user only (never in the thread, also
//! not after a restart).

use std::sync::{Arc, Weak};

use serde_json::json;
use slack_morphism::prelude::*;

use crate::bot::words::Markup;
use crate::bot::{HostedGame, LiveTable, Opening};
use crate::core::actor::{Courier, Delivery, Inbound};
use crate::core::catalogue::{Frontend, Move, Parsed, Verb};
use crate::core::game::{Audience, Reply, ReplyKind, TableOptions, TurnInput};
use crate::core::store::OutboxItem;
use crate::core::vocab::Language;

use super::ingress::{ButtonIn, CommandIn, MessageIn};
use super::outbox::{self, Shown, outbox_text};
use super::render::{neutralise, plan, unescape};
use super::words::{Word, say};
use super::{SlackBot, scope_of, thread_key, thread_ts_of};

/// Vote buttons carry `table:vote:<option id>`.
pub const VOTE_BUTTON: &str = "table:vote:";

/// Where a table turn's own reply goes.
struct Answer<'a> {
    channel: &'a str,
    user: &'a str,
    /// A vote or whisper: the reply goes to the thread, the sender gets a
    /// private acknowledgement.
    secret: bool,
}

impl SlackBot {
    /// The hosted game a slash command names (`/undercover` → `undercover`).
    pub(super) fn hosted_for(&self, command: &str) -> Option<Arc<dyn HostedGame>> {
        self.hosted(command.trim_start_matches('/'))
    }

    /// `/<group> <verb> [text]` for a hosted game, read by the catalogue.
    pub(super) async fn on_table_command(&self, c: &CommandIn, game: Arc<dyn HostedGame>) -> anyhow::Result<()> {
        let text = unescape(&c.text);
        let lang = self.scope_language(&scope_of(&c.team)).await;
        let prefix = format!("/{} ", game.group());
        let (input, secret) = match self.catalogue.read_line(Frontend::Slack, game.group(), &text, &prefix) {
            Ok(Parsed::Input { input, verb }) => (input, verb.answers_privately()),
            Ok(Parsed::Bot { verb, .. }) => {
                let rest = self.catalogue.verb_of(Frontend::Slack, game.group(), &text).map_or("", |(_, rest)| rest);
                return self.on_bot_verb(c, game, verb, rest, lang).await;
            }
            Err(_) => {
                let help = self.catalogue.group_help(Frontend::Slack, lang, game.group(), &prefix);
                return self.tell(&c.channel, &c.user, None, &neutralise(&help)).await;
            }
        };
        let no_table = say(lang, &Word::NoTableHere { group: game.group() });
        let Some((key, table)) = self.channel_table(&c.channel).await? else {
            return self.tell(&c.channel, &c.user, None, &no_table).await;
        };
        if table.game.group() != game.group() {
            return self.tell(&c.channel, &c.user, None, &no_table).await;
        }
        let player = self.player(&c.user).await;
        if let Err(wait) = self.limiter.check(&player.id, self.now_ms()) {
            return self.tell(&c.channel, &c.user, None, &say(table.language, &Word::SlowDown(wait))).await;
        }
        let mut inbound = Inbound::new(player, input).with_event(c.trigger_id.clone());
        inbound.moderator = self.is_admin(&scope_of(&c.team), &c.user).await.unwrap_or(false);
        let delivery = self.send_with_steps(&key, &table, inbound).await?;
        let answer = Answer { channel: &c.channel, user: &c.user, secret };
        self.deliver_table(&key, &table, &delivery, Some(&answer), &Shown::default()).await
    }

    /// A Soup turn nobody's command waits for (an AI player's): posted in
    /// the game's thread, and the game wrapped up when it ended.
    async fn soup_courier(&self, session_id: &str, delivery: &Delivery, again: bool) -> anyhow::Result<()> {
        let Some((key, found)) = self.soup_by_session(session_id).await? else { return Ok(()) };
        let channel = channel_of(&key).to_string();
        let lang = found.game.puzzle.language;
        let shown = if again { self.shown(&key).await } else { Shown::default() };
        for (i, piece) in plan(&delivery.reply, lang, self.settings.max_reply_messages).iter().enumerate() {
            if delivery.outbox_id.is_none_or(|row| !shown.has(row, i)) {
                let content = outbox_text(piece, delivery.outbox_id.map(|row| (row, i)));
                self.post_content(&channel, thread_ts_of(&key), content).await?;
            }
        }
        found.handle.delivered(delivery).await?;
        if crate::core::actor::is_final(delivery.reply.kind) && !delivery.duplicate {
            self.finish(&channel, &key, &found.game).await?;
        } else if delivery.over {
            self.close(&key).await?;
        }
        Ok(())
    }

    /// A reply in the thread of a game that plays messages (the Lore RPG)
    /// is a turn; `false` when the thread holds no such game.
    pub(super) async fn on_table_message(&self, m: &MessageIn, thread_ts: &str) -> anyhow::Result<bool> {
        let key = thread_key(&m.channel, thread_ts);
        let Some(found) = self.find_table(&key).await? else { return Ok(false) };
        let table = found.table;
        if !table.game.plays_messages() {
            return Ok(false);
        }
        let player = self.player(&m.user).await;
        if let Err(wait) = self.limiter.check(&player.id, self.now_ms()) {
            self.tell(&m.channel, &m.user, Some(thread_ts), &say(table.language, &Word::SlowDown(wait))).await?;
            return Ok(true);
        }
        let inbound = Inbound::new(player, TurnInput::Say(unescape(&m.text))).with_event(m.event_id.clone());
        let delivery = self.send_with_steps(&key, &table, inbound).await?;
        self.deliver_table(&key, &table, &delivery, None, &Shown::default()).await?;
        Ok(true)
    }

    /// Plays a table turn; a game with named steps (the Lore RPG) shows
    /// them in one thread message, updated as the turn goes, left as the
    /// list of steps taken.
    async fn send_with_steps(&self, key: &str, table: &LiveTable, mut inbound: Inbound) -> anyhow::Result<Delivery> {
        if !table.game.plays_messages() {
            return Ok(table.handle.send(inbound).await?);
        }
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Option<String>>();
        let done = tx.clone();
        inbound.progress = Some(Arc::new(move |p: crate::core::services::Progress| {
            if let crate::core::services::Progress::Step(step) = p {
                let _ = tx.send(Some(step));
            }
        }));
        let channel = channel_of(key);
        let thread_ts = thread_ts_of(key).unwrap_or_default();
        let turn = async {
            let delivery = table.handle.send(inbound).await;
            let _ = done.send(None);
            delivery
        };
        let show = async {
            let mut posted: Option<String> = None;
            let mut steps: Vec<String> = Vec::new();
            'steps: while let Some(Some(mut step)) = rx.recv().await {
                while let Ok(next) = rx.try_recv() {
                    match next {
                        Some(newer) => {
                            steps.push(std::mem::replace(&mut step, newer));
                        }
                        None => {
                            steps.push(step);
                            break 'steps;
                        }
                    }
                }
                let text = format!("⏳ {step}…");
                steps.push(step);
                posted = match posted {
                    None => self.post(channel, Some(thread_ts), &text).await.ok(),
                    Some(ts) => {
                        if let Err(e) = self.update_text(channel, &ts, &text).await {
                            tracing::debug!(error = %e, "could not update the progress message");
                        }
                        Some(ts)
                    }
                };
            }
            if let Some(ts) = posted
                && let Err(e) = self.update_text(channel, &ts, &format!("✓ {}", steps.join(" → "))).await
            {
                tracing::debug!(error = %e, "could not close the progress message");
            }
        };
        let (delivery, ()) = tokio::join!(turn, show);
        Ok(delivery?)
    }

    /// A verb the bot answers itself: `start` opens a lobby, a content
    /// verb works on the workspace's own content, anything else is the
    /// game's record (`stats`).
    async fn on_bot_verb(
        &self,
        c: &CommandIn,
        game: Arc<dyn HostedGame>,
        verb: &Verb,
        rest: &str,
        lang: Language,
    ) -> anyhow::Result<()> {
        match verb.action {
            Some(Move::Start) => {
                let options = self.catalogue.start_options(Frontend::Slack, game.group(), rest);
                self.open_lobby(c, game, options).await
            }
            Some(Move::Content) => self.on_content_verb(c, game, &verb.name, rest).await,
            _ => {
                let rows = self.store.role_stats(game.kind(), Some(&scope_of(&c.team)), 30).await?;
                let text = crate::bot::role_stats_lines(lang, &rows, |role| game.role_name(lang, role), neutralise);
                self.tell(&c.channel, &c.user, None, &text).await
            }
        }
    }

    /// `/<group> pairs add|list|remove …`: a moderator's verbs on the
    /// workspace's own content for the game, answered privately.
    async fn on_content_verb(
        &self,
        c: &CommandIn,
        game: Arc<dyn HostedGame>,
        name: &str,
        rest: &str,
    ) -> anyhow::Result<()> {
        let scope = scope_of(&c.team);
        let lang = self.scope_language(&scope).await;
        let sub = name.rsplit(' ').next().unwrap_or_default().to_string();
        if !self.is_admin(&scope, &c.user).await.unwrap_or(false) {
            return self.tell(&c.channel, &c.user, None, &say(lang, &Word::NotModerator)).await;
        }
        let text = match sub.as_str() {
            "add" => {
                let (language, pair) = match rest.trim().split_once(' ') {
                    Some((first, pair)) => match first.split_once(':') {
                        Some(("language" | "lang", code)) => (Language::parse(code), pair),
                        _ => (None, rest),
                    },
                    None => (None, rest),
                };
                let by = self.player(&c.user).await;
                self.add_content(&game, &scope, language, pair, &by, Markup::Slack).await?
            }
            "list" => self.list_content(&game, &scope, lang, Markup::Slack).await?,
            _ => self.remove_content(&game, &scope, rest, lang, Markup::Slack).await?,
        };
        self.tell(&c.channel, &c.user, None, &neutralise(&text)).await
    }

    async fn open_lobby(&self, c: &CommandIn, game: Arc<dyn HostedGame>, options: TableOptions) -> anyhow::Result<()> {
        let scope = scope_of(&c.team);
        let config = self.guilds.guild_config(&scope).await?;
        let already = say(options.language.unwrap_or_else(|| self.language_of(&config)), &Word::AlreadyRunning);
        if self.channel_thread(&c.channel).await?.is_some() {
            return self.tell(&c.channel, &c.user, None, &already).await;
        }
        let ts = self.post(&c.channel, None, &format!("🎲 *{}*", neutralise(game.group()))).await?;
        let key = thread_key(&c.channel, &ts);
        let host = self.player(&c.user).await;
        let (table, intro) = match self.open_table(game, &key, &scope, &config, host, &options).await? {
            Opening::Open(table, intro) => (table, intro),
            Opening::Busy => return self.tell(&c.channel, &c.user, None, &already).await,
            Opening::Refused(why) => return self.tell(&c.channel, &c.user, None, &neutralise(&why)).await,
        };
        self.remember_channel(&c.channel, &key);
        self.deliver_table(&key, &table, &intro, None, &Shown::default()).await
    }

    /// The channel's newest table and its thread key; replies a restart
    /// left undelivered go out by audience first.
    async fn channel_table(&self, channel: &str) -> anyhow::Result<Option<(String, LiveTable)>> {
        let Some(key) = self.channel_thread(channel).await? else { return Ok(None) };
        let Some(found) = self.find_table(&key).await? else { return Ok(None) };
        let shown = if found.unsent.is_empty() { Shown::default() } else { self.shown(&key).await };
        for item in found.unsent.iter().chain(&found.unsent_private) {
            self.deliver_row(&key, found.table.language, item, &shown).await?;
        }
        Ok(Some((key, found.table)))
    }

    async fn deliver_row(&self, key: &str, lang: Language, item: &OutboxItem, shown: &Shown) -> anyhow::Result<()> {
        let reply = Reply::new(item.kind, item.body.clone());
        self.deliver_to(key, lang, &item.audience, &reply, Some(item.id), shown).await?;
        crate::bot::delivery::shown(self.store.as_ref(), item.id).await?;
        Ok(())
    }

    /// One message to its audience: the thread, or one user privately.
    async fn deliver_to(
        &self,
        key: &str,
        lang: Language,
        audience: &Audience,
        reply: &Reply,
        row: Option<i64>,
        shown: &Shown,
    ) -> anyhow::Result<()> {
        let channel = channel_of(key);
        match audience {
            Audience::Everyone => self.post_public(key, lang, reply, &[], Marks { row, shown }).await,
            Audience::Seat(seat) => match seat.strip_prefix("slack:") {
                Some(user) => self.tell(channel, user, thread_ts_of(key), &neutralise(&reply.text)).await,
                // An agent's seat reads the game's state, not messages.
                None => Ok(()),
            },
            Audience::Moderators => {
                tracing::info!(thread = key, "a message for moderators was not posted");
                Ok(())
            }
        }
    }

    async fn post_public(
        &self,
        key: &str,
        lang: Language,
        reply: &Reply,
        choices: &[(String, String)],
        marks: Marks<'_>,
    ) -> anyhow::Result<()> {
        let (channel, thread_ts) = (channel_of(key), thread_ts_of(key));
        let pieces = plan(reply, lang, self.settings.max_reply_messages);
        let last = pieces.len().saturating_sub(1);
        for (i, piece) in pieces.iter().enumerate() {
            if marks.row.is_some_and(|row| marks.shown.has(row, i)) {
                continue;
            }
            let mut content = outbox_text(piece, marks.row.map(|row| (row, i)));
            if i == last && !choices.is_empty() {
                content = content.with_blocks(ballot_blocks(piece, choices));
            } else if i == last && reply.kind == ReplyKind::Lobby {
                content = content.with_blocks(lobby_blocks(piece, lang));
            }
            self.post_content(channel, thread_ts, content).await?;
        }
        Ok(())
    }

    /// Shows a table turn by audience, marks it delivered, and unbinds the
    /// thread when the game ended.
    async fn deliver_table(
        &self,
        key: &str,
        table: &LiveTable,
        delivery: &Delivery,
        answer: Option<&Answer<'_>>,
        shown: &Shown,
    ) -> anyhow::Result<()> {
        let refused = delivery.reply.kind == ReplyKind::Rejected || delivery.duplicate;
        // A reply shown again after a restart or a take-over skips what the
        // thread already has (`outbox.rs`).
        let marks = Marks { row: delivery.outbox_id, shown };
        match answer {
            Some(a) if refused => {
                self.tell(a.channel, a.user, thread_ts_of(key), &neutralise(&delivery.reply.text)).await?
            }
            Some(a) if a.secret => {
                let done = format!("✅ {}", say(table.language, &Word::Done));
                self.tell(a.channel, a.user, thread_ts_of(key), &done).await?;
                self.post_public(key, table.language, &delivery.reply, &delivery.choices, marks).await?;
            }
            _ => self.post_public(key, table.language, &delivery.reply, &delivery.choices, marks).await?,
        }
        for m in &delivery.messages {
            self.deliver_to(key, table.language, &m.audience, &m.reply, m.outbox_id, shown).await?;
        }
        table.handle.delivered(delivery).await?;
        if delivery.over && !delivery.duplicate {
            self.forget_channel(key);
            self.end_table(key).await?;
        }
        Ok(())
    }

    /// A vote button under a ballot in the channel's table.
    pub(super) async fn on_vote_button(&self, b: &ButtonIn, option: &str) -> anyhow::Result<()> {
        self.play_button(b, TurnInput::Vote(option.to_string()), true).await
    }

    /// A lobby button (`table:join`, `table:leave`, `table:begin`);
    /// `false` for another button.
    pub(super) async fn on_lobby_button(&self, b: &ButtonIn, verb: &str) -> anyhow::Result<bool> {
        let input = match verb {
            "join" => TurnInput::Join,
            "leave" => TurnInput::Leave,
            "begin" => TurnInput::Begin,
            _ => return Ok(false),
        };
        self.play_button(b, input, false).await?;
        Ok(true)
    }

    /// A table's button, played as `input` by the presser in the channel's
    /// table; a `secret` move is acknowledged privately.
    async fn play_button(&self, b: &ButtonIn, input: TurnInput, secret: bool) -> anyhow::Result<()> {
        let Some((key, table)) = self.channel_table(&b.channel).await? else {
            let lang = self.scope_language(&scope_of(&b.team)).await;
            return self.tell(&b.channel, &b.user, None, &say(lang, &Word::NoGameHere)).await;
        };
        let mut inbound = Inbound::new(self.player(&b.user).await, input).with_event(b.trigger_id.clone());
        inbound.moderator = self.is_admin(&scope_of(&b.team), &b.user).await.unwrap_or(false);
        let delivery = table.handle.send(inbound).await?;
        let answer = Answer { channel: &b.channel, user: &b.user, secret };
        self.deliver_table(&key, &table, &delivery, Some(&answer), &Shown::default()).await
    }

    /// Shows a turn's reply no command waits for; `again` for a reply a
    /// reopened session had unsent (the thread may show part of it).
    async fn courier_deliver(&self, session_id: &str, delivery: &Delivery, again: bool) -> anyhow::Result<()> {
        let Some(key) = self.tables.thread_of(session_id) else {
            return self.soup_courier(session_id, delivery, again).await;
        };
        let Some(found) = self.find_table(&key).await? else { return Ok(()) };
        let shown = if again { self.shown(&key).await } else { Shown::default() };
        self.deliver_table(&key, &found.table, delivery, None, &shown).await
    }

    /// The outbox rows the thread `key` already shows (none when Slack
    /// can't say: the rows are then shown as if new).
    async fn shown(&self, key: &str) -> Shown {
        let Some(thread_ts) = thread_ts_of(key) else { return Shown::default() };
        match outbox::shown_in_thread(&self.session(), channel_of(key), thread_ts).await {
            Ok(shown) => shown,
            Err(e) => {
                tracing::warn!(thread = key, error = %format!("{e:#}"), "could not read which replies the thread shows");
                Shown::default()
            }
        }
    }
}

/// The outbox row a reply is shown for and the pieces its thread has.
#[derive(Clone, Copy)]
struct Marks<'a> {
    row: Option<i64>,
    shown: &'a Shown,
}

/// `slack:<channel>:<ts>` → the channel.
fn channel_of(key: &str) -> &str {
    key.split(':').nth(1).unwrap_or_default()
}

/// Lobby buttons carry `table:join`, `table:leave` and `table:begin`.
pub const LOBBY_BUTTON: &str = "table:";

/// A lobby's text with Join / Leave / Start buttons.
fn lobby_blocks(text: &str, lang: Language) -> Vec<SlackBlock> {
    let button = |verb: &str, word: Word<'_>| {
        json!({"type": "button", "action_id": format!("{LOBBY_BUTTON}{verb}"),
               "text": {"type": "plain_text", "text": say(lang, &word)}})
    };
    let blocks = vec![
        json!({"type": "section", "text": {"type": "mrkdwn", "text": neutralise(text)}}),
        json!({"type": "actions", "block_id": "table_lobby", "elements": [
            button("join", Word::ButtonJoin), button("leave", Word::ButtonLeave), button("begin", Word::ButtonBegin)
        ]}),
    ];
    blocks.into_iter().filter_map(|b| serde_json::from_value(b).ok()).collect()
}

fn ballot_blocks(text: &str, choices: &[(String, String)]) -> Vec<SlackBlock> {
    let buttons: Vec<serde_json::Value> = choices
        .iter()
        .take(25)
        .map(|(id, label)| {
            let label: String = neutralise(label).chars().take(75).collect();
            json!({"type": "button", "action_id": format!("{VOTE_BUTTON}{id}"),
                   "text": {"type": "plain_text", "text": label}})
        })
        .collect();
    let blocks = vec![
        json!({"type": "section", "text": {"type": "mrkdwn", "text": neutralise(text)}}),
        json!({"type": "actions", "block_id": "table_vote", "elements": buttons}),
    ];
    blocks.into_iter().filter_map(|b| serde_json::from_value(b).ok()).collect()
}

/// Shows the replies of table turns no command waits for (a deadline
/// passed, an AI seat moved). It holds the bot weakly: the engine holds
/// the courier, and a stopped bot must not live on through it.
pub struct SlackCourier(pub Weak<SlackBot>);

impl Courier for SlackCourier {
    fn reopen(&self, session_id: &str) {
        let Some(bot) = self.0.upgrade() else { return };
        let session_id = session_id.to_string();
        tokio::spawn(async move {
            match bot.reopen_session(&session_id).await {
                Ok(unsent) => {
                    for delivery in unsent {
                        if let Err(e) = bot.courier_deliver(&session_id, &delivery, true).await {
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
        let Some(bot) = self.0.upgrade() else { return };
        let session_id = session_id.to_string();
        tokio::spawn(async move {
            if let Err(e) = bot.courier_deliver(&session_id, &delivery, false).await {
                tracing::warn!(session = %session_id, error = %format!("{e:#}"), "could not show an engine turn");
            }
        });
    }
}
