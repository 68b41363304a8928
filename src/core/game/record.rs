//! What a turn record says of a move beyond its text: how a free-text
//! move was read (`Intent`: a question, a guess, chatter) and the closed
//! answer it got (`Verdict`). The store keeps both columns for every game;
//! Turtle Soup's Judge fills them (its parser is `soup::verdict`), other
//! games leave them empty or use them as they fit.

use serde::{Deserialize, Serialize};

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
