//! Playing: `/soup start` (surface posted, thread bound), a turn from any
//! source (thread reply, `/soup <verb>`, button) through the session actor
//! with a "thinking…" message updated in place by the reply, and the end of
//! a game (the story, key facts, scores and a transcript snippet). Errors
//! become one private line to the user; the cause is logged.

use std::sync::Arc;

use slack_morphism::prelude::*;

use crate::bot::words::Markup;
use crate::bot::{Found, LiveGame, NoPuzzle};
use crate::core::actor::{Inbound, is_final};
use crate::core::catalogue::{Frontend, Parsed};
use crate::core::game::TurnInput;
use crate::core::game::error::database_away;
use crate::core::soup::SoupGame;
use crate::core::vocab::Language;
use crate::core::vocab::Player;

use super::command::{SoupCommand, WantedArgs, parse};
use super::ingress::{ButtonIn, CommandIn, Incoming, MessageIn};
use super::outbox::{self, outbox_text};
use super::render::{BUTTON_FORGET, intro_blocks, neutralise, plan, safe_name, summary};
use super::words::{Word, say};
use super::{SlackBot, scope_of, thread_key, thread_ts_of};

/// A turn for a thread's live game.
pub struct Turn<'a> {
    pub channel: &'a str,
    pub thread: &'a str,
    pub found: Found,
    pub player: Player,
    pub input: TurnInput,
    pub event_id: String,
}

/// `slack:<user id>`; Slack ids are the names shown (no lookups).
pub fn player_of(user: &str) -> Player {
    Player { id: format!("slack:{user}"), name: safe_name(user) }
}

/// How long a looked-up display name is kept, and how many are kept.
const NAME_TTL_MS: i64 = 3_600_000;
const MAX_NAMES: usize = 10_000;

impl SlackBot {
    /// The player behind a Slack user: `slack:<id>`, named by their display
    /// name (`users.info`, kept for an hour); the id when it cannot be
    /// looked up (no `users:read` scope, an unknown user).
    pub async fn player(&self, user: &str) -> Player {
        let now = self.now_ms();
        let cached = self.names.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(user).cloned();
        let name = match cached {
            Some((name, at)) if now - at < NAME_TTL_MS => name,
            _ => {
                let name = match self.display_name(user).await {
                    Ok(name) => safe_name(&name),
                    Err(e) => {
                        tracing::debug!(user, error = %format!("{e:#}"), "no display name; showing the user id");
                        safe_name(user)
                    }
                };
                let mut names = self.names.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                if names.len() >= MAX_NAMES {
                    names.clear();
                }
                names.insert(user.to_string(), (name.clone(), now));
                name
            }
        };
        Player { id: format!("slack:{user}"), name }
    }
}

pub use super::render::unescape;

impl SlackBot {
    /// Handles one accepted event; a failure is told to its user.
    pub(super) async fn play(self: Arc<Self>, incoming: Incoming) {
        let result = match &incoming {
            Incoming::Command(c) => self.on_command(c).await,
            Incoming::Message(m) => self.on_message(m).await,
            Incoming::Button(b) => self.on_button(b).await,
        };
        let Err(e) = result else { return };
        tracing::error!(id = incoming.id(), error = %format!("{e:#}"), "Slack event failed");
        let (team, channel, user) = match &incoming {
            Incoming::Command(c) => (&c.team, &c.channel, &c.user),
            Incoming::Message(m) => (&m.team, &m.channel, &m.user),
            Incoming::Button(b) => (&b.team, &b.channel, &b.user),
        };
        let lang = self.scope_language(&scope_of(team)).await;
        let word = if database_away(e.as_ref()) { Word::DatabaseAway } else { Word::Oops };
        if let Err(e) = self.tell(channel, user, None, &say(lang, &word)).await {
            tracing::warn!(error = %e, "could not tell the user about the failure");
        }
    }

    /// A reply in a game thread is a turn; anything else is ignored.
    async fn on_message(&self, m: &MessageIn) -> anyhow::Result<()> {
        let Some(thread_ts) = &m.thread_ts else { return Ok(()) };
        let key = thread_key(&m.channel, thread_ts);
        let Some(found) = self.game(&m.channel, &key).await? else {
            self.on_table_message(m, thread_ts).await?;
            return Ok(());
        };
        let player = self.player(&m.user).await;
        if let Err(wait) = self.limiter.check(&player.id, self.now_ms()) {
            let lang = found.game.puzzle.language;
            return self.tell(&m.channel, &m.user, Some(thread_ts), &say(lang, &Word::SlowDown(wait))).await;
        }
        // A command said plainly ("hint", "提示", "give up") is that command.
        let text = unescape(&m.text);
        let input = match self.catalogue.said(Frontend::Slack, "soup", &text) {
            Some(Parsed::Input { input, .. }) => input,
            Some(Parsed::Bot { .. }) => {
                let help = self.help_text(found.game.puzzle.language);
                return self.tell(&m.channel, &m.user, Some(thread_ts), &help).await;
            }
            None => TurnInput::Say(text),
        };
        let turn = Turn { channel: &m.channel, thread: &key, found, player, input, event_id: m.event_id.clone() };
        self.take_turn(turn).await
    }

    async fn on_button(&self, b: &ButtonIn) -> anyhow::Result<()> {
        if let Some(option) = b.action_id.strip_prefix(super::tables::VOTE_BUTTON) {
            return self.on_vote_button(b, option).await;
        }
        if let Some(verb) = b.action_id.strip_prefix(super::tables::LOBBY_BUTTON)
            && self.on_lobby_button(b, verb).await?
        {
            return Ok(());
        }
        if b.action_id == BUTTON_FORGET {
            let lang = self.scope_language(&scope_of(&b.team)).await;
            let removed = self.forget_player(&self.player(&b.user).await.id).await?;
            return self.tell(&b.channel, &b.user, None, &say(lang, &Word::Forgotten(removed))).await;
        }
        let Some(input) = self.catalogue.button(Frontend::Slack, &b.action_id) else { return Ok(()) };
        let key = thread_key(&b.channel, &b.message_ts);
        let Some(found) = self.game(&b.channel, &key).await? else {
            let lang = self.scope_language(&scope_of(&b.team)).await;
            return self.tell(&b.channel, &b.user, None, &say(lang, &Word::NoGameHere)).await;
        };
        let player = self.player(&b.user).await;
        let turn = Turn { channel: &b.channel, thread: &key, found, player, input, event_id: b.trigger_id.clone() };
        self.take_turn(turn).await
    }

    async fn on_command(&self, c: &CommandIn) -> anyhow::Result<()> {
        if let Some(game) = self.hosted_for(&c.command) {
            return self.on_table_command(c, game).await;
        }
        let scope = scope_of(&c.team);
        let lang = self.scope_language(&scope).await;
        match parse(&c.text, &self.catalogue) {
            SoupCommand::Start(wanted) => self.start(c, wanted).await,
            SoupCommand::Turn { input, limited } => self.command_turn(c, input, limited, lang).await,
            SoupCommand::Leaderboard { global } => {
                let text = self.leaderboard((!global).then_some(scope.as_str()), lang).await?;
                self.post(&c.channel, None, &text).await.map(drop)
            }
            SoupCommand::ForgetMe => {
                let text = say(lang, &Word::ForgetConfirm);
                let blocks = vec![
                    serde_json::json!({"type": "section", "text": {"type": "mrkdwn", "text": text}}),
                    serde_json::json!({"type": "actions", "block_id": "forget_me", "elements": [{
                        "type": "button", "action_id": BUTTON_FORGET, "style": "danger",
                        "text": {"type": "plain_text", "text": say(lang, &Word::ForgetButton)}}]}),
                ];
                let blocks: Vec<SlackBlock> =
                    blocks.into_iter().filter_map(|b| serde_json::from_value(b).ok()).collect();
                let content = SlackMessageContent::new().with_text(text).with_blocks(blocks);
                self.tell_content(&c.channel, &c.user, None, content).await
            }
            SoupCommand::Transcript => {
                if self.channel_game(&c.channel).await?.is_some() {
                    return self.tell(&c.channel, &c.user, None, &say(lang, &Word::NoTranscriptYet(true))).await;
                }
                let Some(found) = self.soup_transcript(&format!("slack:{}", c.channel), &scope).await? else {
                    return self.tell(&c.channel, &c.user, None, &say(lang, &Word::NoTranscriptYet(false))).await;
                };
                let comment = say(lang, &Word::TranscriptOf(&neutralise(&found.puzzle.title)));
                // A shared file is not read as mrkdwn and pings nobody: its text stays as written.
                let bytes = found.markdown.into_bytes();
                self.upload(&c.channel, None, &found.name, bytes, &comment).await
            }
            SoupCommand::Stats(user) => {
                let who = self.player(user.as_deref().unwrap_or(&c.user)).await;
                let name = safe_name(&who.name);
                let text = self.soup_stats_text(&who.id, &name, Some(&scope), lang, Markup::Slack).await?;
                self.post(&c.channel, None, &text).await.map(drop)
            }
            SoupCommand::Puzzles(only) => {
                let text = self.puzzle_list(&scope, only, lang).await?;
                self.tell(&c.channel, &c.user, None, &text).await
            }
            SoupCommand::Help => self.tell(&c.channel, &c.user, None, &self.help_text(lang)).await,
            SoupCommand::Admin(command) => self.admin(c, command).await,
            SoupCommand::Unknown(verb) => {
                self.tell(&c.channel, &c.user, None, &say(lang, &Word::UnknownVerb(&neutralise(&verb)))).await
            }
        }
    }

    async fn command_turn(&self, c: &CommandIn, input: TurnInput, limited: bool, lang: Language) -> anyhow::Result<()> {
        let Some((key, found)) = self.channel_game(&c.channel).await? else {
            return self.tell(&c.channel, &c.user, None, &say(lang, &Word::NoGameHere)).await;
        };
        let player = self.player(&c.user).await;
        if limited && let Err(wait) = self.limiter.check(&player.id, self.now_ms()) {
            return self.tell(&c.channel, &c.user, None, &say(lang, &Word::SlowDown(wait))).await;
        }
        let input = input.map_text(unescape);
        let turn = Turn { channel: &c.channel, thread: &key, found, player, input, event_id: c.trigger_id.clone() };
        self.take_turn(turn).await
    }

    /// The thread's live game; replies a restart left unsent are posted.
    pub(super) async fn game(&self, channel: &str, key: &str) -> anyhow::Result<Option<Found>> {
        let Some(mut found) = self.find_game(key).await? else { return Ok(None) };
        let lang = found.game.puzzle.language;
        let unsent = std::mem::take(&mut found.unsent);
        // Part of them may be in the thread already (`outbox.rs`).
        let shown = match (unsent.is_empty(), thread_ts_of(key)) {
            (false, Some(thread_ts)) => outbox::shown_in_thread(&self.session(), channel, thread_ts)
                .await
                .inspect_err(|e| tracing::warn!(thread = key, error = %format!("{e:#}"), "could not read the thread"))
                .unwrap_or_default(),
            _ => outbox::Shown::default(),
        };
        for item in unsent {
            let reply = crate::core::game::Reply { kind: item.kind, text: item.body, verdict: None };
            for (i, piece) in plan(&reply, lang, self.settings.max_reply_messages).iter().enumerate() {
                if !shown.has(item.id, i) {
                    self.post_content(channel, thread_ts_of(key), outbox_text(piece, Some((item.id, i)))).await?;
                }
            }
            crate::bot::delivery::shown(self.store.as_ref(), item.id).await?;
        }
        self.remember_channel(channel, key);
        Ok(Some(found))
    }

    /// The channel's running game and its thread key.
    pub(super) async fn channel_game(&self, channel: &str) -> anyhow::Result<Option<(String, Found)>> {
        let Some(key) = self.channel_thread(channel).await? else { return Ok(None) };
        Ok(self.game(channel, &key).await?.map(|found| (key, found)))
    }

    async fn start(&self, c: &CommandIn, wanted: WantedArgs) -> anyhow::Result<()> {
        let scope = scope_of(&c.team);
        let config = self.guilds.guild_config(&scope).await?;
        let lang = self.language_of(&config);
        let refuse = |word: Word<'_>| say(lang, &word);
        if let Some(only) = config.channel.as_deref().filter(|only| *only != c.channel) {
            return self.tell(&c.channel, &c.user, None, &refuse(Word::WrongChannel(only))).await;
        }
        if self.channel_game(&c.channel).await?.is_some() {
            return self.tell(&c.channel, &c.user, None, &refuse(Word::AlreadyRunning)).await;
        }
        let ai_players = wanted.ai_players;
        let puzzle = match self.choose_puzzle(&scope, &c.channel, wanted.into(), lang).await? {
            Ok(p) => p,
            Err(NoPuzzle::Unknown { id, near }) => {
                let text = refuse(Word::UnknownPuzzle { id: &neutralise(&id), near: &near });
                return self.tell(&c.channel, &c.user, None, &text).await;
            }
            Err(NoPuzzle::NoMatch) => {
                return self.tell(&c.channel, &c.user, None, &refuse(Word::NoPuzzleMatches)).await;
            }
        };
        // The thread's parent comes first: its ts is the game's key.
        let title = format!("🐢 *{}*  {}", neutralise(&puzzle.title), say(puzzle.language, &Word::Thinking));
        let ts = self.post(&c.channel, None, &title).await?;
        let key = thread_key(&c.channel, &ts);
        let host = self.player(&c.user).await;
        let opened = self.bind_new_game(&key, &scope, puzzle.clone(), &config, host, ai_players).await?;
        let Some((handle, intro)) = opened else {
            return self.update_text(&c.channel, &ts, &refuse(Word::AlreadyRunning)).await;
        };
        let fallback = format!("🐢 {}", neutralise(&puzzle.title));
        let buttons = self.catalogue.buttons(Frontend::Slack, "soup", puzzle.language);
        let content =
            SlackMessageContent::new().with_text(fallback).with_blocks(intro_blocks(&puzzle, &intro.reply, &buttons));
        self.update(&c.channel, &ts, content).await?;
        handle.delivered(&intro).await?;
        self.remember_channel(&c.channel, &key);
        Ok(())
    }

    /// Plays a turn: "thinking…" in the thread, the reply in its place,
    /// marked delivered; the game is wrapped up when it ended.
    pub async fn take_turn(&self, turn: Turn<'_>) -> anyhow::Result<()> {
        let Turn { channel, thread, found, player, input, event_id } = turn;
        let lang = found.game.puzzle.language;
        let thread_ts = thread_ts_of(thread);
        let thinking = self.post(channel, thread_ts, &say(lang, &Word::Thinking)).await?;
        let inbound = Inbound { event_id: Some(event_id), player, input, progress: None, moderator: false };
        let delivery = found.handle.send(inbound).await?;
        if delivery.handed_off || delivery.duplicate {
            // Another process plays it and shows the reply (handed over), or
            // it was played and shown before (a retry reaching another
            // process, or one after a restart): "thinking…" goes.
            return self.delete(channel, &thinking).await;
        }
        let mark = |i: usize| delivery.outbox_id.map(|row| (row, i));
        let pieces = plan(&delivery.reply, lang, self.settings.max_reply_messages);
        let first = pieces.first().cloned().unwrap_or_default();
        self.update(channel, &thinking, outbox_text(&first, mark(0))).await?;
        for (i, piece) in pieces.iter().enumerate().skip(1) {
            self.post_content(channel, thread_ts, outbox_text(piece, mark(i))).await?;
        }
        found.handle.delivered(&delivery).await?;
        if is_final(delivery.reply.kind) && !delivery.duplicate {
            self.finish(channel, thread, &found.game).await?;
        } else if delivery.over {
            self.close(thread).await?;
        }
        Ok(())
    }

    /// The end of a game: key facts, scores and the last turns in the
    /// thread; then the thread is unbound.
    pub async fn finish(&self, channel: &str, thread: &str, game: &LiveGame) -> anyhow::Result<()> {
        let loaded = self.store.load_session(&game.session_id).await?;
        self.close(thread).await?;
        let Some(loaded) = loaded else { return Ok(()) };
        let state: SoupGame = loaded.game()?;
        let text = summary(&game.puzzle, &loaded, &state, game.puzzle.language);
        for piece in crate::bot::text::chunks(&text, super::render::MAX_MESSAGE_CHARS) {
            self.post(channel, thread_ts_of(thread), &piece).await?;
        }
        Ok(())
    }

    /// Forgets a thread's game and ends its binding.
    pub async fn close(&self, thread: &str) -> anyhow::Result<()> {
        self.forget_channel(thread);
        self.end_game(thread).await
    }

    async fn leaderboard(&self, scope: Option<&str>, lang: Language) -> anyhow::Result<String> {
        let rows = crate::bot::boards::leaderboard(self.store.as_ref(), scope).await?;
        let mut text = format!("*{}*\n", say(lang, &Word::Leaderboard { global: scope.is_none() }));
        if rows.is_empty() {
            text.push_str(&say(lang, &Word::NoScores));
        }
        text.push_str(&crate::bot::leaderboard_lines(&rows, safe_name));
        Ok(text)
    }

    async fn puzzle_list(&self, scope: &str, only: Option<Language>, lang: Language) -> anyhow::Result<String> {
        let lines: Vec<String> = self
            .playable_puzzles(scope)
            .await?
            .iter()
            .filter(|p| only.is_none_or(|l| p.language == l))
            .map(|p| format!("`{}` · {} · {} · {}", p.id, p.language.code(), p.difficulty, neutralise(&p.title)))
            .collect();
        Ok(format!("*{}*\n{}", say(lang, &Word::Puzzles), lines.join("\n")))
    }

    /// Turtle Soup's commands from the catalogue, players first, then each
    /// other game's `start` (`/<game> help` lists the rest).
    pub fn help_text(&self, lang: Language) -> String {
        let players = self.catalogue.group_help(Frontend::Slack, lang, "soup", "/soup ");
        let admins = self.catalogue.group_help(Frontend::Slack, lang, "soup-admin", "/soup admin ");
        let mut text =
            format!("*{}*\n{}\n\n*{}*\n{}", say(lang, &Word::Players), players, say(lang, &Word::Moderators), admins);
        let games: Vec<String> = self
            .catalogue
            .for_frontend(Frontend::Slack)
            .filter(|v| !v.group.starts_with("soup") && v.name == "start")
            .map(|v| format!("/{} start  {}", v.group, v.help(lang)))
            .collect();
        if !games.is_empty() {
            text.push_str(&format!("\n\n*{}*\n{}", say(lang, &Word::OtherGames), games.join("\n")));
        }
        text
    }
}
