//! The command catalogue: every verb of every game, its options, help
//! text in each language and who may use it. Each game declares its own
//! group in its folder (`commands/<game>.toml`); the catalogue
//! collects them and is **the** parser: a typed line (Slack, the
//! terminal) or a platform's named options (Discord) become a
//! `TurnInput`, a verb the bot answers itself, or a usage error, the same
//! way on every front end. Front ends name no game's verb.

use serde::Deserialize;

use super::game::host::TableOptions;
use super::game::input::{TurnInput, Verb as GameVerb};
use super::vocab::Language;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Frontend {
    Terminal,
    Discord,
    Slack,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Who {
    Player,
    Moderator,
}

/// What a verb does, when it is not one of the game's own verbs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Move {
    /// Free text for the game (`describe`, `act`): `TurnInput::Say`.
    Say,
    Join,
    Leave,
    Begin,
    AddAi,
    /// A secret choice: `TurnInput::Vote` with the first option.
    Vote,
    Whisper,
    Status,
    /// End the game now (host or moderator): `TurnInput::End`.
    End,
    /// Open a lobby with the start options (`TableOptions`).
    Start,
    /// The server's own content for the game (`pairs add`, `worlds list`).
    Content,
    /// Something the bot answers itself, outside the session (stats, help).
    Bot,
    /// AI-only games of the game (`echoes selfplay <group>`, on no front
    /// end): its options are the ones a run reads.
    Selfplay,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerbOption {
    pub name: String,
    /// text | number | flag | language | puzzle | difficulty | scope | file | user | role | channel
    pub kind: String,
    #[serde(default)]
    pub required: bool,
    /// Other names it is typed as (`lang` for `language`).
    #[serde(default)]
    pub aliases: Vec<String>,
    /// The table option it fills when it is not its own name (`characters`
    /// fills `ai_seats`).
    #[serde(default)]
    pub fills: Option<String>,
    /// Typed first, before a `:` (`say Mira: hello`), though listed after
    /// the required options (Discord wants those first).
    #[serde(default)]
    pub lead: bool,
    /// In a typed `start` line, takes the rest of the line (`topic: …`).
    #[serde(default)]
    pub rest: bool,
    /// In a typed `start` line, a bare word that is nothing else.
    #[serde(default)]
    pub bare: bool,
    #[serde(default)]
    pub min: Option<i64>,
    #[serde(default)]
    pub max: Option<i64>,
    /// How Discord describes it.
    #[serde(default)]
    pub describe: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Help {
    pub en: String,
    pub zh: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Verb {
    pub group: String,
    pub name: String,
    pub who: Who,
    pub frontends: Vec<Frontend>,
    #[serde(default)]
    pub options: Vec<VerbOption>,
    pub help: Help,
    /// Other names it is typed as (`a` for `ask`, `word` for `whisper`).
    #[serde(default)]
    pub aliases: Vec<String>,
    /// The engine's move it makes; none: the game's own verb.
    #[serde(default, rename = "move")]
    pub action: Option<Move>,
    /// Its answer goes to the sender alone (a vote, a last guess).
    #[serde(default)]
    pub private: bool,
    /// What players type for it plainly, as a whole message and in either
    /// language ("hint", "提示", "give up"): read without the slash in the
    /// terminal and in a game's thread. Only for verbs with no required option.
    #[serde(default)]
    pub said: Vec<String>,
    /// Shown as a button under the game's opening message on the chat
    /// front ends (`Catalogue::buttons`); pressed, it is read back as the
    /// verb (`Catalogue::button`). Only for verbs with no required option.
    #[serde(default)]
    pub button: Option<Button>,
}

/// A verb's button: its label in each language and how it is drawn.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Button {
    pub en: String,
    pub zh: String,
    #[serde(default)]
    pub style: ButtonStyle,
}

/// How a button is drawn: the main move, a plain one, or one that ends
/// something (Discord's primary, secondary and danger; Slack draws a plain
/// one without a style).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ButtonStyle {
    Primary,
    #[default]
    Secondary,
    Danger,
}

/// A button as a front end shows it: its id (`group:verb`), label and style.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownButton {
    pub id: String,
    pub label: String,
    pub style: ButtonStyle,
}

impl Verb {
    pub fn help(&self, lang: Language) -> &str {
        match lang {
            Language::En => &self.help.en,
            Language::Zh => &self.help.zh,
        }
    }

    /// `/ask <question>`, `/undercover start [seats]`.
    pub fn usage(&self, prefix: &str) -> String {
        let opts: String = self
            .options
            .iter()
            .map(|o| if o.required { format!(" <{}>", o.name) } else { format!(" [{}]", o.name) })
            .collect();
        format!("{prefix}{}{opts}", self.name)
    }

    fn named(&self, name: &str) -> bool {
        self.name == name || self.aliases.iter().any(|a| a == name)
    }

    /// The arguments in declaration order from the text typed after the
    /// verb: a `lead` option first (before a `:`, or the first word when
    /// more follows), then one word for each option but the last, and
    /// the rest of the line for the last.
    pub fn split_typed(&self, rest: &str) -> Vec<String> {
        let mut rest = rest.trim().to_string();
        let mut lead = String::new();
        if self.options.iter().any(|o| o.lead) {
            (lead, rest) = split_lead(&rest);
        }
        let plain: Vec<&VerbOption> = self.options.iter().filter(|o| !o.lead).collect();
        let mut args = Vec::new();
        for (i, _) in plain.iter().enumerate() {
            if i + 1 == plain.len() {
                args.push(std::mem::take(&mut rest));
            } else {
                let (word, more) = rest.split_once(char::is_whitespace).unwrap_or((rest.as_str(), ""));
                args.push(word.to_string());
                rest = more.trim().to_string();
            }
        }
        // Put the lead option back at its declared place.
        if let Some(at) = self.options.iter().position(|o| o.lead) {
            args.insert(at.min(args.len()), lead);
        }
        args
    }

    /// The input this verb makes with `args` (declaration order), or the
    /// usage line when a required option is missing. `None` for a verb
    /// the bot answers itself.
    pub fn input(&self, args: Vec<String>, prefix: &str) -> Result<Option<TurnInput>, String> {
        // A `lead` option may be left out when typed (`say hello` is words to
        // nobody in particular); the game reads it as absent.
        let missing = self
            .options
            .iter()
            .enumerate()
            .any(|(i, o)| o.required && !o.lead && args.get(i).is_none_or(|a| a.trim().is_empty()));
        if missing {
            return Err(self.usage(prefix));
        }
        let first = || args.first().map(|a| a.trim().to_string()).unwrap_or_default();
        Ok(Some(match self.action {
            None => {
                let mut args = args;
                while args.last().is_some_and(|a| a.trim().is_empty()) {
                    args.pop();
                }
                TurnInput::Verb(GameVerb::new(self.name.clone(), args.into_iter().map(|a| a.trim().to_string())))
            }
            Some(Move::Say) => TurnInput::Say(first()),
            Some(Move::Join) => TurnInput::Join,
            Some(Move::Leave) => TurnInput::Leave,
            Some(Move::Begin) => TurnInput::Begin,
            Some(Move::AddAi) => TurnInput::AddAi,
            Some(Move::Vote) => TurnInput::Vote(first()),
            Some(Move::Whisper) => TurnInput::Whisper,
            Some(Move::Status) => TurnInput::Status,
            Some(Move::End) => TurnInput::End,
            Some(Move::Start | Move::Content | Move::Bot | Move::Selfplay) => return Ok(None),
        }))
    }

    /// Whether the answer goes to the sender alone.
    pub fn answers_privately(&self) -> bool {
        self.private || matches!(self.action, Some(Move::Vote | Move::Whisper))
    }
}

/// `Mira: hello` → (`Mira`, `hello`); `Mira hello` → (`Mira`, `hello`);
/// a single word → (``, the word).
fn split_lead(rest: &str) -> (String, String) {
    let split = match rest.split_once([':', '：']) {
        Some((to, text)) if !to.trim().is_empty() && to.chars().count() <= 32 => Some((to, text)),
        _ => rest.split_once(' '),
    };
    match split {
        Some((to, text)) if !text.trim().is_empty() => (to.trim().to_string(), text.trim().to_string()),
        _ => (String::new(), rest.to_string()),
    }
}

/// What a typed line or a platform's command asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed<'c> {
    /// A move for the session.
    Input { input: TurnInput, verb: &'c Verb },
    /// A verb the bot answers itself (its `Move` says which kind), with
    /// its arguments in declaration order.
    Bot { verb: &'c Verb, args: Vec<String> },
}

/// Why a line is not a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// No such verb in the group here.
    Unknown(String),
    /// The verb's usage line: a required option was missing.
    Usage(String),
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalogue {
    #[serde(rename = "verb")]
    pub verbs: Vec<Verb>,
}

impl Catalogue {
    pub fn parse(source: &str) -> Result<Catalogue, String> {
        let catalogue: Catalogue = toml::from_str(source).map_err(|e| e.to_string())?;
        catalogue.checked()
    }

    /// Every game's declaration, collected into one catalogue.
    pub fn collect<'a>(sources: impl IntoIterator<Item = &'a str>) -> Result<Catalogue, String> {
        let mut verbs = Vec::new();
        for source in sources {
            verbs.extend(Catalogue::parse(source)?.verbs);
        }
        Catalogue { verbs }.checked()
    }

    fn checked(self) -> Result<Catalogue, String> {
        let mut names: Vec<(&str, &str)> = self
            .verbs
            .iter()
            .flat_map(|v| {
                std::iter::once(v.name.as_str())
                    .chain(v.aliases.iter().map(String::as_str))
                    .map(|n| (v.group.as_str(), n))
            })
            .collect();
        names.sort_unstable();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("verb {} {} is listed twice", w[0].0, w[0].1));
        }
        for v in &self.verbs {
            let optional_then_required = v.options.windows(2).any(|w| !w[0].required && w[1].required);
            if optional_then_required {
                return Err(format!("verb {} {}: a required option after an optional one", v.group, v.name));
            }
            if v.button.is_some() && v.options.iter().any(|o| o.required) {
                return Err(format!("verb {} {}: a button cannot give a required option", v.group, v.name));
            }
        }
        Ok(self)
    }

    /// The buttons under `group`'s opening message where `frontend` offers
    /// them, in declaration order, labelled in `lang`.
    pub fn buttons(&self, frontend: Frontend, group: &str, lang: Language) -> Vec<ShownButton> {
        let labelled = |v: &Verb, b: &Button| ShownButton {
            id: format!("{}:{}", v.group, v.name),
            label: match lang {
                Language::En => b.en.clone(),
                Language::Zh => b.zh.clone(),
            },
            style: b.style,
        };
        self.for_frontend(frontend)
            .filter(|v| v.group == group)
            .filter_map(|v| v.button.as_ref().map(|b| labelled(v, b)))
            .collect()
    }

    /// Verbs a front end must offer, in catalogue order.
    pub fn for_frontend(&self, frontend: Frontend) -> impl Iterator<Item = &Verb> {
        self.verbs.iter().filter(move |v| v.frontends.contains(&frontend))
    }

    /// A group's verb by name or alias, where `frontend` offers it.
    pub fn find(&self, frontend: Frontend, group: &str, name: &str) -> Option<&Verb> {
        let name = name.to_lowercase();
        self.for_frontend(frontend).find(|v| v.group == group && v.named(&name))
    }

    /// A typed line (`ask was it night?`, without the slash) of `group`'s
    /// verbs; `prefix` starts the usage line (`/`, `/undercover `).
    pub fn read_line(
        &self,
        frontend: Frontend,
        group: &str,
        line: &str,
        prefix: &str,
    ) -> Result<Parsed<'_>, ReadError> {
        let (verb, rest) = self.verb_of(frontend, group, line)?;
        Self::parsed(verb, verb.split_typed(rest), prefix)
    }

    /// The verb a line starts with (a sub-verb's two words, `pairs add`,
    /// before one) and the text after it.
    pub fn verb_of<'l>(&self, frontend: Frontend, group: &str, line: &'l str) -> Result<(&Verb, &'l str), ReadError> {
        let line = line.trim();
        let (first, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim_start();
        let (second, after) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        if !second.is_empty()
            && let Some(verb) = self.find(frontend, group, &format!("{first} {second}"))
        {
            return Ok((verb, after));
        }
        let verb = self.find(frontend, group, first).ok_or_else(|| ReadError::Unknown(first.to_lowercase()))?;
        Ok((verb, rest))
    }

    /// A verb with its options by name (a Discord command's): the same
    /// result as the typed line would give.
    pub fn read_named(
        &self,
        frontend: Frontend,
        group: &str,
        name: &str,
        options: &[(String, String)],
        prefix: &str,
    ) -> Result<Parsed<'_>, ReadError> {
        let verb = self.find(frontend, group, name).ok_or_else(|| ReadError::Unknown(name.to_string()))?;
        let args = verb
            .options
            .iter()
            .map(|o| options.iter().find(|(n, _)| *n == o.name).map(|(_, v)| v.clone()).unwrap_or_default())
            .collect();
        Self::parsed(verb, args, prefix)
    }

    /// The move a button makes: its id is `group:verb` (`soup:hint`), as
    /// `buttons` gives it.
    pub fn button(&self, frontend: Frontend, id: &str) -> Option<TurnInput> {
        let (group, verb) = id.split_once(':')?;
        match self.read_line(frontend, group, verb, "") {
            Ok(Parsed::Input { input, .. }) => Some(input),
            _ => None,
        }
    }

    fn parsed<'c>(verb: &'c Verb, args: Vec<String>, prefix: &str) -> Result<Parsed<'c>, ReadError> {
        match verb.input(args.clone(), prefix).map_err(ReadError::Usage)? {
            Some(input) => Ok(Parsed::Input { input, verb }),
            None => Ok(Parsed::Bot { verb, args }),
        }
    }

    /// A message that is one of `group`'s verbs said plainly (`hint`,
    /// `提示`, `give up please`): the verb, read as if typed with no
    /// arguments. `None` for anything else (a question, a guess).
    pub fn said(&self, frontend: Frontend, group: &str, text: &str) -> Option<Parsed<'_>> {
        let plain = plainly(text);
        if plain.is_empty() {
            return None;
        }
        let verb = self.for_frontend(frontend).find(|v| {
            v.group == group
                && !v.options.iter().any(|o| o.required)
                && (v.named(&plain) || v.said.iter().any(|s| plainly(s) == plain))
        })?;
        Self::parsed(verb, Vec::new(), "").ok()
    }

    /// `start`'s options from a typed line: `seats:6 ai_seats:3
    /// language:zh blank:yes`, or the short forms `6`, `zh`, `blank`; an
    /// option marked `rest` takes the rest of the line (`topic: …`), one
    /// marked `bare` a bare word that is nothing else.
    pub fn start_options(&self, frontend: Frontend, group: &str, text: &str) -> TableOptions {
        let Some(start) = self.start_verb(frontend, group) else { return TableOptions::default() };
        let mut named: Vec<(String, String)> = Vec::new();
        let lower = text.to_ascii_lowercase();
        let mut text = text;
        for o in start.options.iter().filter(|o| o.rest) {
            if let Some(at) = [':', '='].iter().find_map(|sep| lower.find(&format!("{}{sep}", o.name))) {
                named.push((o.name.clone(), text[at + o.name.len() + 1..].trim().to_string()));
                text = &text[..at];
            }
        }
        let mut loose: Vec<&str> = Vec::new();
        for token in text.split_whitespace() {
            let (key, value) = token.split_once([':', '=']).unwrap_or(("", token));
            let key = key.to_lowercase().replace('-', "_");
            let option = if key.is_empty() { bare_option(start, value) } else { option_named(start, &key) };
            match option {
                Some(o) => {
                    let value = if key.is_empty() && o.kind == "flag" { "yes" } else { value };
                    named.push((o.name.clone(), value.to_string()));
                }
                None if key.is_empty() => loose.push(token),
                None => {}
            }
        }
        // Words that are nothing else: the `bare` option (a world's name),
        // else the `rest` one (a topic).
        let target = start.options.iter().find(|o| o.bare).or_else(|| start.options.iter().find(|o| o.rest));
        if let (Some(o), false) = (target, loose.is_empty()) {
            named.push((o.name.clone(), loose.join(" ")));
        }
        Self::options_of(start, &named)
    }

    /// `start`'s options by name (a Discord command's).
    pub fn start_named(&self, frontend: Frontend, group: &str, named: &[(String, String)]) -> TableOptions {
        self.start_verb(frontend, group).map(|start| Self::options_of(start, named)).unwrap_or_default()
    }

    fn start_verb(&self, frontend: Frontend, group: &str) -> Option<&Verb> {
        self.for_frontend(frontend).find(|v| v.group == group && v.action == Some(Move::Start))
    }

    fn options_of(start: &Verb, named: &[(String, String)]) -> TableOptions {
        let mut options = TableOptions::default();
        for (name, value) in named {
            let Some(o) = start.options.iter().find(|o| o.name == *name) else { continue };
            let value = value.trim();
            match o.fills.as_deref().unwrap_or(&o.name) {
                "seats" => options.seats = value.parse().ok().or(options.seats),
                "ai_seats" => options.ai_seats = value.parse().ok().or(options.ai_seats),
                "language" => options.language = Language::parse(value).or(options.language),
                "seed" => options.seed = value.parse().ok().or(options.seed),
                _ if value.is_empty() => {}
                own => options.set(own, if o.kind == "flag" { flag_text(value) } else { value }),
            }
        }
        options
    }

    /// A help listing of one group's verbs, each after `prefix`
    /// (`/undercover `), e.g. `/undercover vote <choice>  Vote in secret.`
    pub fn group_help(&self, frontend: Frontend, lang: Language, group: &str, prefix: &str) -> String {
        self.for_frontend(frontend)
            .filter(|v| v.group == group)
            .map(|v| format!("{}  {}", v.usage(prefix), v.help(lang)))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// A message as a plain command is compared: lower case, without the
/// surrounding punctuation, a leading slash or a trailing "please".
fn plainly(text: &str) -> String {
    let lower = text.trim().trim_start_matches('/').to_lowercase();
    let trimmed =
        lower.trim_matches(|c: char| c.is_ascii_punctuation() || "？！。，…~～".contains(c) || c.is_whitespace());
    let words: Vec<&str> = trimmed.split_whitespace().collect();
    let words = match words.as_slice() {
        [rest @ .., "please" | "pls" | "plz"] if !rest.is_empty() => rest.to_vec(),
        _ => words,
    };
    let joined = words.join(" ");
    joined.trim_end_matches(['吧', '啊', '呀', '了']).trim_start_matches('请').to_string()
}

fn option_named<'v>(start: &'v Verb, key: &str) -> Option<&'v VerbOption> {
    start.options.iter().find(|o| o.name == key || o.aliases.iter().any(|a| a == key))
}

/// What a bare word in a `start` line is: a number of seats, a language
/// or a flag's name.
fn bare_option<'v>(start: &'v Verb, value: &str) -> Option<&'v VerbOption> {
    let of_kind = |kind: &str| start.options.iter().find(|o| o.kind == kind);
    if value.parse::<usize>().is_ok() {
        return start.options.iter().find(|o| o.name == "seats");
    }
    if Language::parse(value).is_some() {
        return of_kind("language");
    }
    start.options.iter().find(|o| o.kind == "flag" && o.name.eq_ignore_ascii_case(value))
}

fn flag_text(value: &str) -> &'static str {
    if matches!(value.to_lowercase().as_str(), "yes" | "true" | "on" | "1") { "yes" } else { "no" }
}

mod selfplay;

#[cfg(test)]
mod tests;
