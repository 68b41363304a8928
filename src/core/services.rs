//! The services every game's turn runs on: the models by role, the
//! prompts, puzzle and lore knowledge, player memory and the embedder
//! (`Pipeline`, handed to a table in its `TurnContext`), what a turn used
//! of them (`Usage`), and the progress a front end shows while it runs.
//! A game's own turn logic lives in its folder (Turtle Soup's Judge and
//! Narrator steps in `soup::pipeline`).

use std::sync::Arc;

use crate::core::embed::{Embedder, VectorCache};
use crate::core::knowledge::Knowledge;
use crate::core::llm::RoleModels;
use crate::core::memory::Memory;
use crate::core::prompts::Prompts;

/// Settings the pipeline needs from config.
#[derive(Debug, Clone)]
pub struct PipelineSettings {
    pub narrator: bool,
    pub judge_max_tokens: u32,
    pub narrator_max_tokens: u32,
    pub max_input_chars: usize,
    pub seed: Option<u64>,
    /// Cosine similarity at or above which a question reuses an earlier
    /// question's verdict (semantic consistency ledger).
    pub ledger_threshold: f32,
    /// Most characters of player memories the Narrator may be given.
    pub memory_chars: usize,
    /// Whether the Judge model decides what a game's known answers do not
    /// cover; false for a model too small to judge ("can't tell" instead
    /// of a coin toss).
    pub judge_model: bool,
    /// Whether a game answers from its content's known answers before
    /// asking the Judge model.
    pub known_answers: bool,
}

impl Default for PipelineSettings {
    fn default() -> Self {
        PipelineSettings {
            narrator: true,
            judge_max_tokens: 96,
            narrator_max_tokens: 48,
            max_input_chars: crate::core::text::MAX_INPUT_CHARS,
            seed: None,
            ledger_threshold: DEFAULT_LEDGER_THRESHOLD,
            memory_chars: 480,
            judge_model: true,
            known_answers: true,
        }
    }
}

/// The semantic ledger's default threshold, tuned on
/// `tests/data/question_pairs.toml` with all-MiniLM-L6-v2 (see `echoes bench ledger`).
pub const DEFAULT_LEDGER_THRESHOLD: f32 = 0.93;

/// Everything a turn needs besides the session: the models, prompts,
/// knowledge, memory and embedder (Turtle Soup's Judge and Narrator steps
/// are `impl Pipeline` in `soup::pipeline`).
#[derive(Clone)]
pub struct Pipeline {
    pub models: RoleModels,
    pub prompts: Arc<Prompts>,
    pub settings: PipelineSettings,
    /// Puzzle documents, retrieved by role (lore for the Judge, public
    /// notes for AI players).
    pub knowledge: Option<Arc<dyn Knowledge>>,
    /// Player memories for the Narrator (never the Judge).
    pub memory: Option<Arc<dyn Memory>>,
    /// A sentence embedder for the semantic ledger; without one the
    /// ledger matches normalised text only.
    pub embedder: Option<Arc<dyn Embedder>>,
    /// Where prepared vectors (a puzzle's known answers) outlive the
    /// process; without one they are embedded again in each process.
    pub vector_cache: Option<Arc<dyn VectorCache>>,
}

impl Pipeline {
    pub fn new(models: RoleModels, prompts: Arc<Prompts>, settings: PipelineSettings) -> Self {
        Pipeline { models, prompts, settings, knowledge: None, memory: None, embedder: None, vector_cache: None }
    }
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

/// Progress a front end may show while a turn runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Progress {
    Judging,
    Narrating,
    /// A game's own named step ("Validating your action against the lore").
    Step(String),
}

pub type ProgressFn<'a> = &'a (dyn Fn(Progress) + Send + Sync);
