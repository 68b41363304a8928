//! The Ollama adapter: `POST /api/chat` (NDJSON streaming or one JSON
//! object) and `GET /api/tags` for the start-up check.
//!
//! Owns Ollama's wire format only; deadlines and retries come from
//! `super::http`. Prompt text is never logged.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use super::http::{self, AttemptError, Transport};
use super::settings::ResolvedProvider;
use crate::core::llm::{ChatMessage, ChatRequest, ChatResponse, LlmClient, LlmError};

/// A chat model served by Ollama.
pub struct OllamaClient {
    transport: Transport,
    base_url: String,
    model: String,
    stream: bool,
}

impl OllamaClient {
    pub fn new(resolved: &ResolvedProvider) -> Result<Self, LlmError> {
        let label = format!("ollama:{}", resolved.model);
        Ok(Self {
            transport: Transport::new(&resolved.http, label, read_error_body)?,
            base_url: resolved.base_url.clone(),
            model: resolved.model.clone(),
            stream: resolved.stream,
        })
    }

    async fn attempt(&self, body: &WireRequest<'_>) -> Result<ChatResponse, AttemptError> {
        let url = http::endpoint(&self.base_url, "api/chat");
        let request = self.transport.client().post(url).json(body);
        let response = self.transport.send(request).await?;
        if self.stream {
            let mut reply = StreamedReply::default();
            http::for_each_line(response, |line| reply.feed(line)).await?;
            return Ok(reply.finish()?);
        }
        let chunk: WireChunk = http::parse_json(&http::read_body(response).await?, "Ollama chat response")?;
        Ok(chunk.into_response()?)
    }

    async fn fetch_tags(&self) -> Result<WireTags, AttemptError> {
        let url = http::endpoint(&self.base_url, "api/tags");
        let response = self.transport.send(self.transport.client().get(url)).await?;
        Ok(http::parse_json(&http::read_body(response).await?, "Ollama tag list")?)
    }
}

#[async_trait]
impl LlmClient for OllamaClient {
    fn describe(&self) -> String {
        format!("ollama:{}", self.model)
    }

    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError> {
        let body = WireRequest::new(&self.model, &request, self.stream);
        tracing::debug!(client = %self.describe(), messages = request.messages.len(), "sending chat request");
        self.transport.with_retries(|| self.attempt(&body)).await
    }

    /// Also checks the model is pulled: a missing model is the most common
    /// first-run mistake, and `/api/chat` would only say so on the first turn.
    async fn health(&self) -> Result<(), LlmError> {
        let tags = self.transport.once(self.fetch_tags()).await?;
        if tags.has_model(&self.model) {
            return Ok(());
        }
        Err(LlmError::Config(format!(
            "model `{}` is not pulled in Ollama at {}; run `ollama pull {}`",
            self.model, self.base_url, self.model
        )))
    }
}

/// Ollama reports errors as `{"error": "..."}`.
fn read_error_body(body: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct WireError {
        error: String,
    }
    serde_json::from_str::<WireError>(body).ok().map(|e| e.error)
}

#[derive(Debug, Serialize)]
struct WireRequest<'a> {
    model: &'a str,
    messages: &'a [ChatMessage],
    stream: bool,
    options: WireOptions,
    /// Ollama takes a JSON schema object here for structured output.
    #[serde(skip_serializing_if = "Option::is_none")]
    format: Option<&'a serde_json::Value>,
}

#[derive(Debug, Serialize)]
struct WireOptions {
    num_predict: u32,
    temperature: f32,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
}

impl<'a> WireRequest<'a> {
    fn new(model: &'a str, request: &'a ChatRequest, stream: bool) -> Self {
        Self {
            model,
            messages: &request.messages,
            stream,
            options: WireOptions {
                num_predict: request.max_tokens,
                temperature: request.temperature,
                seed: request.seed,
            },
            format: request.json_schema.as_ref(),
        }
    }
}

/// One NDJSON line of a streamed reply, or the whole non-streamed reply.
#[derive(Debug, Deserialize)]
struct WireChunk {
    message: Option<WireMessage>,
    #[serde(default)]
    done: bool,
    /// Absent when Ollama reused a cached prompt.
    #[serde(default)]
    prompt_eval_count: u32,
    #[serde(default)]
    eval_count: u32,
    /// Ollama reports failures after the headers as an `error` line.
    error: Option<String>,
}

#[derive(Debug, Deserialize)]
struct WireMessage {
    #[serde(default)]
    content: String,
}

impl WireChunk {
    fn into_response(self) -> Result<ChatResponse, LlmError> {
        if let Some(error) = self.error {
            return Err(LlmError::Malformed(format!("Ollama reported an error: {error}")));
        }
        let Some(message) = self.message else {
            return Err(LlmError::Malformed("Ollama reply has no message".to_owned()));
        };
        Ok(ChatResponse {
            text: message.content,
            prompt_tokens: self.prompt_eval_count,
            completion_tokens: self.eval_count,
        })
    }
}

/// Accumulates a streamed reply until the `done` line.
#[derive(Debug, Default)]
struct StreamedReply {
    text: String,
    usage: Option<(u32, u32)>,
}

impl StreamedReply {
    fn feed(&mut self, line: &str) -> Result<(), LlmError> {
        if line.trim().is_empty() {
            return Ok(());
        }
        let chunk: WireChunk = http::parse_json(line.as_bytes(), "Ollama stream line")?;
        let done = chunk.done;
        let part = chunk.into_response()?;
        self.text.push_str(&part.text);
        if done {
            self.usage = Some((part.prompt_tokens, part.completion_tokens));
        }
        Ok(())
    }

    /// A stream cut before `done` is a truncated reply, not a short one.
    fn finish(self) -> Result<ChatResponse, LlmError> {
        let Some((prompt_tokens, completion_tokens)) = self.usage else {
            return Err(LlmError::Malformed("Ollama stream ended before `done`".to_owned()));
        };
        Ok(ChatResponse { text: self.text, prompt_tokens, completion_tokens })
    }
}

#[derive(Debug, Deserialize)]
struct WireTags {
    #[serde(default)]
    models: Vec<WireTag>,
}

#[derive(Debug, Deserialize)]
struct WireTag {
    name: String,
}

impl WireTags {
    /// `qwen2.5` and `qwen2.5:latest` name the same model.
    fn has_model(&self, model: &str) -> bool {
        let wanted = with_tag(model);
        self.models.iter().any(|tag| with_tag(&tag.name) == wanted)
    }
}

fn with_tag(name: &str) -> String {
    let last_segment = name.rsplit('/').next().unwrap_or(name);
    if last_segment.contains(':') { name.to_owned() } else { format!("{name}:latest") }
}

#[cfg(test)]
mod tests;
