//! The fixed sentences the Discord front end itself says, in Discord's
//! markup and nouns. The sentences live once, in `bot::words`; game text
//! comes from `core::soup::i18n`.

use crate::bot::words::Markup;
use crate::core::vocab::Language;

pub use crate::bot::words::Word;

/// `word` in `lang`, as Discord shows it.
pub fn say(lang: Language, word: &Word<'_>) -> String {
    crate::bot::words::say(lang, Markup::Discord, word)
}
