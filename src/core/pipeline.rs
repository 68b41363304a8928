//! The turn pipeline: one player input in, one reply and (usually) one
//! turn record out. Classify and judge (one Judge call at most), narrate
//! (one Narrator call at most), and apply the result to the game state.
//!
//! Nothing here writes anywhere: the session actor commits the returned
//! record before the reply is shown. A failed model call returns no record
//! and no new state, so the turn never half-happens.

use std::sync::Arc;

use super::i18n::{Msg, say, verdict_label};
use super::llm::{ChatMessage, ChatRequest, LlmClient, LlmError, RoleModels};
use super::prompts::{JudgeMode, JudgeView, Prompts, PublicTurn, PublicView};
use super::puzzle::{Language, Puzzle};
use super::soup::{Phase, Player, Rejection, SoupEvent, SoupGame};
use super::text::{InputProblem, clean_input, normalize_question, truncate_chars};
use super::verdict::{Intent, Judgement, Parsed, Verdict, judgement_schema, parse_judgement};

/// How many earlier turns the prompts see.
const HISTORY_IN_PROMPT: usize = 12;
/// Longest Narrator remark shown, in characters.
const MAX_REMARK_CHARS: usize = 160;

/// A player's input, parsed at the edge by a front end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnInput {
    Start,
    /// Free text: the Judge decides whether it is a question, a guess or chatter.
    Say(String),
    Ask(String),
    Guess(String),
    Hint,
    Status,
    History,
    GiveUp,
    /// Moderator verb: end the game and show the story.
    Reveal,
}

impl TurnInput {
    pub fn kind(&self) -> &'static str {
        match self {
            TurnInput::Start => "start",
            TurnInput::Say(_) => "say",
            TurnInput::Ask(_) => "ask",
            TurnInput::Guess(_) => "guess",
            TurnInput::Hint => "hint",
            TurnInput::Status => "status",
            TurnInput::History => "history",
            TurnInput::GiveUp => "giveup",
            TurnInput::Reveal => "reveal",
        }
    }

    pub fn text(&self) -> &str {
        match self {
            TurnInput::Say(t) | TurnInput::Ask(t) | TurnInput::Guess(t) => t,
            _ => "",
        }
    }
}

/// Settings the pipeline needs from config.
#[derive(Debug, Clone)]
pub struct PipelineSettings {
    pub narrator: bool,
    pub judge_max_tokens: u32,
    pub narrator_max_tokens: u32,
    pub max_input_chars: usize,
    pub seed: Option<u64>,
}

impl Default for PipelineSettings {
    fn default() -> Self {
        PipelineSettings {
            narrator: true,
            judge_max_tokens: 96,
            narrator_max_tokens: 48,
            max_input_chars: super::text::MAX_INPUT_CHARS,
            seed: None,
        }
    }
}

/// Everything a turn needs besides the session.
#[derive(Clone)]
pub struct Pipeline {
    pub models: RoleModels,
    pub prompts: Arc<Prompts>,
    pub settings: PipelineSettings,
}

/// The part of a session the pipeline reads.
#[derive(Debug, Clone)]
pub struct SessionView<'a> {
    pub puzzle: &'a Puzzle,
    pub game: &'a SoupGame,
    pub history: &'a [PublicTurn],
    pub canary: &'a str,
}

/// What kind of reply this is, so front ends can style it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplyKind {
    Intro,
    Verdict,
    Guess,
    Solved,
    Hint,
    Status,
    History,
    Ended,
    Rejected,
    Chatter,
    Unclear,
    Unavailable,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Reply {
    pub kind: ReplyKind,
    pub text: String,
    pub verdict: Option<Verdict>,
}

/// Model use and parse quality for one turn, kept in the turn record.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Usage {
    pub model_calls: u32,
    pub prompt_tokens: u32,
    pub completion_tokens: u32,
    /// "clean", "salvaged", "fallback", "ledger", or "" when no Judge call.
    pub judge_parse: &'static str,
}

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
        }
    }
}

/// Progress a front end may show while a turn runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    Judging,
    Narrating,
}

pub type ProgressFn<'a> = &'a (dyn Fn(Progress) + Send + Sync);

impl Pipeline {
    /// Runs one turn against the session as it is now.
    pub async fn run(
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
            TurnInput::Ask(text) => self.judged(session, player, text, JudgeMode::Question, progress).await,
            TurnInput::Guess(text) => self.judged(session, player, text, JudgeMode::Guess, progress).await,
            TurnInput::Hint => self.hint(session),
            TurnInput::Status => TurnOutcome::reply(ReplyKind::Status, status_text(session)),
            TurnInput::History => TurnOutcome::reply(ReplyKind::History, history_text(lang, session.history)),
            TurnInput::GiveUp => self.simple(session, SoupEvent::GaveUp, ReplyKind::Ended, |p, _| {
                say(lang, &Msg::GaveUp { bottom: &p.bottom })
            }),
            TurnInput::Reveal => self.simple(session, SoupEvent::Revealed, ReplyKind::Ended, |p, _| {
                say(lang, &Msg::Revealed { bottom: &p.bottom })
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
        let probe = SoupEvent::Asked { player: player.clone(), key: String::new(), verdict: Verdict::Irrelevant };
        if let Err(r) = session.game.check(&probe) {
            return rejected(lang, r);
        }
        if mode == JudgeMode::Auto && looks_like_chatter(&text) {
            return chatter(lang);
        }
        let key = normalize_question(&text);
        if mode != JudgeMode::Guess
            && let Some(verdict) = session.game.ledger_verdict(&key)
        {
            let mut usage = Usage { judge_parse: "ledger", ..Usage::default() };
            let j = Judgement { intent: Intent::Question, verdict: Some(verdict), facts: Vec::new() };
            return self.answer(session, player, &text, key, j, &mut usage, true, progress).await;
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
            Intent::Question => self.answer(session, player, &text, key, judgement, &mut usage, false, progress).await,
            Intent::Guess => self.grade(session, player, &text, judgement, usage),
            Intent::Chatter => with_usage(chatter(lang), usage),
        }
    }

    /// One Judge call. `Ok(None)` is the defined fallback for output that
    /// could not be parsed: the player is asked to rephrase.
    async fn judge(
        &self,
        session: &SessionView<'_>,
        text: &str,
        mode: JudgeMode,
        usage: &mut Usage,
    ) -> Result<Option<Judgement>, LlmError> {
        let puzzle = session.puzzle;
        let recent = tail(session.history, HISTORY_IN_PROMPT);
        let view = JudgeView {
            public: PublicView::of(puzzle, recent),
            bottom: &puzzle.bottom,
            facts: &puzzle.facts,
            canary: session.canary,
        };
        let expected = match mode {
            JudgeMode::Auto => None,
            JudgeMode::Question => Some(Intent::Question),
            JudgeMode::Guess => Some(Intent::Guess),
        };
        let system = self.prompts.judge_system(&view, mode).map_err(|e| LlmError::Config(e.to_string()))?;
        let user = self.prompts.judge_user(text, mode, puzzle.language).map_err(|e| LlmError::Config(e.to_string()))?;
        let mut request = ChatRequest::new(vec![ChatMessage::system(system), ChatMessage::user(user)]);
        request.max_tokens = self.settings.judge_max_tokens;
        request.temperature = 0.0;
        request.seed = self.settings.seed;
        request.json_schema = Some(judgement_schema(expected));
        let response = call(&*self.models.judge, request, usage).await?;
        let parsed = parse_judgement(&response, expected, puzzle);
        tracing::debug!(parse = ?parsed, "judge reply parsed");
        Ok(match parsed {
            Parsed::Clean(j) => {
                usage.judge_parse = "clean";
                Some(j)
            }
            Parsed::Salvaged(j) => {
                usage.judge_parse = "salvaged";
                Some(j)
            }
            Parsed::Unusable => {
                usage.judge_parse = "fallback";
                None
            }
        })
    }

    #[allow(clippy::too_many_arguments)]
    async fn answer(
        &self,
        session: &SessionView<'_>,
        player: &Player,
        text: &str,
        key: String,
        judgement: Judgement,
        usage: &mut Usage,
        repeat: bool,
        progress: ProgressFn<'_>,
    ) -> TurnOutcome {
        let lang = session.puzzle.language;
        let verdict = judgement.verdict.unwrap_or(Verdict::Irrelevant);
        let event = SoupEvent::Asked { player: player.clone(), key, verdict };
        let next = match session.game.apply(&event, session.puzzle) {
            Ok(next) => next,
            Err(r) => return rejected(lang, r),
        };
        let remark =
            if repeat { say(lang, &Msg::Repeat) } else { self.remark(session, text, verdict, usage, progress).await };
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

    /// The Narrator's remark, or a stock one when it is off, fails or
    /// writes nothing usable. META verdicts get fixed text only.
    async fn remark(
        &self,
        session: &SessionView<'_>,
        question: &str,
        verdict: Verdict,
        usage: &mut Usage,
        progress: ProgressFn<'_>,
    ) -> String {
        let lang = session.puzzle.language;
        let stock = say(lang, &Msg::NoRemark(verdict, session.game.questions as usize));
        if !self.settings.narrator || verdict == Verdict::Meta {
            return stock;
        }
        progress(Progress::Narrating);
        match self.narrate(session, question, verdict, usage).await {
            Ok(Some(remark)) => remark,
            Ok(None) => stock,
            Err(e) => {
                tracing::warn!(error = %e, "narrator failed; using a stock remark");
                stock
            }
        }
    }

    async fn narrate(
        &self,
        session: &SessionView<'_>,
        question: &str,
        verdict: Verdict,
        usage: &mut Usage,
    ) -> Result<Option<String>, LlmError> {
        let lang = session.puzzle.language;
        let view = PublicView::of(session.puzzle, tail(session.history, HISTORY_IN_PROMPT));
        let system = self.prompts.narrator_system(&view).map_err(|e| LlmError::Config(e.to_string()))?;
        let user = self
            .prompts
            .narrator_user(question, verdict_label(lang, verdict), lang)
            .map_err(|e| LlmError::Config(e.to_string()))?;
        let mut request = ChatRequest::new(vec![ChatMessage::system(system), ChatMessage::user(user)]);
        request.max_tokens = self.settings.narrator_max_tokens;
        request.temperature = 0.7;
        request.seed = self.settings.seed;
        let text = call(&*self.models.narrator, request, usage).await?;
        Ok(clean_remark(&text))
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

async fn call(client: &dyn LlmClient, request: ChatRequest, usage: &mut Usage) -> Result<String, LlmError> {
    usage.model_calls += 1;
    let response = client.chat(request).await?;
    usage.prompt_tokens += response.prompt_tokens;
    usage.completion_tokens += response.completion_tokens;
    Ok(response.text)
}

/// First line of the Narrator's text, unquoted and cut short.
fn clean_remark(raw: &str) -> Option<String> {
    let line = raw.lines().map(str::trim).find(|l| !l.is_empty())?;
    let line = line.trim_matches(|c: char| c == '"' || c == '“' || c == '”' || c == '\'' || c == '*');
    let cleaned = clean_input(line, usize::MAX).ok()?;
    Some(truncate_chars(&cleaned, MAX_REMARK_CHARS))
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

fn tail<T>(items: &[T], n: usize) -> &[T] {
    &items[items.len().saturating_sub(n)..]
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

fn status_text(session: &SessionView<'_>) -> String {
    let g = session.game;
    let p = session.puzzle;
    let phase = super::i18n::phase_label(p.language, g.phase);
    match p.language {
        Language::En => format!(
            "📋 {} · {phase} · {} questions · hints {}/{} · key facts found {}/{} · guesses {}",
            p.title,
            g.questions,
            g.hints_used,
            g.hint_limit,
            g.found.len(),
            p.facts.len(),
            g.guesses
        ),
        Language::Zh => format!(
            "📋 {} · {phase} · 提问 {} 次 · 提示 {}/{} · 已找到关键事实 {}/{} · 推测 {} 次",
            p.title,
            g.questions,
            g.hints_used,
            g.hint_limit,
            g.found.len(),
            p.facts.len(),
            g.guesses
        ),
    }
}

fn history_text(lang: Language, history: &[PublicTurn]) -> String {
    let moves: Vec<String> = history
        .iter()
        .filter(|t| t.outcome != "hint")
        .enumerate()
        .map(|(i, t)| format!("{}. {}: {} → {}", i + 1, t.player, t.text, outcome_label(lang, &t.outcome)))
        .collect();
    if moves.is_empty() {
        return match lang {
            Language::En => "No questions yet.".into(),
            Language::Zh => "还没有人提问。".into(),
        };
    }
    moves.join("\n")
}

fn outcome_label(lang: Language, outcome: &str) -> String {
    match Verdict::parse(outcome) {
        Some(v) => verdict_label(lang, v).to_string(),
        None if lang == Language::Zh && outcome == "guess" => "推测".into(),
        None => outcome.to_string(),
    }
}

/// Whether this phase ends the game (used to decide on scores).
pub fn ends_game(before: Phase, after: Phase) -> bool {
    !before.is_over() && after.is_over()
}

#[cfg(test)]
mod tests;
