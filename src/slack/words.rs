//! The fixed sentences the Slack front end itself says, in Slack's mrkdwn
//! and nouns. The sentences live once, in `bot::words`; game text comes
//! from `core::soup::i18n`.

use crate::bot::words::Markup;
use crate::core::vocab::Language;

pub use crate::bot::words::Word;

/// `word` in `lang`, as Slack shows it.
pub fn say(lang: Language, word: &Word<'_>) -> String {
    crate::bot::words::say(lang, Markup::Slack, word)
}
