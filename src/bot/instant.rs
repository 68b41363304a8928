//! The offline rig every bot front end's tests and benchmarks share: an
//! instant rule-based model (so figures measure the adapter, the actors and
//! SQLite, not a model) and the bot's parts over a SQLite file with the
//! built-in puzzles.

use std::path::Path;
use std::sync::Arc;

use async_trait::async_trait;
use serde_json::json;

use crate::core::actor::Engine;
use crate::core::guild::GuildStore;
use crate::core::llm::{ChatRequest, ChatResponse, LlmClient, LlmError, RoleModels};
use crate::core::services::{Pipeline, PipelineSettings};
use crate::core::store::{Store, SystemClock};
use crate::core::vocab::Language;
use crate::puzzles::PuzzleLibrary;

use super::runtime::open_store;
use super::{BotParts, Defaults};

/// An instant model: the Judge's reply is chosen by the first rule whose
/// key the player's text contains (else a YES question verdict); the
/// Narrator always says the same short remark.
#[derive(Debug, Clone, Default)]
pub struct InstantModel {
    rules: Vec<(String, String)>,
    /// Replies to other roles' prompts (an AI seat's vote): the first
    /// rule whose key the prompt contains.
    others: Vec<(String, String)>,
}

impl InstantModel {
    pub fn new(rules: &[(&str, String)]) -> Self {
        InstantModel { rules: rules.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(), others: Vec::new() }
    }

    /// Replies for prompts that are not the Judge's, by a key the prompt contains.
    pub fn with_others(mut self, rules: &[(&str, &str)]) -> Self {
        self.others = rules.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        self
    }

    /// A Judge reply for a question.
    pub fn question(verdict: &str) -> String {
        json!({"kind": "question", "verdict": verdict, "facts": []}).to_string()
    }

    /// A Judge reply for a guess stating these key facts.
    pub fn guess(facts: &[&str]) -> String {
        json!({"kind": "guess", "verdict": "IRRELEVANT", "facts": facts}).to_string()
    }

    fn reply(&self, request: &ChatRequest) -> String {
        let system = request.messages.first().map(|m| m.content.as_str()).unwrap_or_default();
        if !system.contains("You are the JUDGE") {
            let prompt: String = request.messages.iter().map(|m| m.content.as_str()).collect();
            let rule = self.others.iter().find(|(key, _)| prompt.contains(key.as_str()));
            return rule.map_or_else(|| "Keep digging.".into(), |(_, reply)| reply.clone());
        }
        let user = request.messages.get(1).map(|m| m.content.as_str()).unwrap_or_default();
        let said = user.split("<<<").nth(1).and_then(|s| s.split(">>>").next()).unwrap_or(user);
        self.rules
            .iter()
            .find(|(key, _)| said.contains(key.as_str()))
            .map_or_else(|| Self::question("YES"), |(_, reply)| reply.clone())
    }
}

#[async_trait]
impl LlmClient for InstantModel {
    fn describe(&self) -> String {
        "instant".into()
    }

    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError> {
        Ok(ChatResponse { text: self.reply(&request), prompt_tokens: 100, completion_tokens: 10 })
    }

    async fn health(&self) -> Result<(), LlmError> {
        Ok(())
    }
}

/// The bot's parts over a SQLite file, the built-in puzzles and `model`
/// (English, three hints, no per-scope models).
pub async fn offline_parts(database: &Path, model: Arc<dyn LlmClient>) -> anyhow::Result<BotParts> {
    offline_parts_on(&crate::store::Database::Sqlite(database.to_path_buf()), model, None).await
}

/// The same parts on any database, as the lease holder `owner` when
/// given (tests that run several bot processes on one PostgreSQL).
pub async fn offline_parts_on(
    database: &crate::store::Database,
    model: Arc<dyn LlmClient>,
    owner: Option<&str>,
) -> anyhow::Result<BotParts> {
    let store = Arc::new(open_store(database).await?);
    let prompts = Arc::new(crate::assets::load_prompts(None)?);
    let models = RoleModels { judge: model.clone(), narrator: model };
    let pipeline = Pipeline::new(models, prompts, PipelineSettings::default());
    let store_port: Arc<dyn Store> = store.clone();
    let engine = Engine::new(pipeline, store_port, Arc::new(SystemClock), 0);
    let engine = Arc::new(match owner {
        Some(owner) => engine.owned_by(owner),
        None => engine,
    });
    let guilds: Arc<dyn GuildStore> = store;
    let (library, _) = PuzzleLibrary::load(None);
    Ok(BotParts {
        engine,
        guilds,
        library,
        catalogue: crate::assets::catalogue(),
        defaults: Defaults { language: Language::En, hint_limit: 3, start: Default::default() },
        models: None,
        hosted: crate::assets::hosted_games(),
    })
}
