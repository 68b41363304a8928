//! Discord threads ↔ live games: the keys (`discord:<guild>` scope,
//! `discord:<thread>`), and the thread lookups over `crate::bot::games`
//! that also post the replies a restart left unsent. Starting binds a
//! thread; ending (game over, moderator, thread archived or deleted)
//! unbinds it.

use std::sync::Arc;

use poise::serenity_prelude as serenity;

use crate::core::actor::{Delivery, SessionHandle};
use crate::core::guild::GuildConfig;
use crate::core::soup::puzzle::Puzzle;
use crate::core::vocab::Language;
use crate::core::vocab::Player;

pub use crate::bot::LiveGame;

use super::types::{Data, Error};

/// `discord:<guild id>`: the scope of a server's settings and puzzles.
pub fn scope_of(guild: serenity::GuildId) -> String {
    format!("discord:{guild}")
}

/// `discord:<thread id>`: a thread's key in bindings and session rows.
pub fn thread_key(thread: serenity::ChannelId) -> String {
    format!("discord:{thread}")
}

pub fn player_of(user: &serenity::User) -> Player {
    Player { id: format!("discord:{}", user.id), name: super::render::neutralise(user.display_name()) }
}

impl Data {
    /// The live game in a thread, resuming it from SQL when this process
    /// has not seen it yet; `None` when the thread plays nothing.
    pub async fn game_in(
        &self,
        http: &serenity::Http,
        thread: serenity::ChannelId,
    ) -> Result<Option<(SessionHandle, LiveGame)>, Error> {
        let Some(found) = self.bot.find_game(&thread_key(thread)).await? else { return Ok(None) };
        // Replies committed before a restart but never shown go out now.
        for item in found.unsent {
            let reply = crate::core::game::Reply { kind: item.kind, text: item.body, verdict: None };
            let lang = found.game.puzzle.language;
            super::send::post(http, thread, &reply, lang, self.settings.max_reply_messages, None, Some(item.id))
                .await?;
            crate::bot::delivery::shown(self.store.as_ref(), item.id).await?;
        }
        Ok(Some((found.handle, found.game)))
    }

    /// Like `game_in`, but replies left unsent by a restart are not posted
    /// (for threads that can no longer be posted to).
    pub async fn game_quietly(&self, thread: serenity::ChannelId) -> Result<Option<(SessionHandle, LiveGame)>, Error> {
        Ok(self.bot.find_game(&thread_key(thread)).await?.map(|found| (found.handle, found.game)))
    }

    /// Starts a game in `thread` (with AI players) and binds it. `Ok(None)` when the thread
    /// already has an active game.
    pub async fn open_game(
        &self,
        thread: serenity::ChannelId,
        scope: &str,
        puzzle: Arc<Puzzle>,
        config: &GuildConfig,
        host: Player,
        ai_players: u32,
    ) -> Result<Option<(SessionHandle, Delivery)>, Error> {
        self.bot.bind_new_game(&thread_key(thread), scope, puzzle, config, host, ai_players).await
    }

    /// Forgets a thread's game and ends its binding.
    pub async fn close_game(&self, thread: serenity::ChannelId) -> Result<(), Error> {
        self.bot.end_game(&thread_key(thread)).await
    }

    /// The server's language, looked up; the default when unknown.
    pub async fn guild_language(&self, guild: Option<serenity::GuildId>) -> Language {
        match guild {
            Some(guild) => self.bot.scope_language(&scope_of(guild)).await,
            None => self.defaults.language,
        }
    }
}
