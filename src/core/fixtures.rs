//! Test fixtures shared by the core's unit tests (compiled for tests only).

use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use super::llm::{ChatRequest, ChatResponse, LlmClient, LlmError, RoleModels};
use super::prompts::PublicTurn;
use super::services::{Pipeline, PipelineSettings};
use super::soup::puzzle::Puzzle;
use super::vocab::Player;

pub const LIGHTHOUSE: &str = r#"
id = "en-test-lighthouse"
title = "The Dark Lighthouse"
language = "en"
difficulty = "medium"
tags = ["sea"]
author = "tests"
license = "CC0"
surface = "A lighthouse keeper switched off his lamp one night. The next morning he read the newspaper and wept."
bottom = "The keeper's brother was sailing home that night on a cargo ship. Because the lamp was dark, the ship struck the rocks and sank. The newspaper listed his brother among the drowned crew."
hints = ["Think about who was at sea that night.", "The keeper had family on the water.", "The lamp was there to warn ships away from danger."]

[[facts]]
id = "f1"
text = "A ship wrecked because the lamp was off."
required = true

[[facts]]
id = "f2"
text = "The keeper's brother was aboard and drowned."
required = true

[[facts]]
id = "f3"
text = "He learned of it from the newspaper."
required = false
"#;

pub fn puzzle() -> Puzzle {
    Puzzle::from_toml(LIGHTHOUSE, Some("en-test-lighthouse"), None).expect("fixture puzzle is valid")
}

/// A model that answers by the prompt: `reply(prompt)`, the prompt being
/// every message's text, joined; it keeps every request whole (roles,
/// token limit, schema), in order.
struct Model {
    reply: Box<dyn Fn(&str) -> String + Send + Sync>,
    seen: Arc<Mutex<Vec<ChatRequest>>>,
}

#[async_trait]
impl LlmClient for Model {
    fn describe(&self) -> String {
        "test".into()
    }

    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError> {
        let prompt: Vec<&str> = request.messages.iter().map(|m| m.content.as_str()).collect();
        let text = (self.reply)(&prompt.join("\n"));
        self.seen.lock().unwrap().push(request);
        Ok(ChatResponse { text, ..ChatResponse::default() })
    }

    async fn health(&self) -> Result<(), LlmError> {
        Ok(())
    }
}

/// The bundled prompts over one `Model(reply)` in every role.
pub fn pipeline(reply: impl Fn(&str) -> String + Send + Sync + 'static) -> Pipeline {
    requests(reply).0
}

/// `pipeline(reply)` that also keeps every prompt it is asked, in order.
pub fn recording(reply: impl Fn(&str) -> String + Send + Sync + 'static) -> (Pipeline, Arc<Mutex<Vec<String>>>) {
    let prompts = Arc::new(Mutex::new(Vec::new()));
    let seen = prompts.clone();
    let pipeline = pipeline(move |prompt| {
        seen.lock().unwrap().push(prompt.to_string());
        reply(prompt)
    });
    (pipeline, prompts)
}

/// An AI seat (`AI 3`), for an agent's prompt.
pub fn ai_seat() -> Player {
    Player { id: "ai:3".into(), name: "AI 3".into() }
}

/// A public record: `(player, text)` turns.
pub fn record(turns: &[(&str, &str)]) -> Vec<PublicTurn> {
    turns
        .iter()
        .map(|(player, text)| PublicTurn { player: player.to_string(), text: text.to_string(), outcome: String::new() })
        .collect()
}

/// Seat options (`1` → `#1 P1`), as a vote lists them.
pub fn seat_options(numbers: &[&str]) -> Vec<(String, String)> {
    numbers.iter().map(|n| (n.to_string(), format!("#{n} P{n}"))).collect()
}

/// `pipeline(reply)` and every request its model is asked, whole: `shown`
/// lays them out for a snapshot.
pub fn requests(reply: impl Fn(&str) -> String + Send + Sync + 'static) -> (Pipeline, Arc<Mutex<Vec<ChatRequest>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let model: Arc<dyn LlmClient> = Arc::new(Model { reply: Box::new(reply), seen: seen.clone() });
    let models = RoleModels { judge: model.clone(), narrator: model };
    let pipeline =
        Pipeline::new(models, Arc::new(crate::assets::load_prompts(None).unwrap()), PipelineSettings::default());
    (pipeline, seen)
}

/// Requests as a snapshot shows them: each message under its role, then
/// the token limit and whether a schema was asked for.
pub fn shown(requests: &[ChatRequest]) -> String {
    let mut out = String::new();
    for (i, request) in requests.iter().enumerate() {
        out.push_str(&format!("=== request {}\n", i + 1));
        for message in &request.messages {
            out.push_str(&format!("--- {:?}\n{}\n", message.role, message.content));
        }
        let schema = if request.json_schema.is_some() { "a JSON schema" } else { "no schema" };
        out.push_str(&format!(
            "--- max {} tokens, temperature {}, {schema}\n",
            request.max_tokens, request.temperature
        ));
    }
    out
}
