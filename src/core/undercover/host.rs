//! Who is the Undercover as a game the bots host (`/undercover …`): a
//! lobby with the options `start` was given, a pair dealt from the word
//! library by a recorded seed, and the table rebuilt from the record.

use std::sync::Arc;

use crate::core::actor::EngineError;
use crate::core::game::{
    About, Bundled, ContentCheck, CustomItem, Game, HostedGame, Opened, Selfplayer, Table, TableOptions, bundled,
};
use crate::core::guild::CustomContent;
use crate::core::store::{LoadedSession, NewSession};
use crate::core::vocab::Language;
use crate::core::vocab::Player;

use super::words::{WordPair, server_pair};
use super::{
    Dealt, MAX_SEATS, MIN_SEATS, Role, Rules, ThemedPair, UndercoverGame, UndercoverTable, WordLibrary,
    most_undercovers, say, seats_for_undercovers, splitmix,
};
use crate::core::vocab::Difficulty;

/// Mixed into the seed to choose between a server's pairs and the bundled ones.
const SERVER_MIX: u64 = 0x5e7e_c0de;

/// A server's stored pairs in one language (an unreadable row is skipped).
fn server_pairs(custom: &[CustomContent], language: Language) -> WordLibrary {
    let pairs = custom
        .iter()
        .filter(|c| c.game == UndercoverGame::KIND && c.language == language)
        .filter_map(|c| toml::from_str::<WordPair>(&c.source).ok())
        .map(|pair| ThemedPair { language, theme: super::words::SERVER_THEME.to_string(), pair })
        .collect();
    WordLibrary::default().with(pairs)
}

pub struct UndercoverHost {
    pub words: Arc<WordLibrary>,
    pub rules: Rules,
}

impl UndercoverHost {
    pub fn new(words: Arc<WordLibrary>) -> UndercoverHost {
        UndercoverHost { words, rules: Rules::default() }
    }

    /// A lobby as `open` makes it, with a given seed (tests and self-play).
    /// The host's options are checked first: a difficulty that is not
    /// one, or more undercovers than the table can hold with the
    /// civilians still the majority, is refused with the reason.
    pub fn lobby(
        &self,
        host: &Player,
        language: Language,
        options: &TableOptions,
        seed: u64,
    ) -> Result<UndercoverGame, String> {
        let seats = options.seats.unwrap_or(MAX_SEATS).clamp(MIN_SEATS, MAX_SEATS);
        let rules = self.rules_for(language, options, seats)?;
        let server = server_pairs(&options.custom, language);
        // A server's own pairs come up in every other game, by the seed
        // (when it has any of the difficulty asked for).
        let from_server =
            !server.choices(language, rules.difficulty).is_empty() && splitmix(seed ^ SERVER_MIX) & 1 == 0;
        let library = if from_server { &server } else { &*self.words };
        let pair = library.pick(language, rules.difficulty, seed).ok_or_else(|| match language {
            Language::En => "There are no English word pairs to play with.".to_string(),
            Language::Zh => "没有可用的中文词对。".to_string(),
        })?;
        let dealt = Dealt::from_pair(&pair.pair, splitmix(seed) & 1 == 1);
        let mut game = UndercoverGame::new(host, seats, rules, language, dealt, seed);
        for _ in 0..options.ai_seats.unwrap_or(0) {
            match game.apply(&super::Event::AddAi, &()) {
                Ok(next) => game = next,
                Err(_) => break,
            }
        }
        Ok(game)
    }

    /// The table's rules from the host's options over the defaults.
    fn rules_for(&self, language: Language, options: &TableOptions, seats: usize) -> Result<Rules, String> {
        let blank = options.flag("blank").unwrap_or(self.rules.blank);
        let difficulty = match options.get("difficulty") {
            Some(typed) => Some(Difficulty::parse(typed).ok_or_else(|| say::unknown_difficulty(language, typed))?),
            None => self.rules.difficulty,
        };
        let undercovers = match options.get("undercovers") {
            Some(typed) => {
                let n = typed.parse::<usize>().ok().filter(|n| *n >= 1);
                Some(n.ok_or_else(|| say::bad_undercovers(language, typed))?)
            }
            None => self.rules.undercovers,
        };
        if let Some(n) = undercovers.filter(|n| *n > most_undercovers(seats, blank)) {
            return Err(say::too_many_undercovers(language, n, seats_for_undercovers(n, blank), seats));
        }
        Ok(Rules {
            blank,
            anonymous: options.flag("anonymous").unwrap_or(self.rules.anonymous),
            difficulty,
            undercovers,
            ..self.rules.clone()
        })
    }
}

/// The game's folder under `data/`: its word pairs, `en/*.toml` and `zh/*.toml`.
const DATA: &str = "undercover";

/// Who is the Undercover, over its bundled word pairs (`data/undercover`). The game's registration (`core::games!`).
pub fn hosted(data: &dyn Bundled) -> Arc<dyn HostedGame> {
    let words = bundled::load(data, DATA, "a bundled word pair", WordLibrary::from_sources);
    Arc::new(UndercoverHost::new(words))
}

impl HostedGame for UndercoverHost {
    fn about(&self) -> About {
        About {
            kind: UndercoverGame::KIND,
            group: "undercover",
            verbs: super::verbs::DECLARATION,
            names: super::verbs::UndercoverVerb::NAMES,
            data: Some(DATA),
        }
    }

    fn check(&self, sources: &[(String, String)]) -> Option<ContentCheck> {
        if sources.is_empty() {
            let problems = vec!["no word files (expected en/*.toml and zh/*.toml)".to_string()];
            return Some(ContentCheck { problems, summary: String::new() });
        }
        let (library, problems) = WordLibrary::from_sources(sources);
        let summary = format!("{} files, {} valid pairs\n{}", sources.len(), library.len(), library.summary());
        Some(ContentCheck { problems: problems.iter().map(ToString::to_string).collect(), summary })
    }

    fn open(&self, host: &Player, language: Language, options: &TableOptions, new: NewSession) -> Opened {
        let game = self.lobby(host, language, options, options.seed.unwrap_or_else(rand::random))?;
        let new = new.with_game(&game, language, &game.dealt.pair_id)?;
        let table = UndercoverTable::new(game, Vec::new(), &new.canary);
        Ok((new, Box::new(table)))
    }

    fn selfplay(self: Arc<Self>) -> Option<Arc<dyn Selfplayer>> {
        Some(self)
    }

    fn resume(&self, loaded: &LoadedSession) -> Result<Box<dyn Table>, EngineError> {
        let (game, history): (UndercoverGame, _) = loaded.restore()?;
        Ok(Box::new(UndercoverTable::new(game, history, &loaded.canary)))
    }

    fn custom(&self, language: Language, text: &str) -> Option<Result<CustomItem, String>> {
        let read = server_pair(language, text, &self.words).map_err(|problems| say::pair_refused(language, &problems));
        Some(read.and_then(|themed| {
            let source = toml::to_string(&themed.pair).map_err(|e| e.to_string())?;
            Ok(CustomItem { id: themed.pair.id.clone(), source, shown: pair_shown(&themed.pair) })
        }))
    }

    fn custom_shown(&self, item: &CustomContent) -> String {
        match toml::from_str::<WordPair>(&item.source) {
            Ok(pair) => pair_shown(&pair),
            Err(_) => item.id.clone(),
        }
    }

    fn role_name(&self, language: Language, role: &str) -> String {
        let known = [Role::Civilian, Role::Undercover, Role::Blank].into_iter().find(|r| r.as_str() == role);
        known.map_or_else(|| role.to_string(), |r| say::role(language, r).to_string())
    }
}

/// `coffee (coffees) / tea (teas)`.
fn pair_shown(pair: &WordPair) -> String {
    let side = |word: &str, aliases: &[String]| {
        if aliases.is_empty() { word.to_string() } else { format!("{word} ({})", aliases.join(", ")) }
    };
    format!("{} / {}", side(&pair.civilian, &pair.aliases.civilian), side(&pair.undercover, &pair.aliases.undercover))
}
