//! `HostedGame`: how a bot opens a seated game's lobby and rebuilds its
//! table from the record. A game registers one (Undercover's is
//! `undercover::UndercoverHost`) with the bots (`BotParts::hosted`) under
//! its catalogue group; the front ends know no game beyond that.

use std::sync::Arc;

use super::EngineError;
use crate::core::guild::CustomContent;
use crate::core::store::{LoadedSession, NewSession, OutboxItem};
use crate::core::vocab::Language;
use crate::core::vocab::Player;

use super::selfplay::Selfplayer;
use super::{Game, SnapshotError, Table};
use crate::core::prompts::PublicTurn;

/// What `start` was given: what every game has (seats, AI seats, the
/// language, the seed, the server's own content) and the game's own
/// options by name, as its declaration (`commands/<game>.toml`) lists them; the
/// catalogue fills it from a typed line or a platform's options, and the
/// game reads its own with `get`, `flag` and `number`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableOptions {
    /// How many seats the table has.
    pub seats: Option<usize>,
    /// AI seats to fill at once.
    pub ai_seats: Option<usize>,
    /// The game's language (else the server's).
    pub language: Option<Language>,
    /// The game's seed (pairs, roles, tie-breaks); random when absent.
    pub seed: Option<u64>,
    /// The server's own content for this game (Undercover: its word
    /// pairs), filled in by the bot from the store.
    pub custom: Vec<CustomContent>,
    /// The game's own options, by their declared names.
    pub game: Vec<(String, String)>,
}

impl TableOptions {
    /// Sets one of the game's own options (a later value replaces).
    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        self.game.retain(|(n, _)| n != name);
        self.game.push((name.to_string(), value.into()));
    }

    /// The same options with one of the game's own set.
    pub fn with(mut self, name: &str, value: impl Into<String>) -> TableOptions {
        self.set(name, value);
        self
    }

    /// One of the game's own options, trimmed; `None` when absent or empty.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.game.iter().find(|(n, _)| n == name).map(|(_, v)| v.trim()).filter(|v| !v.is_empty())
    }

    /// A yes/no option.
    pub fn flag(&self, name: &str) -> Option<bool> {
        self.get(name).map(|v| matches!(v.to_lowercase().as_str(), "yes" | "true" | "on" | "1"))
    }

    /// A number option; `None` when absent or not a number.
    pub fn number<T: std::str::FromStr>(&self, name: &str) -> Option<T> {
        self.get(name).and_then(|v| v.parse().ok())
    }
}

/// Start options a deployment set for each seated game (`[game.start.<group>]`
/// in its config): group → (option, value). They fill what `start` left
/// out; the game checks them like options typed in chat.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StartDefaults(pub std::collections::BTreeMap<String, Vec<(String, String)>>);

impl StartDefaults {
    /// `options` with this group's defaults for the game's own options it
    /// does not set.
    pub fn fill(&self, group: &str, mut options: TableOptions) -> TableOptions {
        for (name, value) in self.0.get(group).into_iter().flatten() {
            if options.get(name).is_none() {
                options.set(name, value.clone());
            }
        }
        options
    }
}

/// What names a hosted game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct About {
    /// Its `Game::KIND`, as stored with its sessions.
    pub kind: &'static str,
    /// Its command group (`undercover`).
    pub group: &'static str,
    /// Its verb declaration (`commands/<game>.toml`).
    pub verbs: &'static str,
    /// Its own verbs as its closed enum spells them (`game_verbs!`'s
    /// `NAMES`; empty for a game with none), held against `verbs`.
    pub names: &'static [super::input::VerbNames],
    /// Its folder under `data/` (`undercover`), where its bundled content
    /// is; `None`: it has none.
    pub data: Option<&'static str>,
}

/// What a content check found in files laid out as a game's data folder.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContentCheck {
    /// Each problem, one line that names its file.
    pub problems: Vec<String>,
    /// What the files hold: counts per language, theme, world, … .
    pub summary: String,
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

/// What `HostedGame::open` gives: the session row and the lobby's table,
/// or a sentence for the host.
pub type Opened = Result<(NewSession, Box<dyn Table>), String>;

/// A seated game a bot can host.
pub trait HostedGame: Send + Sync {
    /// Its names: kind, group and verb declaration.
    fn about(&self) -> About;
    /// The game's `Game::KIND`, as stored with its sessions.
    fn kind(&self) -> &'static str {
        self.about().kind
    }
    /// Its command group in the catalogue (`undercover`).
    fn group(&self) -> &'static str {
        self.about().group
    }
    /// Its verbs and start options, as the catalogue reads them (the
    /// game's `commands/<game>.toml`).
    fn verbs(&self) -> &'static str {
        self.about().verbs
    }
    /// A lobby opened by `host`: the first state as a table and its
    /// session row (the id, canary and times are the engine's); an error
    /// is a sentence for the host (no words in that language).
    fn open(&self, host: &Player, language: Language, options: &TableOptions, new: NewSession) -> Opened;
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
    /// Its documents for the knowledge index (the Lore RPG's passages,
    /// each with its visibility), synced at start with every puzzle's.
    fn knowledge(&self) -> Vec<crate::core::knowledge::Doc> {
        Vec::new()
    }
    /// Checks content files laid out as its data folder (`(path below the
    /// folder, text)`, as `Bundled::sources` gives them): `echoes check
    /// <group>`. `None`: the game takes no content files.
    fn check(&self, _sources: &[(String, String)]) -> Option<ContentCheck> {
        None
    }
    /// A finished game of this kind as Markdown (`echoes transcript`): by
    /// default every turn and the messages it sent, each with its
    /// audience, as the record holds them (`transcript::markdown`).
    fn transcript(&self, loaded: &LoadedSession, outbox: &[OutboxItem]) -> String {
        super::transcript::markdown(self.group(), loaded, outbox)
    }
    /// The game with what its record holds beyond its messages (the
    /// Arena: every contribution's scores), for `echoes replay`; `None`
    /// when it offers nothing beyond its transcript.
    fn replay(&self, _loaded: &LoadedSession) -> Option<Result<String, EngineError>> {
        None
    }
    /// Its self-play (`echoes selfplay <group>`), when it offers one: a
    /// host that implements `SelfPlay` returns `Some(self)`.
    fn selfplay(self: Arc<Self>) -> Option<Arc<dyn Selfplayer>> {
        None
    }
}

/// A stored row's helpers that know the `Game` contract: the store's
/// port names no game type, so they live here.
impl NewSession {
    /// This row with a lobby's first state: its language, what it plays
    /// (a pair, a world; the row's `puzzle_id`) and its snapshot.
    pub fn with_game<G: Game>(mut self, game: &G, language: Language, content: &str) -> Result<NewSession, String> {
        self.language = language;
        self.puzzle_id = content.to_string();
        self.snapshot = game.snapshot().map_err(|e| e.to_string())?;
        Ok(self)
    }
}

impl LoadedSession {
    /// The stored state as game `G`; an error when the session plays
    /// another game or its snapshot is unreadable.
    pub fn game<G: Game>(&self) -> Result<G, SnapshotError> {
        G::restore(&self.snapshot)
    }

    /// The stored state as game `G` and the public record so far, for a
    /// host's `resume`.
    pub fn restore<G: Game>(&self) -> Result<(G, Vec<PublicTurn>), EngineError> {
        let game = self.game().map_err(|e| EngineError::Resume(e.to_string()))?;
        Ok((game, self.turns.iter().filter_map(|t| t.public.clone()).collect()))
    }
}
