//! Test fixtures shared by the core's unit tests (compiled for tests only).

use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use super::llm::{ChatRequest, ChatResponse, LlmClient, LlmError, RoleModels};
use super::services::{Pipeline, PipelineSettings};
use super::soup::puzzle::Puzzle;

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
/// every message's text, joined.
pub struct Model(pub Box<dyn Fn(&str) -> String + Send + Sync>);

#[async_trait]
impl LlmClient for Model {
    fn describe(&self) -> String {
        "test".into()
    }

    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError> {
        let prompt: Vec<&str> = request.messages.iter().map(|m| m.content.as_str()).collect();
        Ok(ChatResponse { text: (self.0)(&prompt.join("\n")), ..ChatResponse::default() })
    }

    async fn health(&self) -> Result<(), LlmError> {
        Ok(())
    }
}

/// The bundled prompts over one `Model(reply)` in every role.
pub fn pipeline(reply: impl Fn(&str) -> String + Send + Sync + 'static) -> Pipeline {
    let model: Arc<dyn LlmClient> = Arc::new(Model(Box::new(reply)));
    let models = RoleModels { judge: model.clone(), narrator: model };
    Pipeline::new(models, Arc::new(crate::assets::load_prompts(None).unwrap()), PipelineSettings::default())
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
