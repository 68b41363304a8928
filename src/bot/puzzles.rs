//! The puzzles a scope may play (built-ins it did not disable, its enabled
//! custom puzzles) and the choice of one for a new game: the id asked for,
//! else the one a moderator queued for the channel, else a random one
//! matching the difficulty and language.

use std::sync::Arc;

use rand::seq::IndexedRandom;

use crate::core::game::record::{Intent, Verdict};
use crate::core::guild::CustomContent;
use crate::core::soup::corrections::{self, Correction, Refused};
use crate::core::soup::puzzle::Puzzle;
use crate::core::store::StoreError;
use crate::core::vocab::Difficulty;

use crate::core::vocab::Language;

use super::Bot;
use super::words::{Markup, Word, say};

/// The server's content rows that hold its corrections to known answers.
const CORRECTIONS: &str = corrections::KIND;

/// What `start` asked for.
#[derive(Debug, Clone, Default)]
pub struct Wanted {
    pub id: Option<String>,
    pub difficulty: Option<Difficulty>,
    pub language: Option<Language>,
}

/// Why no puzzle was chosen; the front end words it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoPuzzle {
    /// No playable puzzle has that id; `near` are ids that look like it.
    Unknown { id: String, near: Vec<String> },
    /// Nothing matches the difficulty and language.
    NoMatch,
}

/// Up to five playable ids that look like `id`.
pub fn near_ids(id: &str, puzzles: &[Arc<Puzzle>]) -> Vec<String> {
    let wanted = id.to_lowercase();
    puzzles
        .iter()
        .map(|p| p.id.clone())
        .filter(|pid| pid.contains(&wanted) || wanted.split('-').any(|part| part.len() > 2 && pid.contains(part)))
        .take(5)
        .collect()
}

impl Bot {
    /// The scope's custom puzzles that parse, disabled ones too when asked.
    pub async fn custom_puzzles(&self, scope: &str, include_disabled: bool) -> anyhow::Result<Vec<Arc<Puzzle>>> {
        let mut out = Vec::new();
        for custom in self.guilds.scoped_puzzles(scope).await? {
            if !custom.enabled && !include_disabled {
                continue;
            }
            match Puzzle::from_toml(&custom.source, None, None) {
                Ok(p) => out.push(Arc::new(p)),
                Err(problems) => tracing::warn!(id = %custom.id, scope, ?problems, "stored custom puzzle skipped"),
            }
        }
        Ok(out)
    }

    /// Puzzles a new game in this scope may use: built-ins it did not
    /// disable, and its enabled custom puzzles.
    pub async fn playable_puzzles(&self, scope: &str) -> anyhow::Result<Vec<Arc<Puzzle>>> {
        let disabled = self.guilds.disabled_puzzles(scope).await?;
        let mut out: Vec<Arc<Puzzle>> =
            self.library.all().iter().filter(|p| !disabled.contains(&p.id)).cloned().collect();
        out.extend(self.custom_puzzles(scope, false).await?);
        let corrections = self.corrections(scope).await?;
        Ok(out.into_iter().map(|p| corrected(p, &corrections)).collect())
    }

    /// Any puzzle this scope can see, enabled or not, with the scope's
    /// corrections to its known answers.
    pub async fn find_puzzle(&self, scope: &str, id: &str) -> anyhow::Result<Option<Arc<Puzzle>>> {
        let found = match self.library.get(id) {
            Some(p) => Some(p),
            None => self.custom_puzzles(scope, true).await?.into_iter().find(|p| p.id == id),
        };
        let corrections = self.corrections(scope).await?;
        Ok(found.map(|p| corrected(p, &corrections)))
    }

    /// The scope's corrections to puzzles' known answers, oldest first.
    pub async fn corrections(&self, scope: &str) -> anyhow::Result<Vec<Correction>> {
        let rows = self.guilds.custom_content(scope, CORRECTIONS).await?;
        let mut out: Vec<(i64, Correction)> = rows
            .iter()
            .filter_map(|row| match Correction::from_source(&row.source) {
                Some(c) => Some((row.created_ms, c)),
                None => {
                    tracing::warn!(id = %row.id, scope, "stored correction unreadable, skipped");
                    None
                }
            })
            .collect();
        out.sort_by_key(|(at, _)| *at);
        Ok(out.into_iter().map(|(_, c)| c).collect())
    }

    /// `/soup-admin known add`: `verdict` is the right answer to
    /// `question` in this scope's copy of the puzzle. Checked by the
    /// puzzle's lint; the same question stored again replaces it. The reply.
    pub async fn add_correction(
        &self,
        scope: &str,
        puzzle_id: &str,
        question: &str,
        verdict: &str,
        by: &str,
        markup: Markup,
    ) -> anyhow::Result<String> {
        let lang = self.scope_language(scope).await;
        let id = puzzle_id.trim();
        let Some(puzzle) = self.find_puzzle(scope, id).await? else {
            let near = near_ids(id, &self.playable_puzzles(scope).await?);
            return Ok(say(lang, markup, &Word::UnknownPuzzle { id, near: &near }));
        };
        let correction = match Correction::new(&puzzle, question, verdict) {
            Ok(c) => c,
            Err(Refused::BadQuestion) => return Ok(say(lang, markup, &Word::KnownBadQuestion)),
            Err(Refused::BadVerdict) => return Ok(say(lang, markup, &Word::KnownBadVerdict)),
            Err(Refused::Lint(reasons)) => {
                let list: Vec<String> = reasons.iter().map(|r| format!("• {r}")).collect();
                return Ok(say(lang, markup, &Word::KnownRefused(&list.join("\n"))));
            }
        };
        let row = CustomContent {
            scope: scope.to_string(),
            game: CORRECTIONS.to_string(),
            id: correction.id(puzzle.language),
            language: puzzle.language,
            source: correction.to_source(),
            added_by: by.to_string(),
            created_ms: self.now_ms(),
        };
        // The same question again: the new verdict replaces the old.
        self.guilds.remove_custom_content(scope, CORRECTIONS, &row.id).await?;
        match self.guilds.add_custom_content(&row).await {
            // Another moderator stored it in between: theirs stands.
            Ok(()) | Err(StoreError::Duplicate(_)) => {}
            Err(e) => return Err(e.into()),
        }
        let shown = correction.shown();
        Ok(say(lang, markup, &Word::KnownAdded { id: &row.id, puzzle: &puzzle.id, shown: &shown }))
    }

    /// The puzzle and question a correction is for: as named, else taken
    /// from the game in `key` (a game in play there) or the last game that
    /// ended in `place`: its puzzle, and the question last answered there
    /// when none is named. `None` when it names neither and no game was
    /// played here, or names another puzzle than the game's and no question.
    pub async fn which_question(
        &self,
        key: Option<&str>,
        place: &str,
        puzzle: Option<String>,
        question: Option<String>,
    ) -> anyhow::Result<Option<(String, String)>> {
        let named = |s: Option<String>| s.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
        let (puzzle, question) = (named(puzzle), named(question));
        if let (Some(p), Some(q)) = (&puzzle, &question) {
            return Ok(Some((p.clone(), q.clone())));
        }
        // The binding, not the live game: looking the game up would resume
        // it, and its undelivered replies are the front end's to post.
        let on = match key {
            Some(key) => self.guilds.thread_binding(key).await?.filter(|b| b.is_active()).map(|b| b.session_id),
            None => None,
        };
        let session = match on {
            Some(id) => Some(id),
            None => super::boards::last_finished(self.store.as_ref(), place, corrections::KIND).await?,
        };
        let Some(loaded) = (match session {
            Some(id) => self.store.load_session(&id).await?,
            None => None,
        }) else {
            return Ok(None);
        };
        if puzzle.as_deref().is_some_and(|p| p != loaded.puzzle_id) {
            return Ok(None);
        }
        let last = loaded.turns.iter().rev().find_map(|t| match (t.intent, t.verdict, &t.public) {
            (Some(Intent::Question), Some(v), Some(public)) if v != Verdict::Meta => Some(public.text.clone()),
            _ => None,
        });
        Ok(question.or(last).map(|q| (loaded.puzzle_id.clone(), q)))
    }

    /// `/soup-admin known list [puzzle]`: the scope's corrections, one line each.
    pub async fn list_corrections(&self, scope: &str, puzzle: Option<&str>, markup: Markup) -> anyhow::Result<String> {
        let lang = self.scope_language(scope).await;
        let rows = self.guilds.custom_content(scope, CORRECTIONS).await?;
        let lines: Vec<String> = rows
            .iter()
            .filter_map(|row| Some((row, Correction::from_source(&row.source)?)))
            .filter(|(_, c)| puzzle.is_none_or(|p| c.puzzle == p.trim()))
            .map(|(row, c)| format!("• `{}` {}", row.id, c.shown()))
            .collect();
        if lines.is_empty() {
            return Ok(say(lang, markup, &Word::KnownNone));
        }
        Ok(format!("{}\n{}", say(lang, markup, &Word::KnownHeading), lines.join("\n")))
    }

    /// `/soup-admin known remove <id>`: the puzzle's own known answer is
    /// back for games that start afterwards.
    pub async fn remove_correction(&self, scope: &str, id: &str, markup: Markup) -> anyhow::Result<String> {
        let lang = self.scope_language(scope).await;
        let id = id.trim().trim_matches('`');
        Ok(if self.guilds.remove_custom_content(scope, CORRECTIONS, id).await? {
            say(lang, markup, &Word::ContentRemoved(id))
        } else {
            say(lang, markup, &Word::KnownNoSuch(id))
        })
    }

    /// The puzzle for a new game in `channel`, or why there is none.
    /// `lang` is the scope's language, preferred when `wanted` names none.
    pub async fn choose_puzzle(
        &self,
        scope: &str,
        channel: &str,
        wanted: Wanted,
        lang: Language,
    ) -> anyhow::Result<Result<Arc<Puzzle>, NoPuzzle>> {
        let playable = self.playable_puzzles(scope).await?;
        if let Some(id) = wanted.id.as_deref().map(str::trim) {
            let found = playable.iter().find(|p| p.id == id).cloned();
            return Ok(found.ok_or_else(|| NoPuzzle::Unknown { id: id.to_string(), near: near_ids(id, &playable) }));
        }
        if let Some(next) = self.guilds.take_next_puzzle(scope, channel).await?
            && let Some(p) = playable.iter().find(|p| p.id == next)
        {
            return Ok(Ok(p.clone()));
        }
        let language = wanted.language.unwrap_or(lang);
        let fits = |p: &&Arc<Puzzle>, lang: Option<Language>| {
            lang.is_none_or(|l| p.language == l) && wanted.difficulty.is_none_or(|d| p.difficulty == d)
        };
        let mut matching: Vec<&Arc<Puzzle>> = playable.iter().filter(|p| fits(p, Some(language))).collect();
        if matching.is_empty() && wanted.language.is_none() {
            matching = playable.iter().filter(|p| fits(p, None)).collect();
        }
        Ok(matching.choose(&mut rand::rng()).map(|p| Arc::clone(p)).ok_or(NoPuzzle::NoMatch))
    }
}

/// `puzzle` with the scope's corrections to its known answers, if any.
pub(super) fn corrected(puzzle: Arc<Puzzle>, corrections: &[Correction]) -> Arc<Puzzle> {
    match corrections.iter().any(|c| c.puzzle == puzzle.id) {
        true => Arc::new(puzzle.corrected(corrections)),
        false => puzzle,
    }
}

impl Bot {
    /// `/soup stats`: one player's Turtle Soup record in `scope` (or
    /// everywhere), as a sentence; `name` is how the front end shows them.
    pub async fn soup_stats_text(
        &self,
        player_id: &str,
        name: &str,
        scope: Option<&str>,
        lang: Language,
        markup: Markup,
    ) -> anyhow::Result<String> {
        let stats = self.store.soup_stats(player_id, scope).await?;
        if stats.games == 0 {
            return Ok(say(lang, markup, &Word::NoStats(name)));
        }
        let per_solve = match stats.solves {
            0 => "–".to_string(),
            n => format!("{:.1}", f64::from(stats.questions_in_solves) / f64::from(n)),
        };
        let mut played: std::collections::BTreeMap<Difficulty, u32> = std::collections::BTreeMap::new();
        for (id, games) in &stats.puzzles {
            let puzzle = match (self.library.get(id), scope) {
                (Some(p), _) => Some(p),
                (None, Some(scope)) => self.find_puzzle(scope, id).await?,
                (None, None) => None,
            };
            if let Some(p) = puzzle {
                *played.entry(p.difficulty).or_default() += games;
            }
        }
        // The most played; a tie goes to the easier.
        let favourite = played.iter().max_by_key(|(d, n)| (**n, std::cmp::Reverse(**d))).map(|(d, _)| *d);
        let favourite = favourite.map_or("–", |d| difficulty_name(lang, d));
        let word = Word::SoupStats {
            name,
            games: stats.games,
            solves: stats.solves,
            per_solve: &per_solve,
            facts: stats.facts_found,
            hints: stats.hints,
            favourite,
        };
        Ok(say(lang, markup, &word))
    }
}

fn difficulty_name(lang: Language, d: Difficulty) -> &'static str {
    match (lang, d) {
        (Language::En, Difficulty::Easy) => "easy",
        (Language::En, Difficulty::Medium) => "medium",
        (Language::En, Difficulty::Hard) => "hard",
        (Language::Zh, Difficulty::Easy) => "简单",
        (Language::Zh, Difficulty::Medium) => "中等",
        (Language::Zh, Difficulty::Hard) => "困难",
    }
}
