//! The record's vocabulary: what a turn leaves in the store, shared by the
//! engine (`game`) and the store's port (`store`), so that neither names
//! the other's module for it. A turn's `Reply` and further `Message`s with
//! their `Audience` (`message`), the game's `Snapshot`, the turn row's
//! fields (`TurnRecord`), the `Points` a finished game gives, and what a
//! record says of a free-text move beyond its text: how it was read
//! (`Intent`: a question, a guess, chatter) and the closed answer it got
//! (`Verdict`). The store keeps both columns for every game; Turtle Soup's
//! Judge fills them (its parser is `soup::verdict`), other games leave
//! them empty or use them as they fit.

use serde::{Deserialize, Serialize};

use crate::core::prompts::PublicTurn;
use crate::core::services::Usage;
use crate::core::vocab::Player;

pub mod message;

pub use message::{Audience, Message, Reply, ReplyKind};

/// The answer to a yes/no question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Verdict {
    Yes,
    No,
    YesAndNo,
    Irrelevant,
    /// A question about the answer's wording rather than the story
    /// ("what's the first letter?"): not answerable with yes or no.
    Meta,
}

impl Verdict {
    pub const ALL: [Verdict; 5] = [Verdict::Yes, Verdict::No, Verdict::YesAndNo, Verdict::Irrelevant, Verdict::Meta];

    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Yes => "YES",
            Verdict::No => "NO",
            Verdict::YesAndNo => "YES_AND_NO",
            Verdict::Irrelevant => "IRRELEVANT",
            Verdict::Meta => "META",
        }
    }

    /// Accepts the spellings models actually produce: "yes and no",
    /// "Yes-and-no", "YES_AND_NO", "irrelevant.", ...
    pub fn parse(word: &str) -> Option<Verdict> {
        let key: String = word
            .trim()
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_ascii_uppercase()
            .chars()
            .map(|c| if c.is_ascii_alphabetic() { c } else { '_' })
            .collect();
        let key = key.split('_').filter(|p| !p.is_empty()).collect::<Vec<_>>().join("_");
        match key.as_str() {
            "YES" | "Y" | "TRUE" => Some(Verdict::Yes),
            "NO" | "N" | "FALSE" => Some(Verdict::No),
            "YES_AND_NO" | "YESANDNO" | "YES_NO" | "PARTLY" | "PARTIALLY" | "BOTH" => Some(Verdict::YesAndNo),
            "IRRELEVANT" | "NOT_RELEVANT" | "DOESN_T_MATTER" => Some(Verdict::Irrelevant),
            "META" => Some(Verdict::Meta),
            _ => None,
        }
    }
}

/// What a player's free text is, as the Judge classified it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Intent {
    Question,
    Guess,
    Chatter,
}

/// The turn row's fields.
#[derive(Debug, Clone, Default)]
pub struct TurnRecord {
    pub intent: Option<Intent>,
    pub facts: Vec<String>,
    /// The public line to add to the history, when the turn was a real move.
    pub public: Option<PublicTurn>,
    pub usage: Usage,
}

/// Points a player won in a game that just ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Points {
    pub player: Player,
    pub points: u32,
    /// Solved the puzzle; in a seated game, won.
    pub solved: bool,
    /// The role played, in games with roles (`undercover`).
    pub role: Option<String>,
}

/// A game's state as the store keeps it: which game, which schema
/// version, the JSON body, and the few fields the store indexes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub kind: String,
    pub version: u32,
    pub phase: String,
    pub progress: u32,
    pub deadline_ms: Option<i64>,
    pub body: String,
}

impl Snapshot {
    /// Checks that this snapshot is of `kind` at a version this build reads.
    pub fn expect(&self, kind: &str, version: u32) -> Result<(), SnapshotError> {
        if self.kind != kind {
            return Err(SnapshotError::WrongKind { expected: kind.to_string(), found: self.kind.clone() });
        }
        if self.version > version {
            return Err(SnapshotError::TooNew { found: self.version, known: version });
        }
        Ok(())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SnapshotError {
    #[error("the session plays {found:?}, not {expected:?}")]
    WrongKind { expected: String, found: String },
    #[error("snapshot version {found} is newer than this build reads ({known})")]
    TooNew { found: u32, known: u32 },
    #[error("malformed snapshot: {0}")]
    Malformed(String),
}
