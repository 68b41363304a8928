//! HTTP plumbing shared by the Ollama and OpenAI clients: the per-attempt
//! deadline, retries with backoff, status and transport error mapping, and
//! line-by-line reading of streamed bodies.
//!
//! It knows nothing of any provider's JSON; each client passes in how to read
//! its error bodies. It never logs request or response bodies, because
//! prompts carry the secret answer.

use std::future::Future;
use std::time::Duration;

use backon::{ExponentialBuilder, Retryable};
use futures::StreamExt;
use reqwest::{RequestBuilder, Response, StatusCode};

use super::settings::HttpSettings;
use crate::core::llm::LlmError;

/// Longest provider error body kept in an `LlmError::Status`.
const MAX_ERROR_BODY: usize = 500;

/// Turns a provider's error body into the message worth showing an operator.
pub(crate) type ErrorBodyReader = fn(&str) -> Option<String>;

/// One failed attempt, with the server's `Retry-After` hint when it sent one.
#[derive(Debug)]
pub(crate) struct AttemptError {
    pub error: LlmError,
    pub retry_after: Option<Duration>,
}

impl From<LlmError> for AttemptError {
    fn from(error: LlmError) -> Self {
        Self { error, retry_after: None }
    }
}

impl AttemptError {
    /// Only transient failures are retried: another try cannot fix a 404 or
    /// a body we could not parse.
    fn is_retryable(&self) -> bool {
        match &self.error {
            LlmError::Unavailable(_) | LlmError::Timeout => true,
            LlmError::Status { status, .. } => *status == 429 || (500..=599).contains(status),
            LlmError::Malformed(_) | LlmError::Config(_) => false,
        }
    }
}

/// A reqwest client with Echoes' deadlines and retry policy.
pub(crate) struct Transport {
    client: reqwest::Client,
    settings: HttpSettings,
    label: String,
    read_error_body: ErrorBodyReader,
}

impl Transport {
    pub fn new(settings: &HttpSettings, label: String, read_error_body: ErrorBodyReader) -> Result<Self, LlmError> {
        let client = reqwest::Client::builder()
            .connect_timeout(settings.connect_timeout)
            .user_agent(concat!("echoes/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| LlmError::Config(format!("cannot build HTTP client: {e}")))?;
        Ok(Self { client, settings: settings.clone(), label, read_error_body })
    }

    pub fn client(&self) -> &reqwest::Client {
        &self.client
    }

    /// Runs `attempt` under the per-attempt deadline, retrying transient
    /// failures with exponential backoff and jitter.
    pub async fn with_retries<T, F, Fut>(&self, attempt: F) -> Result<T, LlmError>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, AttemptError>>,
    {
        let mut attempt = attempt;
        let deadline = self.settings.timeout;
        let cap = self.settings.retry_max_delay;
        (|| with_deadline(deadline, attempt()))
            .retry(self.backoff())
            .when(AttemptError::is_retryable)
            .adjust(|err, delay| retry_delay(delay, err.retry_after, cap))
            .notify(|err, delay| self.log_retry(err, delay))
            .await
            .map_err(|failure| failure.error)
    }

    /// Runs `attempt` once under the deadline: start-up checks should fail
    /// fast rather than wait out a backoff.
    pub async fn once<T, Fut>(&self, attempt: Fut) -> Result<T, LlmError>
    where
        Fut: Future<Output = Result<T, AttemptError>>,
    {
        with_deadline(self.settings.timeout, attempt).await.map_err(|failure| failure.error)
    }

    /// Sends a request and returns the response if its status is a success;
    /// otherwise the status, the provider's message and any `Retry-After`.
    pub async fn send(&self, request: RequestBuilder) -> Result<Response, AttemptError> {
        let response = request.send().await.map_err(transport_error)?;
        if response.status().is_success() {
            return Ok(response);
        }
        Err(self.status_error(response).await)
    }

    async fn status_error(&self, response: Response) -> AttemptError {
        let status = response.status();
        let retry_after = retry_after(&response);
        let text = response.text().await.unwrap_or_default();
        let body = (self.read_error_body)(&text).unwrap_or_else(|| fallback_error_text(&text, status));
        AttemptError { error: LlmError::Status { status: status.as_u16(), body: truncate(body) }, retry_after }
    }

    fn backoff(&self) -> ExponentialBuilder {
        ExponentialBuilder::default()
            .with_min_delay(self.settings.retry_base_delay)
            .with_max_delay(self.settings.retry_max_delay)
            .with_max_times(self.settings.max_retries as usize)
            .with_jitter()
    }

    fn log_retry(&self, err: &AttemptError, delay: Duration) {
        tracing::warn!(
            client = %self.label,
            error = %err.error,
            delay_ms = delay.as_millis() as u64,
            "model request failed; retrying"
        );
    }
}

async fn with_deadline<T>(
    deadline: Duration,
    attempt: impl Future<Output = Result<T, AttemptError>>,
) -> Result<T, AttemptError> {
    match tokio::time::timeout(deadline, attempt).await {
        Ok(result) => result,
        Err(_elapsed) => Err(LlmError::Timeout.into()),
    }
}

/// The delay before the next try: the server's `Retry-After` when given,
/// else the backoff's; both capped. `None` from the backoff means the retry
/// budget is spent, whatever the server asked for.
pub(crate) fn retry_delay(backoff: Option<Duration>, retry_after: Option<Duration>, cap: Duration) -> Option<Duration> {
    let delay = backoff?;
    Some(retry_after.unwrap_or(delay).min(cap))
}

/// Reads `Retry-After` as whole seconds. HTTP-date values are rare from model
/// providers, so they fall back to the normal backoff.
fn retry_after(response: &Response) -> Option<Duration> {
    if response.status() != StatusCode::TOO_MANY_REQUESTS {
        return None;
    }
    let value = response.headers().get(reqwest::header::RETRY_AFTER)?;
    let seconds = value.to_str().ok()?.trim().parse::<u64>().ok()?;
    Some(Duration::from_secs(seconds))
}

fn fallback_error_text(text: &str, status: StatusCode) -> String {
    match text.trim() {
        "" => status.canonical_reason().unwrap_or("no message").to_owned(),
        trimmed => trimmed.to_owned(),
    }
}

fn truncate(mut text: String) -> String {
    if text.len() > MAX_ERROR_BODY {
        let mut end = MAX_ERROR_BODY;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push('…');
    }
    text
}

/// Maps a reqwest failure onto the port's errors: connection problems are
/// `Unavailable` (the port requires it), deadlines are `Timeout`.
pub(crate) fn transport_error(err: reqwest::Error) -> AttemptError {
    let error = if err.is_builder() {
        LlmError::Config(format!("invalid model request: {err}"))
    } else if err.is_timeout() && !err.is_connect() {
        LlmError::Timeout
    } else {
        LlmError::Unavailable(error_chain(&err))
    };
    error.into()
}

/// reqwest's own message names the URL; the innermost cause says why
/// (e.g. "Connection refused").
fn error_chain(err: &reqwest::Error) -> String {
    let mut root: &dyn std::error::Error = err;
    while let Some(source) = root.source() {
        root = source;
    }
    let outer = err.to_string();
    let inner = root.to_string();
    if inner == outer { outer } else { format!("{outer}: {inner}") }
}

/// Reads a successful response body whole.
pub(crate) async fn read_body(response: Response) -> Result<Vec<u8>, AttemptError> {
    let bytes = response.bytes().await.map_err(transport_error)?;
    Ok(bytes.to_vec())
}

/// Feeds a streamed body to `on_line` one line at a time (without the line
/// ending), as NDJSON and SSE both need.
pub(crate) async fn for_each_line(
    response: Response,
    mut on_line: impl FnMut(&str) -> Result<(), LlmError>,
) -> Result<(), AttemptError> {
    let mut body = response.bytes_stream();
    let mut pending: Vec<u8> = Vec::new();
    while let Some(chunk) = body.next().await {
        pending.extend_from_slice(&chunk.map_err(transport_error)?);
        while let Some(end) = pending.iter().position(|byte| *byte == b'\n') {
            let line: Vec<u8> = pending.drain(..=end).collect();
            on_line(decode_line(&line)?)?;
        }
    }
    if !pending.is_empty() {
        on_line(decode_line(&pending)?)?;
    }
    Ok(())
}

fn decode_line(line: &[u8]) -> Result<&str, LlmError> {
    let text = std::str::from_utf8(line).map_err(|_| LlmError::Malformed("stream line is not UTF-8".to_owned()))?;
    Ok(text.trim_end_matches(['\n', '\r']))
}

/// Parses a JSON document from a provider, naming what was expected when it
/// does not fit.
pub(crate) fn parse_json<T: serde::de::DeserializeOwned>(bytes: &[u8], what: &str) -> Result<T, LlmError> {
    serde_json::from_slice(bytes).map_err(|e| LlmError::Malformed(format!("{what}: {e}")))
}

/// Joins a base URL (already without a trailing slash) and a path.
pub(crate) fn endpoint(base_url: &str, path: &str) -> String {
    format!("{base_url}/{}", path.trim_start_matches('/'))
}

#[cfg(test)]
mod tests;
