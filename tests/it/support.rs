//! Test support: a fake Ollama server that answers like the real one
//! (streaming NDJSON or one JSON object), with Judge verdicts chosen by
//! rules on the player's text, and a runner for the real `echoes` binary in
//! its own temporary directory.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use echoes::core::llm::{ChatRequest, ChatResponse, LlmClient, LlmError};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// What the fake Judge says: the first rule whose key the player's text
/// contains wins; otherwise IRRELEVANT.
#[derive(Clone)]
pub struct Brain {
    rules: Vec<(String, String)>,
    /// Replies to other prompts: the first whose key the prompt contains.
    others: Vec<(String, String)>,
    narrator: String,
    seen: Arc<Mutex<Vec<Value>>>,
}

pub fn question(verdict: &str) -> String {
    json!({"kind": "question", "verdict": verdict, "facts": []}).to_string()
}

pub fn guess(facts: &[&str]) -> String {
    json!({"kind": "guess", "verdict": "IRRELEVANT", "facts": facts}).to_string()
}

impl Brain {
    pub fn new(rules: &[(&str, String)]) -> Self {
        Brain {
            rules: rules.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
            others: Vec::new(),
            narrator: "Interesting, keep digging.".into(),
            seen: Arc::default(),
        }
    }

    /// Replies for prompts that are not the Judge's, by a key the prompt contains.
    pub fn with_others(mut self, rules: &[(&str, &str)]) -> Self {
        self.others = rules.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        self
    }

    fn reply_for(&self, body: &Value) -> String {
        let system = body["messages"][0]["content"].as_str().unwrap_or_default();
        let user = body["messages"][1]["content"].as_str().unwrap_or_default();
        if !system.contains("You are the JUDGE") {
            let prompt = format!("{system}{user}");
            let rule = self.others.iter().find(|(key, _)| prompt.contains(key.as_str()));
            return rule.map_or_else(|| self.narrator.clone(), |(_, reply)| reply.clone());
        }
        let said = user.split("<<<").nth(1).and_then(|s| s.split(">>>").next()).unwrap_or(user);
        self.rules
            .iter()
            .find(|(key, _)| said.contains(key.as_str()))
            .map(|(_, reply)| reply.clone())
            .unwrap_or_else(|| question("IRRELEVANT"))
    }
}

impl Respond for Brain {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        self.seen.lock().unwrap().push(body.clone());
        let text = self.reply_for(&body);
        if body["stream"].as_bool().unwrap_or(false) {
            ResponseTemplate::new(200).set_body_raw(ndjson(&text), "application/x-ndjson")
        } else {
            ResponseTemplate::new(200).set_body_json(json!({
                "model": "fake", "message": {"role": "assistant", "content": text},
                "done": true, "prompt_eval_count": 120, "eval_count": 12
            }))
        }
    }
}

/// Ollama's streaming shape: content in pieces, then a `done` line with counts.
fn ndjson(text: &str) -> String {
    let mid = text.char_indices().nth(text.chars().count() / 2).map_or(0, |(i, _)| i);
    let (a, b) = text.split_at(mid);
    let chunk = |c: &str| json!({"model": "fake", "message": {"role": "assistant", "content": c}, "done": false});
    let done = json!({"model": "fake", "message": {"role": "assistant", "content": ""}, "done": true,
        "prompt_eval_count": 120, "eval_count": 12});
    format!("{}\n{}\n{}\n", chunk(a), chunk(b), done)
}

pub struct FakeOllama {
    pub server: MockServer,
    pub brain: Brain,
}

impl FakeOllama {
    pub async fn start(brain: Brain) -> Self {
        let server = MockServer::start().await;
        Mock::given(method("GET"))
            .and(path("/api/tags"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({"models": [{"name": "fake"}]})))
            .mount(&server)
            .await;
        Mock::given(method("POST")).and(path("/api/chat")).respond_with(brain.clone()).mount(&server).await;
        FakeOllama { server, brain }
    }

    /// Request bodies received so far.
    pub fn requests(&self) -> Vec<Value> {
        self.brain.seen.lock().unwrap().clone()
    }
}

/// A scratch directory with its own database, where `echoes` runs.
pub struct Sandbox {
    pub dir: tempfile::TempDir,
}

impl Sandbox {
    pub fn new() -> Self {
        Sandbox { dir: tempfile::tempdir().expect("tempdir") }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, text).unwrap();
        path
    }

    /// A command for the real binary, isolated from the caller's config.
    pub fn echoes(&self, llm_url: Option<&str>) -> tokio::process::Command {
        let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_echoes"));
        cmd.current_dir(self.path());
        for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("ECHOES")) {
            cmd.env_remove(key);
        }
        cmd.env("ECHOES__STORAGE__DATABASE", self.path().join("echoes.db"));
        cmd.env("ECHOES__LLM__PROVIDER", "ollama");
        cmd.env("ECHOES__LLM__MODEL", "fake");
        cmd.env("ECHOES__LLM__BASE_URL", llm_url.unwrap_or("http://127.0.0.1:9"));
        cmd.env("ECHOES__LLM__MAX_RETRIES", "1");
        cmd.env("ECHOES__LLM__RETRY_BASE_DELAY_MS", "10");
        cmd.env("RUST_BACKTRACE", "0");
        // The word-hashing embedder keeps each fresh sandbox's first index
        // build instant; the sentence model has its own tests.
        cmd.env("ECHOES__KNOWLEDGE__EMBEDDER", "hashing");
        // These tests drive the Judge model (a fake one); the puzzles'
        // known answers are on by default and tested in `newcomer.rs`.
        cmd.env("ECHOES__GAME__KNOWN_ANSWERS", "false");
        cmd.kill_on_drop(true);
        cmd
    }

    pub async fn run(&self, llm_url: Option<&str>, args: &[&str]) -> Run {
        let output = self.echoes(llm_url).args(args).output().await.expect("run echoes");
        Run::from(output)
    }
}

pub struct Run {
    pub ok: bool,
    pub stdout: String,
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(o: Output) -> Self {
        Run {
            ok: o.status.success(),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }
}

/// The answer-leak detector shared with `echoes bench secrecy`.
pub use echoes::bench::secrecy::leaked;

/// A parrot model (it answers with its whole prompt), keeping every prompt
/// it was sent: the secrecy tests read them.
#[derive(Default)]
pub struct Recorder(pub Mutex<Vec<String>>);

#[async_trait]
impl LlmClient for Recorder {
    fn describe(&self) -> String {
        "recording parrot".into()
    }

    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError> {
        let prompt: String = request.messages.iter().map(|m| format!("{}\n", m.content)).collect();
        self.0.lock().unwrap().push(prompt.clone());
        Ok(ChatResponse { text: prompt, prompt_tokens: 1, completion_tokens: 1 })
    }

    async fn health(&self) -> Result<(), LlmError> {
        Ok(())
    }
}
