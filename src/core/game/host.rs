//! `HostedGame`: how a bot opens a seated game's lobby and rebuilds its
//! table from the record. A game registers one (Undercover's is
//! `undercover::UndercoverHost`) with the bots (`BotParts::hosted`) under
//! its catalogue group; the front ends know no game beyond that.

use crate::core::actor::EngineError;
use crate::core::guild::CustomContent;
use crate::core::puzzle::Language;
use crate::core::soup::Player;
use crate::core::store::{LoadedSession, NewSession};

use super::Table;

/// What `start` was given; a game reads the options it has and ignores
/// the rest (each front end offers only the catalogue's options).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableOptions {
    /// How many seats the table has.
    pub seats: Option<usize>,
    /// AI seats to fill at once.
    pub ai_seats: Option<usize>,
    /// The game's language (else the server's).
    pub language: Option<Language>,
    /// Undercover: a blank seat.
    pub blank: Option<bool>,
    /// AI seats with ordinary names, and "guess the AI" after the end.
    pub anonymous: Option<bool>,
    /// The game's seed (pair, roles, tie-breaks); random when absent.
    pub seed: Option<u64>,
    /// The Arena: the topic or problem (else one from the bundled list).
    pub topic: Option<String>,
    /// The Arena: the turn limit.
    pub max_turns: Option<u32>,
    /// The Arena: a human's time to speak, in seconds.
    pub turn_seconds: Option<u32>,
    /// The host watches instead of taking a seat.
    pub spectate: Option<bool>,
    /// The Lore RPG: the world (an id or a title).
    pub world: Option<String>,
    /// The server's own content for this game (Undercover: its word
    /// pairs), filled in by the bot from the store.
    pub custom: Vec<CustomContent>,
}

/// A moderator's text read as content for a game, ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomItem {
    pub id: String,
    /// The game's own text for it.
    pub source: String,
    /// How the moderators' list shows it.
    pub shown: String,
}

/// A seated game a bot can host.
pub trait HostedGame: Send + Sync {
    /// The game's `Game::KIND`, as stored with its sessions.
    fn kind(&self) -> &'static str;
    /// Its command group in the catalogue (`undercover`).
    fn group(&self) -> &'static str;
    /// A lobby opened by `host`: the first state as a table and its
    /// session row (the id, canary and times are the engine's); an error
    /// is a sentence for the host (no words in that language).
    fn open(
        &self,
        host: &Player,
        language: Language,
        options: &TableOptions,
        new: NewSession,
    ) -> Result<(NewSession, Box<dyn Table>), String>;
    /// The table of a stored session of this game.
    fn resume(&self, loaded: &LoadedSession) -> Result<Box<dyn Table>, EngineError>;
    /// A stored role's name for players (`civilian` → `平民`).
    fn role_name(&self, _language: Language, role: &str) -> String {
        role.to_string()
    }
    /// Reads a moderator's text as this game's server content, or says
    /// what is wrong with it (in `language`). `None`: the game takes no
    /// server content.
    fn custom(&self, _language: Language, _text: &str) -> Option<Result<CustomItem, String>> {
        None
    }
    /// Whether every plain message in the game's thread is a turn
    /// (`TurnInput::Say`), as in the Lore RPG; otherwise only its verbs are.
    fn plays_messages(&self) -> bool {
        false
    }
    /// How the moderators' list shows one stored item.
    fn custom_shown(&self, item: &CustomContent) -> String {
        item.id.clone()
    }
}
