//! The Lore RPG on the engine: seed 001's turn pipeline.
//!
//! 1. retrieve public passages for the action (the index's `Narrator`
//!    role: a player's turn never retrieves GM-only lore);
//! 2. the **referee** rules on it and plans the scene in one call
//!    (`approved`, reason, confidence, suggestions, `next_action`);
//! 3. exactly one of: the **narrator** (narration, or the ruling when the
//!    action is disqualified) or an **NPC** in character (its persona
//!    extracted on first engagement, then cached in the state);
//! 4. retrieve passages for the reply and have the referee check it; a
//!    reply that breaks the lore is replaced by the narrator's correction
//!    and the player wins the turn;
//! 5. the reply shows its sources and passes the gate (every GM-only
//!    passage is a hidden secret) before anything is stored.
//!
//! Each step reports its phase (`Progress::Step`). A model that fails
//! (down, timed out) leaves the turn unplayed (`commit: false`); a model
//! that answers garbage gets the defined fallback. The history each role
//! reads is the session's layered context (`core::context`), fitted to a
//! per-role token budget; older turns are kept searchable in the memory
//! index and recalled when the action is about them.

use std::sync::Arc;

use async_trait::async_trait;

use crate::core::actor::Inbound;
use crate::core::context::{BookRules, Layers, Shares, View, estimate_tokens, extract_summary};
use crate::core::game::table::GameTable;
use crate::core::game::{
    Audience, Game, Played, Points, Reply, ReplyKind, Secret, SecretGates, Turn, TurnContext, TurnInput, TurnRecord,
};
use crate::core::knowledge::Role;
use crate::core::llm::echo::Instructions;
use crate::core::llm::{ChatMessage, DEFAULT_WINDOW, LlmClient};
use crate::core::memory::{MemoryItem, MemoryKind};
use crate::core::prompts::PublicTurn;
use crate::core::secrecy::{Blocked, Canary, Check};
use crate::core::services::Progress;
use crate::core::vocab::Language;

use super::agents::{self, Mode, Plan, Ruling};
use super::verbs::LoreVerb;
use super::world::{Npc, Passage, World};
use super::{Ending, Event, LoreGame, MAX_ACTION, Outcome, Persona, Phase, Rejection, Speaker, TurnDone, say};

/// Passages retrieved for an action or a reply.
const PASSAGES: usize = 4;
/// Older turns recalled from the index, at most.
const RECALLED: usize = 3;
/// Candidates recall weighs against its threshold.
const RECALL_CANDIDATES: usize = 8;
/// Cosine similarity an older turn needs to be recalled (the pipeline's
/// sentence embedder).
pub const RECALL_MIN_COSINE: f32 = 0.4;
/// Content words an older turn must share with the action when there is
/// no sentence embedder.
pub const RECALL_MIN_SHARED: usize = 2;
/// Tokens of a prompt outside its layered context (the lore passages, the
/// instructions, the task), set apart before the window is split.
const RESERVED: usize = 700;
/// A ruling this confident lets a reply that states nothing new go
/// unchecked.
const SURE: f32 = 0.8;
/// The referee's and the narrator's longest answers, in tokens.
const REFEREE_REPLY: usize = 160;
const NARRATOR_REPLY: usize = 200;

pub struct LoreTable {
    pub game: LoreGame,
    world: Arc<World>,
    session: String,
    gates: SecretGates,
    /// Every run of words (Chinese: characters) of a GM-only passage that
    /// no public text has: a reply holding one is withheld, also when it
    /// is too short a fragment for the span gate.
    windows: std::collections::HashSet<String>,
    /// The world's public text (what every player may read).
    public: String,
}

/// Words (or Chinese characters) per window of `lore_windows`.
const WINDOW_WORDS: usize = 5;
const WINDOW_CHARS: usize = 8;

fn windows_of(text: &str) -> Vec<String> {
    // Lower case, letters and digits only; Chinese as single characters.
    let tokens = crate::core::text::words(text);
    let cjk = tokens.iter().filter(|t| t.chars().all(crate::core::text::is_cjk)).count() * 2 > tokens.len();
    let n = if cjk { WINDOW_CHARS } else { WINDOW_WORDS };
    tokens.windows(n).map(|w| w.join(" ")).collect()
}

/// Words too common to make a run of words a secret's.
const COMMON: [&str; 44] = [
    "the", "a", "an", "of", "on", "in", "at", "to", "and", "or", "but", "was", "is", "are", "he", "she", "it", "his",
    "her", "they", "their", "that", "this", "with", "for", "from", "by", "as", "had", "has", "have", "be", "were",
    "not", "no", "you", "your", "i", "we", "gm", "only", "who", "what", "all",
];

/// The distinctive windows of a world's GM-only passages: not in any
/// public text, and (in English) holding two words that are not common.
fn lore_windows(world: &World) -> std::collections::HashSet<String> {
    let public: std::collections::HashSet<String> = windows_of(&world.public_text()).into_iter().collect();
    let telling = |w: &String| {
        w.chars().any(crate::core::text::is_cjk) || w.split(' ').filter(|t| !COMMON.contains(t)).count() >= 2
    };
    world.secrets().flat_map(|p| windows_of(&p.text)).filter(|w| !public.contains(w) && telling(w)).collect()
}

pub struct Next {
    game: LoreGame,
}

/// The gate: every GM-only passage is a hidden secret; the public lore is
/// context, never evidence.
fn gates_for(world: &World, canary: &str) -> SecretGates {
    let secrets: Vec<Secret> = world.secrets().map(|p| Secret::hidden(p.text.clone())).collect();
    SecretGates::new(&world.public_text(), &secrets, Canary::parse(canary))
}

fn not_played(lang: Language) -> Played {
    Played { commit: false, ..Played::refused(say::model_down(lang)) }
}

/// A model failed (down, timed out), or the planned NPC is not in the
/// world: the turn is not played.
struct ModelDown;

/// What the steps after the referee read about one action.
struct Scene<'a> {
    player: &'a str,
    action: &'a str,
    /// Public passages retrieved for the action.
    passages: Vec<&'a Passage>,
    /// The players' history, fitted to the narrator's budget.
    public_history: String,
}

/// A reply on its way through steps 3 to 5.
struct Draft {
    speaker: Speaker,
    reply: String,
    outcome: Outcome,
    /// A persona extracted this turn.
    persona: Option<Persona>,
    /// Titles of the passages shown as the reply's sources.
    sources: Vec<String>,
    /// The referee's notes (GM only).
    note: String,
    /// Why the reply was corrected (empty when it was not).
    correction: String,
    /// Set when the gate replaced the reply.
    withheld: Option<Blocked>,
    /// Model calls from step 3 on.
    calls: u32,
}

impl Draft {
    /// A reply as first spoken: no sources, notes or correction yet.
    fn spoken(speaker: Speaker, reply: String, outcome: Outcome, calls: u32) -> Draft {
        Draft {
            speaker,
            reply,
            outcome,
            persona: None,
            sources: Vec::new(),
            note: String::new(),
            correction: String::new(),
            withheld: None,
            calls,
        }
    }

    /// Takes the narrator's correction: the player wins the turn, and the
    /// words are the narrator's (an NPC never says what it did not say).
    fn correct(&mut self, c: Correction) {
        // The correction's own call.
        self.calls += 1;
        self.speaker = Speaker::Narrator;
        self.reply = c.reply;
        self.outcome = Outcome::Corrected;
        self.note.push_str(&format!("; reply corrected: {}", c.reason));
        self.correction = c.reason;
        self.sources = c.sources;
    }
}

/// The narrator's correction of a reply that broke the lore.
struct Correction {
    reply: String,
    reason: String,
    /// Titles of the checked passages it rests on.
    sources: Vec<String>,
}

/// The memory namespace a session's older turns are searchable in.
pub fn archive_namespace(session: &str) -> String {
    format!("session:{session}")
}

impl LoreTable {
    pub fn new(game: LoreGame, world: Arc<World>, session: &str, canary: &str) -> LoreTable {
        LoreTable {
            gates: gates_for(&world, canary),
            windows: lore_windows(&world),
            public: world.public_text(),
            game,
            world,
            session: session.to_string(),
        }
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    fn lang(&self) -> Language {
        self.game.language
    }

    fn npc_list(&self) -> String {
        self.world.npcs.iter().map(|n| n.name.as_str()).collect::<Vec<_>>().join(", ")
    }

    /// The opening: the premise, the first scene and who can be addressed.
    pub fn opening(&self) -> String {
        let w = &self.world;
        say::opening(self.lang(), &w.title, &w.premise, &w.opening, &self.npc_list())
    }

    fn status_text(&self) -> String {
        let g = &self.game;
        if g.turn == 0 {
            return self.opening();
        }
        let lang = self.lang();
        let scene = g
            .scene
            .as_deref()
            .and_then(|id| self.world.npc(id))
            .map_or_else(|| say::gm(lang).to_string(), |n| n.name.clone());
        let met: Vec<&str> = g.personas.values().map(|p| p.name.as_str()).collect();
        let met = if met.is_empty() { say::nobody(lang).to_string() } else { met.join(", ") };
        say::status(lang, &self.world.title, g.turn, &scene, &met, &self.npc_list())
    }

    fn recap_text(&self) -> String {
        let lang = self.lang();
        let book = &self.game.book;
        if self.game.turn == 0 {
            return say::nothing_yet(lang).to_string();
        }
        let mut lines = Vec::new();
        if !book.summary.trim().is_empty() {
            lines.push(say::recap_heading(lang).to_string());
            lines.push(book.summary.clone());
        }
        lines.push(say::recap_recent(lang).to_string());
        let rules = self.game.rules();
        lines.extend(book.hot(&rules).iter().map(|e| format!("  {}", e.line())));
        lines.join("\n")
    }

    /// The end: the standings, the story and what the game master knew.
    fn final_text(&self, g: &LoreGame) -> String {
        let lang = self.lang();
        let mut lines = vec![say::ended(lang, &self.world.title)];
        if g.ending == Some(Ending::Idle) {
            lines.push(say::ended_idle(lang).to_string());
        }
        lines.push(self.scores_text(g));
        if !g.book.summary.trim().is_empty() {
            lines.push(format!("{}\n{}", say::recap_heading(lang), g.book.summary));
        }
        lines.push(say::secrets_heading(lang).to_string());
        for p in self.world.secrets() {
            lines.push(format!("  · {}: {}", p.title, agents::clip(&p.text, 160)));
        }
        lines.join("\n")
    }

    /// Turns won and lost per player in `g`.
    fn scores_text(&self, g: &LoreGame) -> String {
        let lang = self.lang();
        let standings = g.standings();
        if standings.is_empty() {
            return say::no_scores(lang).to_string();
        }
        let mut lines = vec![say::scores_heading(lang).to_string()];
        lines.extend(standings.iter().map(|t| format!("  {}", say::tally_line(lang, t))));
        lines.join("\n")
    }

    fn gated(&self, played: Played, over: bool) -> Played {
        self.gates.gate(played, over, &say::withheld(self.lang()))
    }

    /// Why a text may not be shown to players while the game is on.
    pub fn gate_check(&self, text: &str) -> Option<String> {
        self.secret_in(text).map(|b| b.span)
    }

    /// A GM-only passage in `text`: by the gate (spans, encodings, the
    /// canary) or by one of its distinctive runs of words.
    fn secret_in(&self, text: &str) -> Option<crate::core::secrecy::Blocked> {
        if let Check::Blocked(b) = self.gates.check(&Audience::Everyone, text) {
            return Some(b);
        }
        let hit = windows_of(text).into_iter().find(|w| self.windows.contains(w))?;
        Some(crate::core::secrecy::Blocked { reason: crate::core::secrecy::Reason::Span, span: hit, canary: false })
    }

    /// Public passages for `query`: from the knowledge index (role
    /// `Narrator`: public lore only), else by shared words.
    async fn retrieve(&self, ctx: &TurnContext<'_>, query: &str, k: usize) -> Vec<&Passage> {
        if let Some(kb) = &ctx.pipeline.knowledge {
            match kb.retrieve(Role::Narrator, &self.world.corpus(), query, k).await {
                Ok(hits) => {
                    let found: Vec<&Passage> = hits
                        .iter()
                        .filter_map(|h| self.world.passage_of_doc(&h.doc.id))
                        .filter(|p| p.is_public())
                        .collect();
                    if !found.is_empty() {
                        return found;
                    }
                }
                Err(e) => tracing::warn!(error = %e, "lore retrieval failed; matching words instead"),
            }
        }
        self.world.lexical(query, k)
    }

    /// Puts turns not yet indexed into the memory index (they are
    /// committed already) and recalls older turns about `query` (above
    /// the similarity threshold, `about`), leaving out those the hot
    /// window shows. Returns the lines, the last turn now indexed and
    /// whether the index holds anything.
    async fn recall(&self, ctx: &TurnContext<'_>, query: &str) -> (Vec<String>, u32, bool) {
        let book = &self.game.book;
        let Some(memory) = &ctx.pipeline.memory else { return (Vec::new(), book.archived_upto, book.indexed) };
        let namespace = archive_namespace(&self.session);
        let pending = book.to_archive();
        let (mut archived, mut indexed) = (book.archived_upto, book.indexed);
        if !pending.is_empty() {
            let items: Vec<MemoryItem> = pending
                .iter()
                .enumerate()
                .map(|(i, e)| MemoryItem {
                    id: format!("{}:{}:{}", self.session, e.turn, i),
                    namespace: namespace.clone(),
                    kind: MemoryKind::Turn,
                    text: e.line(),
                    updated_ms: ctx.now_ms,
                })
                .collect();
            match memory.put(&items).await {
                Ok(()) => {
                    archived = pending.iter().map(|e| e.turn).max().unwrap_or(archived);
                    indexed = true;
                }
                Err(e) => tracing::warn!(error = %e, "could not index older turns"),
            }
        }
        let rules = self.game.rules();
        let hot_from = book.hot(&rules).first().map_or(u32::MAX, |e| e.turn);
        let candidates: Vec<String> = match memory.recall(&[namespace], query, RECALL_CANDIDATES).await {
            Ok(items) => {
                items.into_iter().filter(|m| turn_of(&m.id).is_some_and(|t| t < hot_from)).map(|m| m.text).collect()
            }
            Err(e) => {
                tracing::warn!(error = %e, "could not search older turns");
                Vec::new()
            }
        };
        (self.about(ctx, query, candidates).await, archived, indexed)
    }

    /// The candidates that are about `query`, most similar first: by the
    /// sentence embedder's cosine where the pipeline has one, else by the
    /// content words they share. Nearest is not enough: an older turn
    /// below the threshold is not recalled at all.
    async fn about(&self, ctx: &TurnContext<'_>, query: &str, candidates: Vec<String>) -> Vec<String> {
        if candidates.is_empty() {
            return candidates;
        }
        if let Some(embedder) = &ctx.pipeline.embedder {
            let mut texts = vec![query.to_string()];
            texts.extend(candidates.iter().map(|c| recalled_text(c).to_string()));
            match embedder.embed(&texts).await {
                Ok(vectors) if vectors.len() == texts.len() => {
                    let mut scored: Vec<(f32, String)> = candidates
                        .into_iter()
                        .zip(&vectors[1..])
                        .map(|(c, v)| (crate::core::embed::cosine(&vectors[0], v), c))
                        .filter(|(score, _)| *score >= RECALL_MIN_COSINE)
                        .collect();
                    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
                    return scored.into_iter().take(RECALLED).map(|(_, c)| c).collect();
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "could not embed for recall; matching words instead"),
            }
        }
        let wanted = content_words(query);
        let mut scored: Vec<(usize, String)> = candidates
            .into_iter()
            .map(|c| (content_words(recalled_text(&c)).intersection(&wanted).count(), c))
            .filter(|(n, _)| *n >= RECALL_MIN_SHARED)
            .collect();
        scored.sort_by_key(|s| std::cmp::Reverse(s.0));
        scored.into_iter().take(RECALLED).map(|(_, c)| c).collect()
    }

    /// A role's context budget: its model's window (configured, the
    /// model's own, or the default) split in the seed's shares.
    fn shares(model: &dyn LlmClient, reply: usize) -> Shares {
        Shares::for_window(model.context_window().unwrap_or(DEFAULT_WINDOW), RESERVED + reply)
    }

    /// The frozen layer (seed 004): who plays, whom they met, the world's
    /// premise for the referee (the narrator's instructions hold it), and
    /// the opening hook; cut to its share.
    fn frozen(&self, view: View, acting: &str, shares: &Shares) -> String {
        let g = &self.game;
        let mut party: Vec<&str> = g.tally.values().map(|t| t.name.as_str()).collect();
        if !party.contains(&acting) {
            party.push(acting);
        }
        let met: Vec<&str> = g.personas.values().map(|p| p.name.as_str()).collect();
        let premise = (view == View::Gm).then_some(self.world.premise.as_str());
        let text = say::frozen(self.lang(), &party.join(", "), &met.join(", "), premise, &self.world.opening);
        let words = shares.frozen * 3 / 4;
        crate::core::context::keep_first_words(&text, words, self.lang())
    }

    /// One role's context: the frozen layer, then the history fitted to
    /// the role's shares of its model's window.
    fn history(&self, view: View, now: (&str, &str), recalled: &[String], ctx: &TurnContext<'_>) -> String {
        let rules = self.game.rules();
        let layers = Layers::from_book(&self.game.book, &rules, view, now.1, recalled.to_vec());
        let (model, reply) = match view {
            View::Gm => (&ctx.pipeline.models.judge, REFEREE_REPLY),
            View::Public => (&ctx.pipeline.models.narrator, NARRATOR_REPLY),
        };
        let shares = Self::shares(&**model, reply);
        let count = |t: &str| model.count_tokens(t).unwrap_or_else(|| estimate_tokens(t));
        let fitted = layers.fit_shares(self.lang(), &shares, &count).0;
        format!("{}\n\n{fitted}", self.frozen(view, now.0, &shares))
    }

    /// Where the scene goes: the referee's plan when readable and
    /// consistent, else an addressed or named NPC, else the narrator.
    fn plan(&self, ruling: Option<&Ruling>, addressed: Option<&Npc>, action: &str) -> Plan {
        if ruling.is_some_and(Ruling::rejects) {
            return Plan::Disqualify;
        }
        if let Some(npc) = addressed {
            return Plan::Npc(npc.id.clone());
        }
        let named = self.world.npcs_in(action);
        match ruling.and_then(|r| r.plan.clone()) {
            Some(Plan::Npc(target)) => {
                let npc = self.world.npc_named(&target).or_else(|| (named.len() == 1).then(|| named[0]));
                npc.map_or(Plan::Narrate, |n| Plan::Npc(n.id.clone()))
            }
            Some(Plan::Narrate) | Some(Plan::Disqualify) => Plan::Narrate,
            None if named.len() == 1 => Plan::Npc(named[0].id.clone()),
            None => Plan::Narrate,
        }
    }

    /// The titles shown as a reply's sources: the passages the referee
    /// cited among those it was given, else the top retrieved ones.
    fn sources(&self, ruling: Option<&Ruling>, given: &[&Passage]) -> Vec<String> {
        let cited: Vec<String> = ruling
            .map(|r| {
                r.cites
                    .iter()
                    .filter_map(|id| given.iter().find(|p| p.id == *id || p.title == *id))
                    .map(|p| p.title.clone())
                    .collect()
            })
            .unwrap_or_default();
        if !cited.is_empty() {
            return cited;
        }
        given.iter().take(2).map(|p| p.title.clone()).collect()
    }

    /// A role's prose as players will read it: cleaned, and `None` when it
    /// repeats its own instructions (the engine's guard; the caller shows
    /// its fallback line). What players read already may be quoted.
    fn spoken(&self, said: &str, speaker: &str, prompt: &[ChatMessage], scene: &Scene<'_>) -> Option<String> {
        let text = agents::clean_reply(said, speaker)?;
        // A secret is the gate's to withhold (it records why); the guard
        // takes the rest.
        if self.secret_in(&text).is_some() {
            return Some(text);
        }
        let public = format!("{}\n{}\n{}: {}", self.public, scene.public_history, scene.player, scene.action);
        (!Instructions::of(prompt, &public, self.lang()).echoed_by(&text)).then_some(text)
    }

    /// The facts a turn keeps: the referee's, unless the action was
    /// disqualified (it did not happen); a fact the gate would withhold
    /// is dropped, since every role's prompt may carry the facts.
    fn facts_kept(&self, ruling: Option<&Ruling>, outcome: Outcome) -> Vec<(String, String)> {
        let Some(ruling) = ruling.filter(|_| outcome != Outcome::Disqualified) else { return Vec::new() };
        ruling.facts.iter().filter(|(k, v)| self.gate_check(&format!("{k}: {v}")).is_none()).cloned().collect()
    }

    /// The referee's words players may read (its reason, its suggestions,
    /// the chapter) lose what repeats its instructions (the engine's
    /// guard): the stock reason or the summary's own call instead.
    fn unecho(&self, ruling: &mut Ruling, prompt: &[ChatMessage], shown: &str) {
        let instructions = Instructions::of(prompt, &format!("{}\n{shown}", self.public), self.lang());
        if instructions.echoed_by(&ruling.reason) {
            ruling.reason.clear();
        }
        ruling.suggestions.retain(|s| !instructions.echoed_by(s));
        ruling.chapter = ruling.chapter.take().filter(|c| !instructions.echoed_by(c));
        ruling.facts.retain(|(k, v)| !instructions.echoed_by(&format!("{k}: {v}")));
    }

    /// The chapter due once this turn is recorded, if one is: the oldest
    /// turns of the hot window but the last `hot_turns - 1` (the new turn
    /// makes up the rest).
    fn chapter_ask(&self) -> Option<agents::ChapterAsk> {
        let rules = self.game.rules();
        let turns: std::collections::BTreeSet<u32> = self.game.book.hot(&rules).iter().map(|e| e.turn).collect();
        if turns.len() + 1 < rules.hot_turns + rules.summary_every.max(1) {
            return None;
        }
        let fold = turns.len() + 1 - rules.hot_turns;
        let taken: Vec<u32> = turns.iter().take(fold).copied().collect();
        Some(agents::ChapterAsk { from: *taken.first()?, upto: *taken.last()?, words: rules.summary_words })
    }

    /// Whether the reply needs the referee's check: always, unless the
    /// referee approved the action with confidence (`SURE`) and the reply
    /// states nothing new: no name, number or content word (Chinese: pair
    /// of characters) that the action, its lore, the story so far and the
    /// world's public text lack. A reply that only tells the approved
    /// action and the story back needs no second ruling; "a dragon
    /// circles the lamp" is checked.
    fn needs_check(&self, ruling: Option<&Ruling>, reply: &str, scene: &Scene<'_>) -> bool {
        let sure = ruling.is_some_and(|r| r.approved && r.confidence >= SURE);
        if !sure {
            return true;
        }
        let lore: Vec<&str> = scene.passages.iter().map(|p| p.text.as_str()).collect();
        let known =
            format!("{}\n{}\n{}\n{}", scene.action, lore.join("\n"), scene.public_history, self.public).to_lowercase();
        let names = crate::core::context::coined(reply).into_iter().any(|(t, _)| !known.contains(&t.to_lowercase()));
        names || says_new(reply, &known)
    }

    /// The narrator's prompt about the scene's action, on `passages`.
    fn narrator_prompt(
        &self,
        ctx: &TurnContext<'_>,
        scene: &Scene<'_>,
        passages: &[&Passage],
        mode: Mode<'_>,
    ) -> Result<Vec<ChatMessage>, ModelDown> {
        let (world, history, said) = (&self.world, &scene.public_history, (scene.player, scene.action));
        agents::narrator_prompt(&ctx.pipeline.prompts, self.lang(), world, passages, history, said, mode)
            .map_err(template_down)
    }

    /// What retrieval and recall search for: whom the action addresses,
    /// the action, and the turn before it (the last action and its reply),
    /// so "I follow her up there" finds what "there" was.
    fn query(&self, addressed: Option<&Npc>, action: &str) -> String {
        let mut parts: Vec<&str> = addressed.map(|n| n.name.as_str()).into_iter().collect();
        parts.push(action);
        let recent = &self.game.book.recent;
        let last = recent.last().map_or(0, |e| e.turn);
        parts.extend(recent.iter().filter(|e| e.turn == last).map(|e| e.text.as_str()));
        parts.join("\n")
    }

    /// One action: the whole pipeline. `addressed`: `say <npc> …`.
    async fn act(&self, ctx: &TurnContext<'_>, inbound: &Inbound, addressed: Option<&Npc>, text: &str) -> Played {
        let lang = self.lang();
        let action = text.trim();
        if action.is_empty() {
            return Played::refused(say::empty(lang));
        }
        if action.chars().count() > MAX_ACTION {
            return Played::refused(say::too_long(lang, MAX_ACTION));
        }
        let player = &inbound.player;
        let shown_action = match addressed {
            Some(npc) => format!("({}) {action}", npc.name),
            None => action.to_string(),
        };
        // 1. Retrieval for the action, and older turns about it.
        step(ctx, say::step_retrieving(lang));
        let query = self.query(addressed, action);
        let passages = self.retrieve(ctx, &query, PASSAGES).await;
        // Recall is about the action itself (and whom it addresses).
        let about = addressed.map_or_else(|| action.to_string(), |n| format!("{} {action}", n.name));
        let (recalled, archived_upto, indexed) = self.recall(ctx, &about).await;
        // 2. The referee, with the planner's route.
        let ruled = self.referee(ctx, &passages, &recalled, &player.name, action, &shown_action).await;
        let Ok(ruling) = ruled else { return not_played(lang) };
        step(ctx, say::step_planning(lang));
        let plan = self.plan(ruling.as_ref(), addressed, action);
        let public_history = self.history(View::Public, (&player.name, action), &recalled, ctx);
        let scene = Scene { player: &player.name, action, passages, public_history };
        // 3. The narrator or an NPC; 4 and 5, the reply checked and gated.
        let Ok(draft) = self.speak(ctx, &scene, &plan, ruling.as_ref()).await else { return not_played(lang) };
        let Ok(draft) = self.review(ctx, &scene, draft, ruling.as_ref()).await else { return not_played(lang) };
        let lines = self.verdict_lines(&draft, ruling.as_ref(), &player.name);
        let done = TurnDone {
            player: player.clone(),
            action: shown_action,
            outcome: draft.outcome,
            speaker: draft.speaker,
            reply: draft.reply,
            sources: draft.sources,
            persona: draft.persona,
            note: draft.note,
            summary: None,
            archived_upto,
            indexed,
            flags: ruling.as_ref().map(|r| r.flags.clone()).unwrap_or_default(),
            facts: self.facts_kept(ruling.as_ref(), draft.outcome),
            // The referee's call, and the calls of steps 3 and 4.
            calls: 1 + draft.calls,
        };
        let chapter = ruling.and_then(|r| r.chapter);
        self.finish(ctx, done, lines, draft.withheld, chapter).await
    }

    /// Steps 1 and 2 alone, as a turn runs them (retrieval, recall, the
    /// referee, the planner's route), for `echoes eval referee`: the
    /// ruling (`None`: unreadable, the action stands) and the plan;
    /// `None` when the model failed.
    pub async fn ruling_for(
        &self,
        ctx: &TurnContext<'_>,
        player: &str,
        action: &str,
    ) -> Option<(Option<Ruling>, Plan)> {
        let passages = self.retrieve(ctx, &self.query(None, action), PASSAGES).await;
        let (recalled, _, _) = self.recall(ctx, action).await;
        let ruling = self.referee(ctx, &passages, &recalled, player, action, action).await.ok()?;
        let plan = self.plan(ruling.as_ref(), None, action);
        Some((ruling, plan))
    }

    /// Step 2: the referee's ruling on the action, with the planner's
    /// route; `None` when its answer is unreadable (the action stands).
    async fn referee(
        &self,
        ctx: &TurnContext<'_>,
        passages: &[&Passage],
        recalled: &[String],
        player: &str,
        action: &str,
        shown_action: &str,
    ) -> Result<Option<Ruling>, ModelDown> {
        let lang = self.lang();
        step(ctx, say::step_validating(lang));
        let gm_history = self.history(View::Gm, (player, action), recalled, ctx);
        // The summary's next chapter rides on this call when one is due
        // after this turn (its turns are in the referee's latest turns).
        let chapter = self.chapter_ask();
        let (prompts, said) = (&ctx.pipeline.prompts, (player, shown_action));
        let prompt = agents::referee_prompt(prompts, lang, &self.world, passages, &gm_history, said, chapter)
            .map_err(template_down)?;
        let Ok(said) = agents::rule(ctx, prompt.clone(), true, chapter.is_some()).await else {
            return Err(ModelDown);
        };
        let mut ruling = agents::parse_ruling(&said);
        if let Some(r) = ruling.as_mut() {
            self.unecho(r, &prompt, &format!("{gm_history}\n{shown_action}"));
        }
        if ruling.is_none() {
            let head: String = said.chars().take(160).collect();
            tracing::info!(reply = %head, "the referee's answer is unreadable; the action is approved");
        }
        Ok(ruling)
    }

    /// Step 3: exactly one of the narrator's ruling, an NPC in character
    /// or the narrator's scene, as the plan says.
    async fn speak(
        &self,
        ctx: &TurnContext<'_>,
        scene: &Scene<'_>,
        plan: &Plan,
        ruling: Option<&Ruling>,
    ) -> Result<Draft, ModelDown> {
        match plan {
            Plan::Disqualify => self.disqualify(ctx, scene, ruling).await,
            Plan::Npc(id) => self.npc_reply(ctx, scene, id).await,
            Plan::Narrate => self.narrate(ctx, scene).await,
        }
    }

    /// The narrator tells the player why the action breaks the lore
    /// (stock words when its answer is unusable).
    async fn disqualify(
        &self,
        ctx: &TurnContext<'_>,
        scene: &Scene<'_>,
        ruling: Option<&Ruling>,
    ) -> Result<Draft, ModelDown> {
        let lang = self.lang();
        step(ctx, say::step_disqualifying(lang));
        let r = ruling.cloned().unwrap_or_else(unreachable_ruling);
        let reason =
            if r.reason.is_empty() { self.world.rules.first().cloned().unwrap_or_default() } else { r.reason.clone() };
        let mode = Mode::Disqualification { reason: &reason, suggestions: &r.suggestions };
        let prompt = self.narrator_prompt(ctx, scene, &scene.passages, mode)?;
        let narrator = &*ctx.pipeline.models.narrator;
        let Ok(said) = agents::call(narrator, prompt.clone(), 160, 0.6).await else { return Err(ModelDown) };
        let text =
            self.spoken(&said, say::gm(lang), &prompt, scene).unwrap_or_else(|| say::stock_disqualify(lang, &reason));
        Ok(Draft::spoken(Speaker::Narrator, text, Outcome::Disqualified, 1))
    }

    /// An NPC answers in character, its persona the world's or extracted
    /// on first engagement; an NPC the world lacks leaves the turn unplayed.
    async fn npc_reply(&self, ctx: &TurnContext<'_>, scene: &Scene<'_>, id: &str) -> Result<Draft, ModelDown> {
        let lang = self.lang();
        let Some(npc) = self.world.npc(id) else { return Err(ModelDown) };
        let own: Vec<&Passage> = npc.passages.iter().filter_map(|p| self.world.passage(p)).collect();
        // Kept from an earlier turn, written by the world's author, or
        // extracted now (one more call).
        let (p, persona, extracted) = match self.game.personas.get(id) {
            Some(p) => (p.clone(), None, false),
            None => match npc.authored_persona() {
                Some(p) => (p.clone(), Some(p), false),
                None => {
                    let p = self.extract_persona(ctx, npc, &own).await?;
                    (p.clone(), Some(p), true)
                }
            },
        };
        step(ctx, say::step_npc(lang, &npc.name));
        let secrets: Vec<&Passage> = npc.gm_passages.iter().filter_map(|p| self.world.passage(p)).collect();
        let lore = npc_lore(&own, &scene.passages);
        let prompt = agents::npc_prompt(
            &ctx.pipeline.prompts,
            lang,
            (&self.world, &p),
            &secrets,
            &lore,
            &scene.public_history,
            (scene.player, scene.action),
        )
        .map_err(template_down)?;
        let narrator = &*ctx.pipeline.models.narrator;
        let Ok(said) = agents::call(narrator, prompt.clone(), 160, 0.7).await else { return Err(ModelDown) };
        let text = self.spoken(&said, &npc.name, &prompt, scene).unwrap_or_else(|| say::npc_silent(lang, &npc.name));
        // The reply's call, and the extraction's when there was one.
        let calls = 1 + u32::from(extracted);
        let mut draft = Draft::spoken(Speaker::Npc(id.to_string()), text, Outcome::Played, calls);
        draft.persona = persona;
        Ok(draft)
    }

    /// An NPC's persona from its own passages: the model's, or one built
    /// from the passages when its answer is unusable.
    async fn extract_persona(&self, ctx: &TurnContext<'_>, npc: &Npc, own: &[&Passage]) -> Result<Persona, ModelDown> {
        let lang = self.lang();
        step(ctx, say::step_persona(lang, &npc.name));
        let prompt = agents::persona_prompt(&ctx.pipeline.prompts, lang, npc, own).map_err(template_down)?;
        let narrator = &*ctx.pipeline.models.narrator;
        let Ok(said) = agents::call(narrator, prompt, 200, 0.2).await else { return Err(ModelDown) };
        Ok(agents::parse_persona(&said, npc).unwrap_or_else(|| agents::stock_persona(lang, npc, own)))
    }

    /// The narrator plays the scene (a quiet scene when its answer is
    /// unusable).
    async fn narrate(&self, ctx: &TurnContext<'_>, scene: &Scene<'_>) -> Result<Draft, ModelDown> {
        let lang = self.lang();
        step(ctx, say::step_narrating(lang));
        let prompt = self.narrator_prompt(ctx, scene, &scene.passages, Mode::Narration)?;
        let narrator = &*ctx.pipeline.models.narrator;
        let Ok(said) = agents::call(narrator, prompt.clone(), 200, 0.7).await else { return Err(ModelDown) };
        let text = self.spoken(&said, say::gm(lang), &prompt, scene).unwrap_or_else(|| say::quiet_scene(lang));
        Ok(Draft::spoken(Speaker::Narrator, text, Outcome::Played, 1))
    }

    /// Steps 4 and 5: the gate, the referee's check of the reply (a reply
    /// that breaks the lore is corrected), and the gate again.
    async fn review(
        &self,
        ctx: &TurnContext<'_>,
        scene: &Scene<'_>,
        mut draft: Draft,
        ruling: Option<&Ruling>,
    ) -> Result<Draft, ModelDown> {
        draft.note = ruling_note(ruling);
        draft.sources = self.sources(ruling, &scene.passages);
        // The gate first: a reply that would give a secret away is
        // withheld, and neither the referee nor the narrator reads it.
        self.gate_reply(&mut draft);
        // 4. The reply checked against the lore (when it states something
        // the approved action and its lore do not).
        if draft.outcome != Outcome::Disqualified
            && draft.withheld.is_none()
            && self.needs_check(ruling, &draft.reply, scene)
        {
            let correction = self.check_reply(ctx, scene, &draft.reply).await?;
            draft.calls += 1;
            if let Some(c) = correction {
                draft.correct(c);
            }
        }
        // 5. The gate again (a correction is new text), before anything
        // is stored or shown.
        self.gate_reply(&mut draft);
        Ok(draft)
    }

    /// Withholds a reply that gives a GM-only passage away, and its
    /// sources with it.
    fn gate_reply(&self, draft: &mut Draft) {
        if let Some(b) = self.secret_in(&draft.reply) {
            draft.withheld = Some(b);
            draft.reply = say::withheld(self.lang());
            draft.sources.clear();
        }
    }

    /// The referee checks `reply` against the passages retrieved for it;
    /// `Some` when it rejects the reply: the narrator's correction.
    async fn check_reply(
        &self,
        ctx: &TurnContext<'_>,
        scene: &Scene<'_>,
        reply: &str,
    ) -> Result<Option<Correction>, ModelDown> {
        let lang = self.lang();
        step(ctx, say::step_checking(lang));
        let checked = self.retrieve(ctx, reply, PASSAGES).await;
        let prompt =
            agents::reply_check_prompt(&ctx.pipeline.prompts, lang, &self.world, &checked, reply).map_err(template_down)?;
        let Ok(said) = agents::rule(ctx, prompt.clone(), false, false).await else { return Err(ModelDown) };
        let mut check = agents::parse_ruling(&said);
        if let Some(r) = check.as_mut() {
            self.unecho(r, &prompt, reply);
        }
        let Some(c) = check.as_ref().filter(|c| c.rejects()) else { return Ok(None) };
        self.correct(ctx, scene, &checked, reply, c).await.map(Some)
    }

    /// The narrator's correction of a reply the referee rejected (stock
    /// words from the first checked passage when its answer is unusable).
    async fn correct(
        &self,
        ctx: &TurnContext<'_>,
        scene: &Scene<'_>,
        checked: &[&Passage],
        wrong: &str,
        c: &Ruling,
    ) -> Result<Correction, ModelDown> {
        let lang = self.lang();
        step(ctx, say::step_correcting(lang));
        let reason = if c.reason.is_empty() { "—".to_string() } else { c.reason.clone() };
        let mode = Mode::Correction { wrong, reason: &reason };
        let prompt = self.narrator_prompt(ctx, scene, checked, mode)?;
        let narrator = &*ctx.pipeline.models.narrator;
        let Ok(said) = agents::call(narrator, prompt.clone(), 160, 0.4).await else { return Err(ModelDown) };
        let fallback = || {
            checked.first().map_or_else(|| say::quiet_scene(lang), |p| say::stock_correction(lang, &p.title, &p.text))
        };
        let reply = self.spoken(&said, say::gm(lang), &prompt, scene).unwrap_or_else(fallback);
        Ok(Correction { reply, sources: self.sources(Some(c), checked), reason })
    }

    /// The verdict players read: who spoke and what, the ruling or the
    /// correction, and the sources.
    fn verdict_lines(&self, draft: &Draft, ruling: Option<&Ruling>, player: &str) -> Vec<String> {
        let lang = self.lang();
        let speaker_name = match &draft.speaker {
            Speaker::Npc(id) => self.world.npc(id).map_or_else(|| id.clone(), |n| n.name.clone()),
            Speaker::Narrator => say::gm(lang).to_string(),
        };
        let mut lines = vec![format!("**{speaker_name}**: {}", draft.reply)];
        match draft.outcome {
            Outcome::Disqualified => {
                let reason = ruling.map(|r| r.reason.clone()).filter(|s| !s.is_empty()).unwrap_or_else(|| "—".into());
                lines.push(say::disqualified(lang, player, &reason));
                if let Some(r) = ruling.filter(|r| !r.suggestions.is_empty()) {
                    lines.push(say::suggestions(lang, &r.suggestions));
                }
            }
            Outcome::Corrected => lines.push(say::corrected(lang, player, &draft.correction)),
            Outcome::Played => {}
        }
        let sources = say::sources(lang, &draft.sources);
        if !sources.is_empty() {
            lines.push(sources);
        }
        lines
    }

    /// Applies the turn, with the rolling summary when one is due, and
    /// builds what is stored and shown.
    async fn finish(
        &self,
        ctx: &TurnContext<'_>,
        mut done: TurnDone,
        lines: Vec<String>,
        withheld: Option<Blocked>,
        chapter: Option<String>,
    ) -> Played {
        let lang = self.lang();
        let Ok(mut next) = self.game.apply(&Event::Turn(Box::new(done.clone())), &self.world) else {
            return Played::refused(say::over(lang));
        };
        // A summary chapter, every `memory_interval` turns.
        let rules = next.rules();
        if next.book.summary_due(&rules) {
            step(ctx, say::step_summary(lang));
            let (summary, upto, used) = self.summarise(ctx, &next, &rules, chapter).await;
            done.calls += used;
            done.summary = Some((summary, upto));
            match self.game.apply(&Event::Turn(Box::new(done.clone())), &self.world) {
                Ok(n) => next = n,
                Err(_) => return Played::refused(say::over(lang)),
            }
        }
        let record = turn_record(&done);
        let mut played = self.played(next, Reply::new(ReplyKind::Verdict, lines.join("\n")), record);
        if played.withheld.is_none() {
            played.withheld = withheld;
        }
        played
    }

    /// The next summary chapter, of the turns that leave the hot window:
    /// the model's, or an extract when it fails, repeats its instructions
    /// or would give a secret away.
    async fn summarise(
        &self,
        ctx: &TurnContext<'_>,
        next: &LoreGame,
        rules: &BookRules,
        offered: Option<String>,
    ) -> (String, u32, u32) {
        let lang = self.lang();
        let pending = next.book.unsummarised(rules);
        let upto = pending.iter().map(|e| e.turn).max().unwrap_or(next.book.summary_upto);
        // The referee's chapter, when it wrote one: no call of its own.
        let offered = offered.and_then(|c| agents::clean_reply(&c, "Summary")).filter(|c| self.gate_check(c).is_none());
        if let Some(chapter) = offered {
            return (crate::core::context::keep_last_words(&chapter, rules.summary_words * 2, lang), upto, 0);
        }
        let turns = pending.iter().map(|e| e.line()).collect::<Vec<_>>().join("\n");
        let prompts = &ctx.pipeline.prompts;
        let written = (next.book.summary.as_str(), turns.as_str());
        let model = match agents::summary_prompt(prompts, lang, &self.world, written, rules.summary_words) {
            Ok(prompt) => {
                let said = agents::call(&*ctx.pipeline.models.narrator, prompt.clone(), 240, 0.2).await;
                let public = format!("{}\n{}\n{turns}", self.public, next.book.summary);
                let instructions = Instructions::of(&prompt, &public, lang);
                said.ok()
                    .and_then(|s| agents::clean_reply(&s, "Summary"))
                    .filter(|s| self.gate_check(s).is_none() && !instructions.echoed_by(s))
            }
            Err(e) => {
                tracing::warn!(error = %e, "the summary's prompt did not render; the chapter is extracted");
                None
            }
        };
        // The chapter covers the new turns only; the kept chapters before
        // it were the model's context.
        let chapter = model.unwrap_or_else(|| extract_summary("", &pending, rules.summary_words, lang));
        (crate::core::context::keep_last_words(&chapter, rules.summary_words * 2, lang), upto, 1)
    }

    fn played(&self, next: LoreGame, reply: Reply, record: TurnRecord) -> Played {
        let over = next.is_over();
        let points = if over { Self::points(&next) } else { Vec::new() };
        let turn = Turn { reply, messages: Vec::new(), choices: Vec::new(), record, points };
        match Played::moved(&next, turn, &self.gates, over, &say::withheld(self.lang())) {
            Ok(played) => played.adopting(Next { game: next }),
            Err(refusal) => *refusal,
        }
    }

    fn points(g: &LoreGame) -> Vec<Points> {
        g.tally
            .iter()
            .map(|(id, t)| Points {
                player: crate::core::vocab::Player { id: id.clone(), name: t.name.clone() },
                points: t.wins,
                solved: t.wins > t.losses,
                role: Some("adventurer".into()),
            })
            .collect()
    }

    fn end(&self, inbound: &Inbound) -> Played {
        let event = Event::End { by: inbound.player.id.clone(), moderator: inbound.moderator };
        match self.game.apply(&event, &self.world) {
            Ok(next) => {
                let text = self.final_text(&next);
                self.played(next, Reply::new(ReplyKind::Ended, text), TurnRecord::default())
            }
            Err(Rejection::NotHost) => Played::refused(say::only_host_ends(self.lang())),
            Err(Rejection::Over) => Played::refused(say::over(self.lang())),
        }
    }
}

/// A rejection is only planned from a readable ruling.
fn unreachable_ruling() -> Ruling {
    Ruling {
        approved: false,
        reason: String::new(),
        confidence: 1.0,
        suggestions: Vec::new(),
        plan: None,
        cites: Vec::new(),
        flags: Vec::new(),
        chapter: None,
        facts: Vec::new(),
    }
}

/// Whether `reply` has a number, a content word (four letters or more,
/// not common) or a pair of Chinese characters that `known` (lower case)
/// lacks.
fn says_new(reply: &str, known: &str) -> bool {
    let known_words: std::collections::HashSet<String> = crate::core::text::words(known).into_iter().collect();
    let words = crate::core::text::words(reply);
    let latin = words.iter().filter(|w| !w.chars().all(crate::core::text::is_cjk));
    let new_word = latin
        .filter(|w| w.chars().any(|c| c.is_ascii_digit()) || (w.chars().count() >= 4 && !COMMON.contains(&w.as_str())))
        .any(|w| !known_words.contains(w));
    let chars: Vec<char> = reply.chars().filter(|c| crate::core::text::is_cjk(*c)).collect();
    let new_pair = chars.windows(2).any(|p| !known.contains(&p.iter().collect::<String>()));
    new_word || new_pair
}

/// A recalled line's words without its "[turn] speaker:" head.
fn recalled_text(line: &str) -> &str {
    line.split_once(": ").map_or(line, |(_, t)| t)
}

/// Lower-case content words (three letters or more, not common) and
/// Chinese characters of `text`.
fn content_words(text: &str) -> std::collections::HashSet<String> {
    crate::core::text::words(text)
        .into_iter()
        .filter(|w| {
            w.chars().all(crate::core::text::is_cjk) || (w.chars().count() >= 3 && !COMMON.contains(&w.as_str()))
        })
        .collect()
}

fn turn_of(id: &str) -> Option<u32> {
    id.split(':').nth(1)?.parse().ok()
}

/// Reports a step of the pipeline (`Progress::Step`).
fn step(ctx: &TurnContext<'_>, s: String) {
    (ctx.progress)(Progress::Step(s));
}

/// The referee's note on an action (GM only).
fn ruling_note(ruling: Option<&Ruling>) -> String {
    match ruling {
        Some(r) => format!("{} ({:.1}): {}", if r.approved { "approved" } else { "rejected" }, r.confidence, r.reason),
        None => "unreadable ruling: approved".to_string(),
    }
}

/// The lore an NPC speaks from: two of its own passages, then the
/// retrieved ones, `PASSAGES + 1` at most.
fn npc_lore<'a>(own: &[&'a Passage], retrieved: &[&'a Passage]) -> Vec<&'a Passage> {
    let mut lore: Vec<&Passage> = own.iter().take(2).copied().collect();
    for q in retrieved.iter().copied() {
        if !lore.iter().any(|p| p.id == q.id) && lore.len() < PASSAGES + 1 {
            lore.push(q);
        }
    }
    lore
}

/// The turn's public line for the history: who acted, what, and how it
/// went.
fn turn_record(done: &TurnDone) -> TurnRecord {
    TurnRecord {
        public: Some(PublicTurn {
            player: done.player.name.clone(),
            text: done.action.clone(),
            outcome: match done.outcome {
                Outcome::Played => "played",
                Outcome::Disqualified => "disqualified",
                Outcome::Corrected => "corrected",
            }
            .to_string(),
        }),
        ..TurnRecord::default()
    }
}

#[async_trait]
impl GameTable for LoreTable {
    type Game = LoreGame;
    type Next = Next;

    fn game(&self) -> &LoreGame {
        &self.game
    }

    fn language(&self) -> Language {
        self.game.language
    }

    fn is_running(&self) -> bool {
        self.game.phase == Phase::Playing
    }

    async fn play(&mut self, ctx: &TurnContext<'_>, inbound: &Inbound) -> Played {
        let lang = self.lang();
        let over = self.game.is_over();
        let shown = |kind: ReplyKind, text: String| self.gated(Played::reply(Reply::new(kind, text)), over);
        match &inbound.input {
            TurnInput::Status | TurnInput::Whisper => shown(ReplyKind::Status, self.status_text()),
            TurnInput::Verb(verb) if matches!(LoreVerb::read(verb), Some(LoreVerb::Recap)) => {
                shown(ReplyKind::Status, self.recap_text())
            }
            TurnInput::Verb(verb) if matches!(LoreVerb::read(verb), Some(LoreVerb::Scores)) => {
                shown(ReplyKind::Status, self.scores_text(&self.game))
            }
            TurnInput::Timer(_) | TurnInput::Begin | TurnInput::Start => Played::silent(),
            TurnInput::Join | TurnInput::Leave | TurnInput::AddAi => Played::refused(say::everyone_plays(lang)),
            TurnInput::End => self.end(inbound),
            _ if over => Played::refused(say::over(lang)),
            TurnInput::Say(text) => self.act(ctx, inbound, None, text).await,
            TurnInput::Verb(verb) => match LoreVerb::read(verb) {
                // `say hello`, with no one named, is an action.
                Some(LoreVerb::Say(text, npc)) if npc.is_empty() => self.act(ctx, inbound, None, &text).await,
                Some(LoreVerb::Say(text, npc)) => match self.world.npc_named(&npc) {
                    Some(found) => {
                        let found = found.clone();
                        self.act(ctx, inbound, Some(&found), &text).await
                    }
                    None => Played::refused(say::no_such_npc(lang, &npc, &self.npc_list())),
                },
                _ => Played::refused(say::not_a_verb(lang)),
            },
            _ => Played::refused(say::not_a_verb(lang)),
        }
    }

    fn expire(&mut self, _ctx: &TurnContext<'_>) -> Played {
        let mut next = self.game.clone();
        next.phase = Phase::Over;
        next.ending = Some(Ending::Idle);
        Played::idle_end(&next, self.final_text(&next)).adopting(Next { game: next })
    }

    fn adopt(&mut self, next: Next) {
        self.game = next.game;
    }
}

/// A prompt template that did not render: logged, and the turn is not
/// played, as when the model is away (a configuration to fix, not a move).
fn template_down(e: crate::core::prompts::PromptError) -> ModelDown {
    tracing::warn!(error = %e, "a Lore RPG prompt did not render; the turn is not played");
    ModelDown
}
