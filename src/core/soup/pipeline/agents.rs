//! The model-facing steps of a turn: the Judge call (the only prompt with
//! the answer), the Narrator's remark, and their parsing and fallbacks.

use super::*;

use crate::core::knowledge::{DocKind, Role};
use crate::core::llm::echo::Instructions;

impl Pipeline {
    /// One Judge call. `Ok(None)` is the defined fallback for output that
    /// could not be parsed: the player is asked to rephrase.
    pub(super) async fn judge(
        &self,
        session: &SessionView<'_>,
        text: &str,
        mode: JudgeMode,
        usage: &mut Usage,
    ) -> Result<Option<Judgement>, LlmError> {
        let puzzle = session.puzzle;
        let recent = layered_history(session.history);
        let passages = self.lore_for(puzzle, text).await;
        let view = JudgeView {
            public: PublicView::of(puzzle, &recent),
            bottom: &puzzle.bottom,
            facts: &puzzle.facts,
            passages: &passages,
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

    /// The Narrator's remark, or a stock one when it is off, fails or
    /// writes nothing usable. META verdicts get fixed text only.
    pub(super) async fn remark(
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

    pub(super) async fn narrate(
        &self,
        session: &SessionView<'_>,
        question: &str,
        verdict: Verdict,
        usage: &mut Usage,
    ) -> Result<Option<String>, LlmError> {
        let lang = session.puzzle.language;
        let memories = self.memories_for(session, question).await;
        let recent = layered_history(session.history);
        let view = PublicView { memories: &memories, ..PublicView::of(session.puzzle, &recent) };
        let system = self.prompts.narrator_system(&view).map_err(|e| LlmError::Config(e.to_string()))?;
        let user = self
            .prompts
            .narrator_user(question, verdict_label(lang, verdict), lang)
            .map_err(|e| LlmError::Config(e.to_string()))?;
        let prompt = format!("{system}\n{user}");
        let mut request = ChatRequest::new(vec![ChatMessage::system(system), ChatMessage::user(user)]);
        request.max_tokens = self.settings.narrator_max_tokens;
        request.temperature = 0.7;
        request.seed = self.settings.seed;
        let text = call(&*self.models.narrator, request, usage).await?;
        let public = format!("{}\n{question}\n{}", session.puzzle.surface, public_lines(session.history));
        // The engine's guard: a remark that repeats the instructions is not shown.
        let instructions = Instructions::of_text(&prompt, &public, lang);
        Ok(clean_remark(&text).filter(|remark| !instructions.echoed_by(remark)))
    }
}

impl Pipeline {
    /// The lore passages the Judge needs for this message. Puzzles with
    /// little lore get all of it; long lore is retrieved by relevance so the
    /// prompt stays small.
    async fn lore_for(&self, puzzle: &Puzzle, text: &str) -> Vec<String> {
        let all: Vec<String> = puzzle.lore.iter().map(|l| l.text.trim().to_string()).collect();
        let total: usize = all.iter().map(|t| t.chars().count()).sum();
        let Some(knowledge) = self.knowledge.as_ref().filter(|_| total > LORE_INLINE_CHARS) else { return all };
        match knowledge.retrieve(Role::Judge, &puzzle.id, text, LORE_PASSAGES * 3).await {
            Ok(hits) => hits
                .into_iter()
                .filter(|h| h.doc.kind == DocKind::Lore)
                .take(LORE_PASSAGES)
                .map(|h| h.doc.text)
                .collect(),
            Err(e) => {
                tracing::warn!(error = %e, "lore retrieval failed; giving the judge all lore");
                all
            }
        }
    }

    /// Up to three memories about the players at the table, within the
    /// character budget. Never called for the Judge.
    async fn memories_for(&self, session: &SessionView<'_>, question: &str) -> Vec<String> {
        let Some(memory) = &self.memory else { return Vec::new() };
        let namespaces: Vec<String> = session.game.players.keys().map(|id| format!("player:{id}")).collect();
        let found = match memory.recall(&namespaces, question, 3).await {
            Ok(found) => found,
            Err(e) => {
                tracing::warn!(error = %e, "memory recall failed; narrating without memories");
                return Vec::new();
            }
        };
        let mut budget = self.settings.memory_chars;
        let mut out = Vec::new();
        for item in found {
            let n = item.text.chars().count();
            if n > budget {
                break;
            }
            budget -= n;
            out.push(item.text);
        }
        out
    }

    /// The embedding of a normalised question, if an embedder is set.
    /// Chinese questions get none: the bundled sentence model is English
    /// only (its vocabulary has no CJK, so different Chinese questions embed
    /// alike) and they use the exact ledger.
    pub(super) async fn question_vector(&self, key: &str) -> Option<Vec<f32>> {
        if key.chars().any(crate::core::text::is_cjk) {
            return None;
        }
        self.embedding(key).await
    }

    /// The embedding of a normalised question in any language, if an
    /// embedder is set: the known answers weigh it beside the words (in
    /// Chinese at 0.3 beside the character pairs, as calibrated).
    pub(super) async fn embedding(&self, key: &str) -> Option<Vec<f32>> {
        let embedder = self.embedder.as_ref()?;
        match embedder.embed(&[key.to_string()]).await {
            Ok(mut v) => v.pop(),
            Err(e) => {
                tracing::warn!(error = %e, "embedding a question failed; exact ledger only");
                None
            }
        }
    }

    /// A question that asks two things, answered from the known answers
    /// part by part (`Known::recall_two`), each part with its own vector.
    pub(super) async fn recall_two(&self, known: &Known, text: &str) -> Option<Verdict> {
        let (first, second) = known::two_asks(text)?;
        let first_vector = self.embedding(&normalize_question(&first)).await;
        let second_vector = self.embedding(&normalize_question(&second)).await;
        known.recall_two((&first, first_vector.as_deref()), (&second, second_vector.as_deref()))
    }

    /// The verdict of the closest earlier question, when it is close enough.
    pub(super) fn semantic_match(&self, ledger: &[LedgerVector], key: &str, vector: &[f32]) -> Option<Verdict> {
        ledger
            .iter()
            .filter(|l| !crate::core::text::differ_by_contrast(&l.key, key))
            .map(|l| (crate::core::embed::cosine(&l.vector, vector), l.verdict))
            .filter(|(score, _)| *score >= self.settings.ledger_threshold)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, verdict)| verdict)
    }

    /// A public summary of a finished game for the players' memory: one
    /// model call that sees the surface, the public history and the outcome.
    pub async fn summarise(&self, puzzle: &Puzzle, history: &[PublicTurn], outcome: &str) -> Result<String, LlmError> {
        let view = PublicView::of(puzzle, tail(history, 40));
        let system = self.prompts.summary_system(&view, outcome).map_err(|e| LlmError::Config(e.to_string()))?;
        let mut request = ChatRequest::new(vec![ChatMessage::system(system)]);
        request.max_tokens = 96;
        request.seed = self.settings.seed;
        let text = call(&*self.models.narrator, request, &mut Usage::default()).await?;
        let cleaned = clean_input(&text, usize::MAX).unwrap_or_default();
        Ok(truncate_chars(&cleaned, MAX_SUMMARY_CHARS))
    }

    /// An AI player's next question, written from what a human player may
    /// know: the surface, the public history and player-agent documents.
    pub async fn ai_player_question(
        &self,
        puzzle: &Puzzle,
        history: &[PublicTurn],
    ) -> Result<Option<String>, LlmError> {
        let notes = match &self.knowledge {
            Some(k) => k
                .retrieve(Role::PlayerAgent, &puzzle.id, &puzzle.surface, 4)
                .await
                .map_err(|e| LlmError::Config(e.to_string()))?
                .into_iter()
                .map(|h| h.doc.text)
                .collect(),
            None => Vec::new(),
        };
        let recent = layered_history(history);
        let view = PublicView::of(puzzle, &recent);
        let system = self.prompts.player_system(&view, &notes).map_err(|e| LlmError::Config(e.to_string()))?;
        let mut request = ChatRequest::new(vec![ChatMessage::system(system)]);
        request.max_tokens = 48;
        request.temperature = 0.8;
        let public = format!("{}\n{}", puzzle.surface, public_lines(history));
        let instructions = Instructions::of(&request.messages, &public, puzzle.language);
        let text = call(&*self.models.narrator, request, &mut Usage::default()).await?;
        Ok(clean_remark(&text).filter(|q| !instructions.echoed_by(q)))
    }
}

/// Lore up to this size goes to the Judge whole.
const LORE_INLINE_CHARS: usize = 1_500;
/// Passages retrieved for one message when lore is long.
const LORE_PASSAGES: usize = 3;
const MAX_SUMMARY_CHARS: usize = 400;

pub(super) async fn call(client: &dyn LlmClient, request: ChatRequest, usage: &mut Usage) -> Result<String, LlmError> {
    usage.model_calls += 1;
    let response = client.chat(request).await?;
    usage.prompt_tokens += response.prompt_tokens;
    usage.completion_tokens += response.completion_tokens;
    Ok(response.text)
}

/// First line of the Narrator's text, unquoted and cut short.
/// Consecutive words (en) or characters (zh) of the Narrator's own
/// instructions that make a remark an echo of its prompt.
fn public_lines(history: &[PublicTurn]) -> String {
    history.iter().map(|t| format!("{} {}\n", t.player, t.text)).collect()
}

fn clean_remark(raw: &str) -> Option<String> {
    let line = raw.lines().map(str::trim).find(|l| !l.is_empty())?;
    let line = line.trim_matches(|c: char| c == '"' || c == '“' || c == '”' || c == '\'' || c == '*');
    let cleaned = clean_input(line, usize::MAX).ok()?;
    Some(truncate_chars(&cleaned, MAX_REMARK_CHARS))
}
