//! The turn pipeline: one player input in, one reply and (usually) one
//! turn record out. Classify and judge (one Judge call at most), narrate
//! (one Narrator call at most), and apply the result to the game state.
//!
//! Nothing here writes anywhere: the session actor commits the returned
//! record before the reply is shown. A failed model call returns no record
//! and no new state, so the turn never half-happens.

use std::sync::Arc;

use crate::core::llm::{ChatMessage, ChatRequest, LlmClient, LlmError};
use crate::core::prompts::PublicTurn;
use crate::core::secrecy::{Blocked, is_meta_question};
use crate::core::soup::i18n::{Msg, say, verdict_label};
use crate::core::soup::prompts::{JudgeMode, JudgeView, PublicView};
use crate::core::soup::puzzle::Puzzle;
use crate::core::soup::verdict::{Intent, Judgement, Parsed, Verdict, judgement_schema, parse_judgement};
use crate::core::soup::{Phase, Rejection, SoupEvent, SoupGame};
use crate::core::text::{Form, InputProblem, clean_input, form_of, normalize_question, truncate_chars};
use crate::core::vocab::Language;
use crate::core::vocab::Player;

/// How many earlier turns the prompts see.
const HISTORY_IN_PROMPT: usize = 12;
/// Longest Narrator remark shown, in characters.
const MAX_REMARK_CHARS: usize = 160;

pub use crate::core::game::TurnInput;
pub use crate::core::services::{DEFAULT_LEDGER_THRESHOLD, Pipeline, PipelineSettings, Progress, ProgressFn, Usage};
use crate::core::soup::known::{self, Known};
use crate::core::soup::verbs::SoupVerb;

/// An earlier question's embedding and the verdict it got.
#[derive(Debug, Clone, PartialEq)]
pub struct LedgerVector {
    pub key: String,
    pub vector: Vec<f32>,
    pub verdict: Verdict,
}

/// The part of a session the pipeline reads.
#[derive(Debug, Clone)]
pub struct SessionView<'a> {
    pub puzzle: &'a Puzzle,
    pub game: &'a SoupGame,
    pub history: &'a [PublicTurn],
    pub canary: &'a str,
    /// The secrecy gate for this game, kept across turns by the actor.
    pub gate: &'a GameGate,
    /// Embeddings of the questions in the ledger (empty without an embedder).
    pub ledger: &'a [LedgerVector],
}

pub use crate::core::game::{Reply, ReplyKind};

/// The result of one turn. `commit` is false only when the turn did not
/// happen (the model was unavailable): then nothing may be stored.
#[derive(Debug, Clone)]
pub struct TurnOutcome {
    pub reply: Reply,
    pub next: Option<SoupGame>,
    pub intent: Option<Intent>,
    pub facts: Vec<String>,
    pub usage: Usage,
    pub commit: bool,
    /// The public line to add to history, when the turn was a real move.
    pub public: Option<PublicTurn>,
    /// A newly judged question's embedding, for the semantic ledger.
    pub ledger_vector: Option<LedgerVector>,
    /// Set when the secrecy gate replaced the reply (a security event).
    pub withheld: Option<Blocked>,
}

impl TurnOutcome {
    fn reply(kind: ReplyKind, text: String) -> Self {
        TurnOutcome {
            reply: Reply { kind, text, verdict: None },
            next: None,
            intent: None,
            facts: Vec::new(),
            usage: Usage::default(),
            commit: true,
            public: None,
            ledger_vector: None,
            withheld: None,
        }
    }
}

/// A question about to be answered.
struct Asked<'t> {
    text: &'t str,
    key: String,
    verdict: Verdict,
    /// `Some("ledger" | "semantic")` when the verdict comes from an
    /// earlier, equivalent question rather than a Judge call.
    repeat: Option<&'static str>,
}

/// What answers a question before the Judge does (`Pipeline::recalled`).
enum Recall {
    /// A verdict, and where it came from (`meta`, `ledger`, `semantic`,
    /// `known`).
    Answered(Verdict, &'static str),
    /// None: the question's vector, if it has one, and the known answers.
    Unknown { vector: Option<Vec<f32>>, known: Arc<Known> },
}

impl<'t> Asked<'t> {
    fn repeat(text: &'t str, key: String, verdict: Verdict, how: &'static str) -> Self {
        Asked { text, key, verdict, repeat: Some(how) }
    }
}

impl Pipeline {
    /// Runs one turn against the session as it is now. While the game is
    /// on, the reply passes the secrecy gate (`guard`) before it is returned.
    pub async fn run(
        &self,
        session: &SessionView<'_>,
        player: &Player,
        input: &TurnInput,
        progress: ProgressFn<'_>,
    ) -> TurnOutcome {
        let outcome = self.turn(session, player, input, progress).await;
        guard::guard(session, input, outcome)
    }

    async fn turn(
        &self,
        session: &SessionView<'_>,
        player: &Player,
        input: &TurnInput,
        progress: ProgressFn<'_>,
    ) -> TurnOutcome {
        let lang = session.puzzle.language;
        match input {
            TurnInput::Start => {
                self.simple(session, SoupEvent::Start, ReplyKind::Intro, |p, g| say(lang, &Msg::Intro(p, g.hint_limit)))
            }
            TurnInput::Say(text) => self.judged(session, player, text, JudgeMode::Auto, progress).await,
            TurnInput::Status => TurnOutcome::reply(ReplyKind::Status, status_text(session)),
            TurnInput::End => self.simple(session, SoupEvent::Revealed, ReplyKind::Ended, |p, _| {
                say(lang, &Msg::Revealed { bottom: &p.bottom })
            }),
            TurnInput::Verb(verb) => match SoupVerb::read(verb) {
                Some(verb) => self.verb(session, player, verb, progress).await,
                None => TurnOutcome::reply(ReplyKind::Rejected, say(lang, &Msg::NotInThisGame)),
            },
            // Lobby, ballot and timer moves: Turtle Soup has no seats, votes
            // or deadlines (anyone in the thread plays).
            TurnInput::Join
            | TurnInput::Leave
            | TurnInput::Begin
            | TurnInput::AddAi
            | TurnInput::Vote(_)
            | TurnInput::Whisper
            | TurnInput::Timer(_) => TurnOutcome::reply(ReplyKind::Rejected, say(lang, &Msg::NotInThisGame)),
        }
    }

    async fn verb(
        &self,
        session: &SessionView<'_>,
        player: &Player,
        verb: SoupVerb,
        progress: ProgressFn<'_>,
    ) -> TurnOutcome {
        let lang = session.puzzle.language;
        match verb {
            SoupVerb::Ask(text) => self.judged(session, player, &text, JudgeMode::Question, progress).await,
            SoupVerb::Guess(text) => self.judged(session, player, &text, JudgeMode::Guess, progress).await,
            SoupVerb::Hint => self.hint(session),
            SoupVerb::History => TurnOutcome::reply(ReplyKind::History, history_text(lang, session.history)),
            SoupVerb::GiveUp => self.simple(session, SoupEvent::GaveUp, ReplyKind::Ended, |p, _| {
                say(lang, &Msg::GaveUp { bottom: &p.bottom })
            }),
        }
    }

    /// Ends a game that sat idle too long, showing its story.
    pub fn expire(&self, session: &SessionView<'_>) -> TurnOutcome {
        let lang = session.puzzle.language;
        self.simple(session, SoupEvent::Expired, ReplyKind::Ended, |p, _| {
            format!("{}\n{}", say(lang, &Msg::Expired), say(lang, &Msg::Revealed { bottom: &p.bottom }))
        })
    }

    /// An event that needs no model: apply it, or explain the rejection.
    fn simple(
        &self,
        session: &SessionView<'_>,
        event: SoupEvent,
        kind: ReplyKind,
        text: impl Fn(&Puzzle, &SoupGame) -> String,
    ) -> TurnOutcome {
        match session.game.apply(&event, session.puzzle) {
            Ok(next) => {
                let mut out = TurnOutcome::reply(kind, text(session.puzzle, &next));
                out.next = Some(next);
                out
            }
            Err(r) => rejected(session.puzzle.language, r),
        }
    }

    fn hint(&self, session: &SessionView<'_>) -> TurnOutcome {
        let game = session.game;
        let n = game.hints_used as usize;
        let mut out = self.simple(session, SoupEvent::HintTaken, ReplyKind::Hint, |p, g| {
            let text = p.hints.get(n).map(String::as_str).unwrap_or_default();
            say(p.language, &Msg::Hint { n: g.hints_used, limit: g.hint_limit, text })
        });
        if out.next.is_some() {
            out.public = Some(PublicTurn { player: String::new(), text: String::new(), outcome: "hint".into() });
        }
        out
    }

    async fn judged(
        &self,
        session: &SessionView<'_>,
        player: &Player,
        raw: &str,
        mode: JudgeMode,
        progress: ProgressFn<'_>,
    ) -> TurnOutcome {
        let lang = session.puzzle.language;
        let text = match clean_input(raw, self.settings.max_input_chars) {
            Ok(text) => text,
            Err(problem) => return input_rejected(lang, problem),
        };
        if let Some(out) = turned_away(session, player, &text, mode) {
            return out;
        }
        let mode = settled_mode(mode, &text);
        let key = normalize_question(&text);
        let (vector, known) = match self.recalled(session, &text, &key, mode).await {
            Recall::Answered(verdict, how) => {
                let asked = Asked::repeat(&text, key, verdict, how);
                return self.answer(session, player, asked, &mut Usage::default(), progress).await;
            }
            Recall::Unknown { vector, known } => (vector, known),
        };
        if !self.settings.judge_model {
            return self.without_judge(session, player, &text, mode, &known).await;
        }
        progress(Progress::Judging);
        let mut usage = Usage::default();
        let judgement = match self.judge(session, &text, mode, &mut usage).await {
            Ok(Some(j)) => j,
            Ok(None) => {
                return with_usage(TurnOutcome::reply(ReplyKind::Unclear, say(lang, &Msg::Unclear)), usage);
            }
            Err(e) => return unavailable(lang, e, usage),
        };
        match judgement.intent {
            Intent::Question => {
                let verdict = judgement.verdict.unwrap_or(Verdict::Irrelevant);
                let ledger_vector = vector.map(|vector| LedgerVector { key: key.clone(), vector, verdict });
                let asked = Asked { text: &text, key, verdict, repeat: None };
                let mut out = self.answer(session, player, asked, &mut usage, progress).await;
                out.ledger_vector = ledger_vector.filter(|_| out.next.is_some());
                out
            }
            Intent::Guess => self.grade(session, player, &text, judgement, usage),
            Intent::Chatter => with_usage(chatter(lang), usage),
        }
    }

    /// A verdict given without the Judge, and where it came from: a meta
    /// question, the ledger (the same question asked before, or one that
    /// means the same), the puzzle's known answers. Otherwise what the
    /// Judge's turn needs: the question's vector and the known answers.
    async fn recalled(&self, session: &SessionView<'_>, text: &str, key: &str, mode: JudgeMode) -> Recall {
        if is_meta_question(text) {
            // About the answer's wording, or an attempt to take over the
            // host: answered without any model seeing it.
            return Recall::Answered(Verdict::Meta, "meta");
        }
        if mode != JudgeMode::Guess
            && let Some(verdict) = session.game.ledger_verdict(key)
        {
            return Recall::Answered(verdict, "ledger");
        }
        let vector = match mode != JudgeMode::Guess {
            true => self.question_vector(key).await,
            false => None,
        };
        let ledger_vector = vector.as_deref().filter(|_| looks_like_question(text));
        if let Some(verdict) = ledger_vector.and_then(|v| self.semantic_match(session.ledger, key, v)) {
            return Recall::Answered(verdict, "semantic");
        }
        // The Judge's memory: the puzzle's known answers.
        let known = known::prepared(session.puzzle, self.embedder.as_ref(), self.vector_cache.as_ref()).await;
        // A Chinese question has no vector for the ledger; the known
        // answers' thresholds were calibrated with one.
        let known_vector = match (&vector, mode) {
            (None, JudgeMode::Question | JudgeMode::Auto) if self.settings.known_answers => self.embedding(key).await,
            _ => None,
        };
        if mode != JudgeMode::Guess
            && self.settings.known_answers
            && let Some(recall) = known.recall(text, vector.as_deref().or(known_vector.as_deref()))
        {
            return Recall::Answered(recall.verdict, "known");
        }
        if mode != JudgeMode::Guess
            && self.settings.known_answers
            && let Some(verdict) = self.recall_two(&known, text).await
        {
            return Recall::Answered(verdict, "known");
        }
        Recall::Unknown { vector, known }
    }

    async fn answer(
        &self,
        session: &SessionView<'_>,
        player: &Player,
        asked: Asked<'_>,
        usage: &mut Usage,
        progress: ProgressFn<'_>,
    ) -> TurnOutcome {
        let lang = session.puzzle.language;
        let Asked { text, key, verdict, repeat } = asked;
        if let Some(how) = repeat {
            usage.judge_parse = how;
        }
        let event = SoupEvent::Asked { player: player.clone(), key, verdict };
        let next = match session.game.apply(&event, session.puzzle) {
            Ok(next) => next,
            Err(r) => return rejected(lang, r),
        };
        let remark = match repeat {
            Some("meta") => say(lang, &Msg::NoRemark(verdict, session.game.questions as usize)),
            Some("known") => self.remark(session, text, verdict, usage, progress).await,
            Some(_) => say(lang, &Msg::Repeat),
            None => self.remark(session, text, verdict, usage, progress).await,
        };
        let label = verdict_label(lang, verdict);
        let mut out = TurnOutcome::reply(ReplyKind::Verdict, format!("{label}: {remark}"));
        out.reply.verdict = Some(verdict);
        out.intent = Some(Intent::Question);
        out.public =
            Some(PublicTurn { player: player.name.clone(), text: text.to_string(), outcome: verdict.as_str().into() });
        out.next = Some(next);
        out.usage = std::mem::take(usage);
        out
    }

    /// A turn the Judge is too small to play: a guess (by its form) is
    /// graded by the key facts it states; anything else, which the known
    /// answers did not cover, is "can't tell", not counted and not a verdict.
    async fn without_judge(
        &self,
        session: &SessionView<'_>,
        player: &Player,
        text: &str,
        mode: JudgeMode,
        known: &Known,
    ) -> TurnOutcome {
        let lang = session.puzzle.language;
        let guess = match mode {
            JudgeMode::Guess => true,
            JudgeMode::Question => false,
            JudgeMode::Auto => form_of(text) == Some(Form::Guess) || reads_as_account(text),
        };
        if !guess {
            let mut out = TurnOutcome::reply(ReplyKind::Unclear, say(lang, &Msg::CantTell));
            out.usage.judge_parse = "cant_tell";
            return out;
        }
        let mut parts = vec![text.to_string()];
        parts.extend(known::sentences(text));
        let vectors = match &self.embedder {
            Some(embedder) => embedder.embed(&parts).await.unwrap_or_default(),
            None => Vec::new(),
        };
        let facts = known.facts_stated(text, &vectors);
        let judgement = Judgement { intent: Intent::Guess, verdict: None, facts };
        let usage = Usage { judge_parse: "facts", ..Usage::default() };
        self.grade(session, player, text, judgement, usage)
    }

    fn grade(
        &self,
        session: &SessionView<'_>,
        player: &Player,
        text: &str,
        judgement: Judgement,
        usage: Usage,
    ) -> TurnOutcome {
        let puzzle = session.puzzle;
        let lang = puzzle.language;
        let event = SoupEvent::Guessed { player: player.clone(), facts: judgement.facts.clone() };
        let next = match session.game.apply(&event, puzzle) {
            Ok(next) => next,
            Err(r) => return rejected(lang, r),
        };
        let grade = session.game.grade(&next, &judgement.facts, puzzle);
        let mut out = if grade.solved {
            let msg = Msg::Solved { name: &player.name, score: next.score(), bottom: &puzzle.bottom };
            TurnOutcome::reply(ReplyKind::Solved, say(lang, &msg))
        } else {
            TurnOutcome::reply(ReplyKind::Guess, say(lang, &Msg::Guess(grade)))
        };
        out.intent = Some(Intent::Guess);
        out.facts = judgement.facts;
        out.public = Some(PublicTurn { player: player.name.clone(), text: text.to_string(), outcome: "guess".into() });
        out.next = Some(next);
        out.usage = usage;
        out
    }
}

/// A declarative account of what happened, for a Judge too small to
/// tell: no question form, and long enough to tell a story ("He had eaten
/// something before and realised what it was.", "maybe the ...", "我觉得…").
fn reads_as_account(text: &str) -> bool {
    if form_of(text) == Some(Form::Question) {
        return false;
    }
    let cjk = text.chars().filter(|c| crate::core::text::is_cjk(*c)).count();
    let words = text.split_whitespace().count();
    cjk >= 8 || words >= 5
}

/// The reply that ends a turn before anything is looked up: the game
/// takes no question now, or (when the player did not say which) chatter.
fn turned_away(session: &SessionView<'_>, player: &Player, text: &str, mode: JudgeMode) -> Option<TurnOutcome> {
    let lang = session.puzzle.language;
    let probe = SoupEvent::Asked { player: player.clone(), key: String::new(), verdict: Verdict::Irrelevant };
    if let Err(r) = session.game.check(&probe) {
        return Some(rejected(lang, r));
    }
    if mode == JudgeMode::Auto && looks_like_chatter(text) {
        return Some(chatter(lang));
    }
    None
}

/// The mode, settled where the form is clear (a question mark, an
/// interrogative opening, a long declarative story): no model decides
/// what it is.
fn settled_mode(mode: JudgeMode, text: &str) -> JudgeMode {
    match (mode, form_of(text)) {
        (JudgeMode::Auto, Some(Form::Question)) => JudgeMode::Question,
        (JudgeMode::Auto, Some(Form::Guess)) => JudgeMode::Guess,
        (mode, _) => mode,
    }
}

/// Short social noise that needs no model ("lol", "ok", "哈哈").
fn looks_like_chatter(text: &str) -> bool {
    let t = text.trim().trim_end_matches(['!', '.', '~', '！', '。']).to_lowercase();
    const NOISE: [&str; 16] = [
        "lol",
        "ok",
        "okay",
        "hmm",
        "hm",
        "haha",
        "hahaha",
        "thanks",
        "thx",
        "hi",
        "hello",
        "hey",
        "哈哈",
        "哈哈哈",
        "嗯",
        "好的",
    ];
    NOISE.contains(&t.as_str())
}

/// Questions end with a question mark (or 吗); statements may be guesses,
/// which must never borrow a question's verdict.
fn looks_like_question(text: &str) -> bool {
    let t = text.trim_end();
    t.ends_with('?') || t.ends_with('？') || t.ends_with('吗') || t.ends_with('呢')
}

fn tail<T>(items: &[T], n: usize) -> &[T] {
    &items[items.len().saturating_sub(n)..]
}

/// Tokens the answers before the hot window may take in a prompt.
const EARLIER_TOKENS: usize = 240;

/// A long game's history as the Judge and the Narrator read it
/// (`core::context`): the last `HISTORY_IN_PROMPT` turns verbatim (hot),
/// and before them one line of the earlier questions that were answered
/// (cold), the newest kept within `EARLIER_TOKENS`; turns that taught
/// nothing (irrelevant, META, hints) are left out of it.
fn layered_history(history: &[PublicTurn]) -> Vec<PublicTurn> {
    let split = history.len().saturating_sub(HISTORY_IN_PROMPT);
    let (older, recent) = history.split_at(split);
    let taught = |t: &&PublicTurn| matches!(t.outcome.as_str(), "YES" | "NO" | "YES_AND_NO" | "guess");
    let lines: Vec<String> = older.iter().filter(taught).map(|t| format!("{} => {}", t.text, t.outcome)).collect();
    let count = |t: &str| crate::core::context::estimate_tokens(t);
    let mut out = Vec::with_capacity(recent.len() + 1);
    if let Some(text) = crate::core::context::fold_older(&lines, EARLIER_TOKENS, &count) {
        out.push(PublicTurn { player: String::new(), text, outcome: "earlier".into() });
    }
    out.extend(recent.iter().cloned());
    out
}

fn rejected(lang: Language, r: Rejection) -> TurnOutcome {
    TurnOutcome::reply(ReplyKind::Rejected, say(lang, &Msg::Rejected(r)))
}

fn input_rejected(lang: Language, p: InputProblem) -> TurnOutcome {
    TurnOutcome::reply(ReplyKind::Rejected, say(lang, &Msg::Input(p)))
}

fn chatter(lang: Language) -> TurnOutcome {
    let mut out = TurnOutcome::reply(ReplyKind::Chatter, say(lang, &Msg::Chatter));
    out.intent = Some(Intent::Chatter);
    out
}

fn with_usage(mut out: TurnOutcome, usage: Usage) -> TurnOutcome {
    out.usage = usage;
    out
}

fn unavailable(lang: Language, error: LlmError, usage: Usage) -> TurnOutcome {
    tracing::warn!(error = %error, "judge call failed; the turn is not counted");
    let mut out = with_usage(TurnOutcome::reply(ReplyKind::Unavailable, say(lang, &Msg::ModelDown)), usage);
    out.commit = false;
    out
}

/// Whether this phase ends the game (used to decide on scores).
pub fn ends_game(before: Phase, after: Phase) -> bool {
    !before.is_over() && after.is_over()
}

mod agents;
mod guard;
pub use guard::GameGate;
mod views;

use views::{history_text, status_text};

#[cfg(test)]
mod tests;
