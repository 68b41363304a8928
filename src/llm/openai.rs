//! The OpenAI-compatible adapter: `POST {base}/chat/completions` (SSE
//! streaming or one JSON object) and `GET {base}/models` for the start-up
//! check. Works with OpenAI itself and with local servers (vLLM, llama.cpp,
//! LM Studio) whose base URL ends in `/v1`.
//!
//! Owns the wire format and the bearer key only; deadlines and retries come
//! from `super::http`. Neither prompts nor the key are ever logged.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use super::http::{self, AttemptError, Transport};
use super::settings::{ApiKey, ResolvedProvider};
use crate::core::llm::{ChatMessage, ChatRequest, ChatResponse, LlmClient, LlmError};

/// The one host known to need a key; local servers usually need none.
const OPENAI_HOST: &str = "api.openai.com";

/// A chat model behind an OpenAI-compatible API.
pub struct OpenAiClient {
    transport: Transport,
    base_url: String,
    model: String,
    api_key: Option<ApiKey>,
    stream: bool,
}

impl OpenAiClient {
    /// Fails with `LlmError::Config` when the real OpenAI API is configured
    /// without a key, so the mistake shows at start-up.
    pub fn new(resolved: &ResolvedProvider) -> Result<Self, LlmError> {
        if resolved.api_key.is_none() && is_openai_host(&resolved.base_url) {
            return Err(missing_key_error(resolved));
        }
        let label = format!("openai:{}", resolved.model);
        Ok(Self {
            transport: Transport::new(&resolved.http, label, read_error_body)?,
            base_url: resolved.base_url.clone(),
            model: resolved.model.clone(),
            api_key: resolved.api_key.clone(),
            stream: resolved.stream,
        })
    }

    fn authorised(&self, request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match &self.api_key {
            Some(key) => request.bearer_auth(key.expose()),
            None => request,
        }
    }

    async fn attempt(&self, body: &WireRequest<'_>) -> Result<ChatResponse, AttemptError> {
        let url = http::endpoint(&self.base_url, "chat/completions");
        let request = self.authorised(self.transport.client().post(url).json(body));
        let response = self.transport.send(request).await?;
        if self.stream {
            let mut reply = StreamedReply::default();
            http::for_each_line(response, |line| reply.feed(line)).await?;
            return Ok(reply.finish()?);
        }
        let completion: WireCompletion = http::parse_json(&http::read_body(response).await?, "OpenAI chat completion")?;
        Ok(completion.into_response()?)
    }

    async fn list_models(&self) -> Result<(), AttemptError> {
        let url = http::endpoint(&self.base_url, "models");
        let response = self.transport.send(self.authorised(self.transport.client().get(url))).await?;
        http::read_body(response).await.map(drop)
    }
}

#[async_trait]
impl LlmClient for OpenAiClient {
    fn describe(&self) -> String {
        format!("openai:{}", self.model)
    }

    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError> {
        let body = WireRequest::new(&self.model, &request, self.stream);
        tracing::debug!(client = %self.describe(), messages = request.messages.len(), "sending chat request");
        self.transport.with_retries(|| self.attempt(&body)).await
    }

    async fn health(&self) -> Result<(), LlmError> {
        self.transport.once(self.list_models()).await
    }
}

fn is_openai_host(base_url: &str) -> bool {
    reqwest::Url::parse(base_url).is_ok_and(|url| url.host_str() == Some(OPENAI_HOST))
}

fn missing_key_error(resolved: &ResolvedProvider) -> LlmError {
    let var = match resolved.api_key_env.trim() {
        "" => "OPENAI_API_KEY",
        var => var,
    };
    LlmError::Config(format!(
        "the openai provider at {} needs an API key: set the environment variable {var} \
         (llm.api_key_env names it), or point llm.base_url at a local OpenAI-compatible server",
        resolved.base_url
    ))
}

/// OpenAI sends `{"error": {"message", "type"}}`; some compatible servers
/// send `{"error": "..."}` or `{"detail": "..."}`.
fn read_error_body(body: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(body).ok()?;
    describe_error_value(value.get("error").or_else(|| value.get("detail"))?)
}

fn describe_error_value(error: &serde_json::Value) -> Option<String> {
    if let Some(text) = error.as_str() {
        return Some(text.to_owned());
    }
    let message = error.get("message")?.as_str()?;
    match error.get("type").and_then(|kind| kind.as_str()) {
        Some(kind) => Some(format!("{message} ({kind})")),
        None => Some(message.to_owned()),
    }
}

#[derive(Debug, Serialize)]
struct WireRequest<'a> {
    model: &'a str,
    messages: &'a [ChatMessage],
    max_tokens: u32,
    temperature: f32,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    stream: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    stream_options: Option<StreamOptions>,
    #[serde(skip_serializing_if = "Option::is_none")]
    response_format: Option<ResponseFormat<'a>>,
}

/// Asks for a final chunk with token usage, which streams omit otherwise.
#[derive(Debug, Serialize)]
struct StreamOptions {
    include_usage: bool,
}

#[derive(Debug, Serialize)]
struct ResponseFormat<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    json_schema: JsonSchemaFormat<'a>,
}

#[derive(Debug, Serialize)]
struct JsonSchemaFormat<'a> {
    name: String,
    schema: &'a serde_json::Value,
    strict: bool,
}

impl<'a> WireRequest<'a> {
    fn new(model: &'a str, request: &'a ChatRequest, stream: bool) -> Self {
        Self {
            model,
            messages: &request.messages,
            max_tokens: request.max_tokens,
            temperature: request.temperature,
            seed: request.seed,
            stream,
            stream_options: stream.then_some(StreamOptions { include_usage: true }),
            response_format: request.json_schema.as_ref().map(ResponseFormat::json_schema),
        }
    }
}

impl<'a> ResponseFormat<'a> {
    fn json_schema(schema: &'a serde_json::Value) -> Self {
        let json_schema = JsonSchemaFormat { name: schema_name(schema), schema, strict: true };
        Self { kind: "json_schema", json_schema }
    }
}

/// OpenAI requires a name of `[A-Za-z0-9_-]{1,64}`; the schema's `title`
/// is used when it fits.
fn schema_name(schema: &serde_json::Value) -> String {
    let title = schema.get("title").and_then(|title| title.as_str()).unwrap_or_default();
    let fits =
        (1..=64).contains(&title.len()) && title.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if fits { title.to_owned() } else { "reply".to_owned() }
}

#[derive(Debug, Default, Deserialize)]
struct WireUsage {
    #[serde(default)]
    prompt_tokens: u32,
    #[serde(default)]
    completion_tokens: u32,
}

#[derive(Debug, Deserialize)]
struct WireCompletion {
    #[serde(default)]
    choices: Vec<WireChoice>,
    usage: Option<WireUsage>,
}

#[derive(Debug, Deserialize)]
struct WireChoice {
    message: WireMessage,
}

#[derive(Debug, Deserialize)]
struct WireMessage {
    content: Option<String>,
    refusal: Option<String>,
}

impl WireCompletion {
    fn into_response(self) -> Result<ChatResponse, LlmError> {
        let Some(choice) = self.choices.into_iter().next() else {
            return Err(LlmError::Malformed("OpenAI completion has no choices".to_owned()));
        };
        let text = choice.message.content.ok_or_else(|| match choice.message.refusal {
            Some(refusal) => LlmError::Malformed(format!("the model refused: {refusal}")),
            None => LlmError::Malformed("OpenAI completion has no content".to_owned()),
        })?;
        let usage = self.usage.unwrap_or_default();
        Ok(ChatResponse { text, prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens })
    }
}

/// One `data:` payload of a streamed completion.
#[derive(Debug, Deserialize)]
struct WireChunk {
    #[serde(default)]
    choices: Vec<WireDeltaChoice>,
    usage: Option<WireUsage>,
    /// Some servers report failures after the headers in the stream.
    error: Option<serde_json::Value>,
}

#[derive(Debug, Deserialize)]
struct WireDeltaChoice {
    #[serde(default)]
    delta: WireDelta,
    finish_reason: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct WireDelta {
    content: Option<String>,
}

/// Accumulates SSE `data:` lines until `[DONE]`.
#[derive(Debug, Default)]
struct StreamedReply {
    text: String,
    usage: WireUsage,
    finished: bool,
    done: bool,
}

impl StreamedReply {
    /// Ignores blank lines, SSE comments and non-data fields, as SSE allows.
    fn feed(&mut self, line: &str) -> Result<(), LlmError> {
        let Some(data) = line.strip_prefix("data:") else {
            return Ok(());
        };
        match data.trim() {
            "[DONE]" => self.done = true,
            _ if self.done => {}
            payload => self.absorb(http::parse_json(payload.as_bytes(), "OpenAI stream chunk")?)?,
        }
        Ok(())
    }

    fn absorb(&mut self, chunk: WireChunk) -> Result<(), LlmError> {
        if let Some(error) = chunk.error {
            let message = describe_error_value(&error).unwrap_or_else(|| error.to_string());
            return Err(LlmError::Malformed(format!("provider reported an error mid-stream: {message}")));
        }
        for choice in chunk.choices {
            self.text.push_str(choice.delta.content.as_deref().unwrap_or_default());
            self.finished |= choice.finish_reason.is_some();
        }
        if let Some(usage) = chunk.usage {
            self.usage = usage;
        }
        Ok(())
    }

    /// Some compatible servers omit `[DONE]`, so a `finish_reason` also
    /// counts as a complete reply; neither means the stream was cut.
    fn finish(self) -> Result<ChatResponse, LlmError> {
        if !(self.done || self.finished) {
            return Err(LlmError::Malformed("OpenAI stream ended before [DONE]".to_owned()));
        }
        Ok(ChatResponse {
            text: self.text,
            prompt_tokens: self.usage.prompt_tokens,
            completion_tokens: self.usage.completion_tokens,
        })
    }
}

#[cfg(test)]
mod tests;
