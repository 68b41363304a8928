//! One turn from any Discord source (thread message, slash command,
//! button) into the session actor and its reply back the same way; and
//! the end of a game: summary, scores and the transcript file.

use std::sync::Arc;

use poise::serenity_prelude as serenity;
use serenity::{Builder as _, CreateAttachment, CreateInteractionResponseFollowup, CreateMessage};

use crate::core::actor::{Delivery, Inbound, SessionHandle, is_final};
use crate::core::game::TurnInput;
use crate::core::soup::SoupGame;
use crate::core::vocab::Player;

use super::games::LiveGame;
use super::render::{Outgoing, plan, summary, transcript};
use super::send::{embed, message, no_pings, post};
use super::types::{Data, Error};

/// Where a turn came from, so its reply goes back the same way.
pub enum Origin {
    /// A message in the thread: the reply answers it.
    Message(serenity::MessageId),
    /// An interaction (slash command or button), already deferred: the
    /// reply is its follow-up, sent with the interaction's token.
    Interaction(String),
    /// A moderator verb: the reply is posted in the thread.
    Thread,
}

/// A turn for a thread's live game.
pub struct Turn {
    pub thread: serenity::ChannelId,
    pub handle: SessionHandle,
    pub game: LiveGame,
    pub player: Player,
    pub input: TurnInput,
    /// The message or interaction id: a redelivered event is answered once.
    pub event_id: String,
}

impl Data {
    /// Plays a turn on the game runtime and waits for it: everything after
    /// an interaction's ack (the pipeline, SQL, the reply, the wrap-up)
    /// runs on the lower-priority game threads, so the bot's own threads
    /// stay free to acknowledge the next interactions within Discord's
    /// 3 seconds. Once started, a turn finishes even if its caller is gone.
    pub async fn take_turn(&self, http: &Arc<serenity::Http>, turn: Turn, origin: Origin) -> Result<Delivery, Error> {
        let (data, http) = (self.clone(), http.clone());
        crate::bot::runtime::on_games(async move { data.play(&http, turn, origin).await }).await?
    }

    /// Plays a turn, shows its reply through `origin`, marks it delivered,
    /// and wraps the game up when it ended.
    async fn play(&self, http: &serenity::Http, turn: Turn, origin: Origin) -> Result<Delivery, Error> {
        let inbound = Inbound {
            event_id: Some(turn.event_id),
            player: turn.player,
            input: turn.input,
            progress: None,
            moderator: false,
        };
        let delivery = turn.handle.send(inbound).await?;
        // A message Discord delivered twice was answered the first time.
        let already_shown = delivery.duplicate && matches!(origin, Origin::Message(_));
        if !already_shown {
            let lang = turn.game.puzzle.language;
            self.show(http, turn.thread, &delivery, lang, origin).await?;
        }
        turn.handle.delivered(&delivery).await?;
        if is_final(delivery.reply.kind) && !delivery.duplicate {
            self.finish(http, turn.thread, &turn.game).await?;
        } else if delivery.over {
            self.close_game(turn.thread).await?;
        }
        Ok(delivery)
    }

    async fn show(
        &self,
        http: &serenity::Http,
        thread: serenity::ChannelId,
        delivery: &Delivery,
        lang: crate::core::vocab::Language,
        origin: Origin,
    ) -> Result<(), Error> {
        let (max, reply, row) = (self.settings.max_reply_messages, &delivery.reply, delivery.outbox_id);
        match origin {
            Origin::Message(id) => post(http, thread, reply, lang, max, Some(id), row).await?,
            Origin::Thread => post(http, thread, reply, lang, max, None, row).await?,
            Origin::Interaction(token) => {
                for piece in plan(reply, lang, max) {
                    followup(&piece).execute(http, (None, &token)).await?;
                }
            }
        }
        Ok(())
    }

    /// The end of a game: who found what, the scores, the transcript as a
    /// Markdown file; then the thread is unbound.
    pub async fn finish(
        &self,
        http: &serenity::Http,
        thread: serenity::ChannelId,
        game: &LiveGame,
    ) -> Result<(), Error> {
        let loaded = self.store.load_session(&game.session_id).await?;
        self.close_game(thread).await?;
        let Some(loaded) = loaded else { return Ok(()) };
        let lang = game.puzzle.language;
        let state: SoupGame = loaded.game()?;
        let text = summary(&game.puzzle, &state, lang);
        let file = transcript(&game.puzzle, &loaded, &state);
        let piece = Outgoing { text, colour: 0xF1_C40F, file: None };
        let name = format!("transcript-{}.md", game.puzzle.id);
        let m: CreateMessage = message(&piece, None).add_file(CreateAttachment::bytes(file.into_bytes(), name));
        thread.send_message(http, m).await?;
        Ok(())
    }
}

fn followup(o: &Outgoing) -> CreateInteractionResponseFollowup {
    let mut f = CreateInteractionResponseFollowup::new().embed(embed(o)).allowed_mentions(no_pings());
    if let Some((name, bytes)) = &o.file {
        f = f.add_file(CreateAttachment::bytes(bytes.clone(), name.clone()));
    }
    f
}
