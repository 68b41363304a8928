//! One way to say a fixed sentence in two languages: Project Fluent.
//!
//! Each game (and the chat bots) keeps its sentences in `en.ftl` and
//! `zh.ftl` beside its code, one message per sentence, and declares them
//! once with [`phrasebook!`]. Its Rust side stays typed: a function per
//! sentence (`say.rs`) whose arguments are the message's variables, saying
//! it with [`phrase!`]. The test at the bottom reads every `en.ftl` under
//! `src/` and holds its `zh.ftl` to the same messages with the same
//! variables, so a sentence can't exist in one language only.
//!
//! ```ignore
//! crate::phrasebook!(BOOK, "core/undercover");
//! pub fn next_speaker(lang: Language, speaker: &str, seconds: u32) -> String {
//!     crate::phrase!(BOOK, lang, "next-speaker", speaker = speaker, seconds = seconds)
//! }
//! ```

use std::collections::BTreeMap;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use fluent_syntax::ast;

use crate::core::vocab::Language;

/// A value a sentence names: text or a number (`FluentValue` converts
/// from `&str`, `String` and the integer and float types).
pub type Arg<'a> = FluentValue<'a>;

/// One game's sentences in every language, parsed once.
pub struct Phrasebook {
    name: &'static str,
    en: FluentBundle<FluentResource>,
    zh: FluentBundle<FluentResource>,
    /// The messages without variables, said once, so that [`Self::fixed`]
    /// can lend them for as long as the book lives.
    en_fixed: BTreeMap<String, String>,
    zh_fixed: BTreeMap<String, String>,
    /// Every sentence of each file as written (comments left out).
    en_text: String,
    zh_text: String,
}

impl Phrasebook {
    /// Parses the two files. A file that does not parse is a bug in the
    /// build (the files are compiled in), so the caller panics with it.
    pub fn new(name: &'static str, en: &str, zh: &str) -> Result<Self, String> {
        let (en_bundle, zh_bundle) = (bundle(name, "en", en)?, bundle(name, "zh", zh)?);
        let (en_fixed, zh_fixed) = (said_once(&en_bundle, en)?, said_once(&zh_bundle, zh)?);
        let (en_text, zh_text) = (sentences(en), sentences(zh));
        Ok(Self { name, en: en_bundle, zh: zh_bundle, en_fixed, zh_fixed, en_text, zh_text })
    }

    /// Every sentence of the book in `lang`, placeholders as written: what
    /// the game itself says is public, so a secrecy gate counts none of
    /// its words as evidence (a persona's strategy that mentions "scores"
    /// and "novelty" must not make the rules unsayable).
    pub fn public_text(&self, lang: Language) -> &str {
        lang.pick(&self.en_text, &self.zh_text)
    }

    /// A message without variables, borrowed for the program's life: for
    /// the callers that keep a `&'static str` (a role's name, a heading).
    /// A missing one (which the tests rule out) says its id.
    pub fn fixed(&'static self, lang: Language, id: &'static str) -> &'static str {
        match lang.pick(&self.en_fixed, &self.zh_fixed).get(id) {
            Some(text) => text,
            None => {
                debug_assert!(false, "{}: no fixed message `{id}` in {}", self.name, lang.code());
                tracing::error!(book = self.name, id, lang = lang.code(), "no such fixed sentence");
                id
            }
        }
    }

    /// The message `id` in `lang` with its variables. A missing message
    /// (which the tests rule out) says its id rather than nothing.
    pub fn say(&self, lang: Language, id: &str, args: &[(&str, Arg<'_>)]) -> String {
        let bundle = lang.pick(&self.en, &self.zh);
        let Some(pattern) = bundle.get_message(id).and_then(|message| message.value()) else {
            debug_assert!(false, "{}: no message `{id}` in {}", self.name, lang.code());
            tracing::error!(book = self.name, id, lang = lang.code(), "no such sentence");
            return id.to_owned();
        };
        let mut values = FluentArgs::new();
        for (name, value) in args {
            values.set(*name, value.clone());
        }
        let mut errors = Vec::new();
        let text = bundle.format_pattern(pattern, Some(&values), &mut errors);
        if !errors.is_empty() {
            debug_assert!(false, "{}: `{id}` in {}: {errors:?}", self.name, lang.code());
            tracing::error!(book = self.name, id, ?errors, "a sentence's variables");
        }
        text.into_owned()
    }
}

/// A file's lines without its comments.
fn sentences(source: &str) -> String {
    source.lines().filter(|line| !line.trim_start().starts_with('#')).collect::<Vec<_>>().join("\n")
}

fn bundle(name: &str, code: &str, source: &str) -> Result<FluentBundle<FluentResource>, String> {
    let resource = FluentResource::try_new(source.to_owned())
        .map_err(|(_, errors)| format!("{name}/{code}.ftl does not parse: {errors:?}"))?;
    let locale = code.parse().map_err(|error| format!("{code}: {error}"))?;
    let mut bundle = FluentBundle::new_concurrent(vec![locale]);
    // No Unicode isolation marks around values: chat clients show them.
    bundle.set_use_isolating(false);
    bundle.add_resource(resource).map_err(|errors| format!("{name}/{code}.ftl: {errors:?}"))?;
    Ok(bundle)
}

/// Every message of `source` that names no variable, said once (one that
/// only refers to a message needing variables is left out).
fn said_once(bundle: &FluentBundle<FluentResource>, source: &str) -> Result<BTreeMap<String, String>, String> {
    let mut said = BTreeMap::new();
    for (id, variables) in messages(source)? {
        let Some(pattern) = bundle.get_message(&id).and_then(|message| message.value()) else { continue };
        if !variables.is_empty() {
            continue;
        }
        let mut errors = Vec::new();
        let text = bundle.format_pattern(pattern, None, &mut errors);
        if errors.is_empty() {
            said.insert(id, text.into_owned());
        }
    }
    Ok(said)
}

/// Every message of a file and the variables it names (in its value,
/// its selectors and its variants), for the parity test and tools.
pub fn messages(source: &str) -> Result<BTreeMap<String, Vec<String>>, String> {
    let resource = fluent_syntax::parser::parse(source).map_err(|(_, errors)| format!("{errors:?}"))?;
    let mut found = BTreeMap::new();
    for entry in resource.body {
        if let ast::Entry::Message(message) = entry {
            let mut names = Vec::new();
            if let Some(pattern) = &message.value {
                pattern_variables(pattern, &mut names);
            }
            names.sort();
            names.dedup();
            found.insert(message.id.name.to_owned(), names);
        }
    }
    Ok(found)
}

fn pattern_variables(pattern: &ast::Pattern<&str>, names: &mut Vec<String>) {
    for element in &pattern.elements {
        if let ast::PatternElement::Placeable { expression } = element {
            expression_variables(expression, names);
        }
    }
}

fn expression_variables(expression: &ast::Expression<&str>, names: &mut Vec<String>) {
    match expression {
        ast::Expression::Select { selector, variants } => {
            inline_variables(selector, names);
            for variant in variants {
                pattern_variables(&variant.value, names);
            }
        }
        ast::Expression::Inline(inline) => inline_variables(inline, names),
    }
}

fn inline_variables(inline: &ast::InlineExpression<&str>, names: &mut Vec<String>) {
    match inline {
        ast::InlineExpression::VariableReference { id } => names.push(id.name.to_owned()),
        ast::InlineExpression::FunctionReference { arguments, .. } => {
            for argument in &arguments.positional {
                inline_variables(argument, names);
            }
            for argument in &arguments.named {
                inline_variables(&argument.value, names);
            }
        }
        ast::InlineExpression::Placeable { expression } => expression_variables(expression, names),
        _ => {}
    }
}

/// A yes-or-no value for a message's selector: `[yes]` and `*[no]`.
pub fn flag(on: bool) -> &'static str {
    if on { "yes" } else { "no" }
}

/// Declares a phrasebook read from `src/<dir>/en.ftl` and `zh.ftl`.
#[macro_export]
macro_rules! phrasebook {
    ($name:ident, $dir:literal) => {
        static $name: std::sync::LazyLock<$crate::core::phrases::Phrasebook> = std::sync::LazyLock::new(|| {
            $crate::core::phrases::Phrasebook::new(
                $dir,
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/", $dir, "/en.ftl")),
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/", $dir, "/zh.ftl")),
            )
            .unwrap_or_else(|error| panic!("{error}"))
        });
    };
}

/// Says message `id` of a phrasebook in `lang`, with named variables:
/// `phrase!(BOOK, lang, "next-speaker", speaker = name, seconds = 30)`.
#[macro_export]
macro_rules! phrase {
    ($book:expr, $lang:expr, $id:literal $(, $key:ident = $value:expr)* $(,)?) => {
        $book.say($lang, $id, &[$((stringify!($key), $crate::core::phrases::Arg::from($value))),*])
    };
}

#[cfg(test)]
mod tests;
