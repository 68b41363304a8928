//! A game's self-play options, read from command-line words the way its
//! `selfplay` verb declares them (`move = "selfplay"`, on no front end):
//! which options it takes, their kinds, aliases, the table option each
//! fills and their bounds, as `start`'s declaration does for a lobby. The
//! run's own (`--games`, `--seed`, `--language`) are the command line's.

use super::{Catalogue, Move, Verb, VerbOption, option_named};
use crate::core::game::TableOptions;
use crate::core::vocab::Language;

impl Catalogue {
    /// `group`'s `selfplay` verb, when the game declares one.
    pub fn selfplay_verb(&self, group: &str) -> Option<&Verb> {
        self.verbs.iter().find(|v| v.group == group && v.action == Some(Move::Selfplay))
    }

    /// One line for `echoes selfplay`'s list: the group, its options and
    /// what it measures.
    pub fn selfplay_help(&self, group: &str, lang: Language) -> Option<String> {
        let verb = self.selfplay_verb(group)?;
        Some(format!("{group}{}  {}", option_usage(verb), verb.help(lang)))
    }

    /// A game's self-play options from command-line words (`--seats 5
    /// --blank`, `--max-turns=6`, `seats:5`), read as its `selfplay` verb
    /// declares them; a name it does not declare, a number outside its
    /// bounds, or a game with no such verb is an error (one line).
    pub fn selfplay_options(&self, group: &str, words: &[String]) -> Result<TableOptions, String> {
        let verb = self.selfplay_verb(group).ok_or_else(|| format!("{group} offers no self-play"))?;
        let mut named = Vec::new();
        let mut words = words.iter().peekable();
        while let Some(word) = words.next() {
            let word = word.trim_start_matches("--");
            let (key, value) = word.split_once(['=', ':']).map_or((word, None), |(k, v)| (k, Some(v.to_string())));
            let key = key.to_lowercase().replace('-', "_");
            let Some(option) = option_named(verb, &key) else {
                return Err(format!("{group} self-play has no option --{key}; it takes{}", option_usage(verb)));
            };
            let flag = option.kind == "flag";
            let value = value.or_else(|| words.next_if(|w| !flag && !w.starts_with("--")).cloned());
            named.push((option.name.clone(), checked(option, value)?));
        }
        Ok(Catalogue::options_of(verb, &named))
    }
}

/// ` [--seats N] [--blank]`: a verb's options as command-line flags.
fn option_usage(verb: &Verb) -> String {
    let value = |o: &VerbOption| match o.kind.as_str() {
        "flag" => "",
        "number" => " N",
        _ => " TEXT",
    };
    verb.options.iter().map(|o| format!(" [--{}{}]", o.name.replace('_', "-"), value(o))).collect()
}

/// A typed value for `option`, checked against its kind and bounds; a
/// flag named alone is set.
fn checked(option: &VerbOption, value: Option<String>) -> Result<String, String> {
    let dashed = option.name.replace('_', "-");
    let Some(value) = value else {
        return if option.kind == "flag" { Ok("yes".into()) } else { Err(format!("--{dashed} needs a value")) };
    };
    if option.kind != "number" {
        return Ok(value);
    }
    let n: i64 = value.trim().parse().map_err(|_| format!("--{dashed} takes a number"))?;
    match (option.min, option.max) {
        (Some(min), Some(max)) if !(min..=max).contains(&n) => {
            Err(format!("--{dashed} must be between {min} and {max}"))
        }
        (Some(min), None) if n < min => Err(format!("--{dashed} must be at least {min}")),
        (None, Some(max)) if n > max => Err(format!("--{dashed} must be at most {max}")),
        _ => Ok(value),
    }
}
