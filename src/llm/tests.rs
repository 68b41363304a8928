use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::*;
use crate::core::llm::{ChatMessage, ChatRequest};
use crate::llm::test_support::refused_url;

fn no_env(_: &str) -> Option<String> {
    None
}

fn build(settings: &LlmSettings) -> Result<RoleModels, LlmError> {
    build_roles_with_env(settings, no_env)
}

fn labels(roles: &RoleModels) -> (String, String) {
    (roles.judge.describe(), roles.narrator.describe())
}

#[test]
fn identical_roles_share_one_client() {
    let roles = build(&ollama_defaults()).expect("defaults build");

    assert!(Arc::ptr_eq(&roles.judge, &roles.narrator));
    assert_eq!(labels(&roles), ("ollama:qwen2.5:3b".into(), "ollama:qwen2.5:3b".into()));
}

#[test]
fn a_model_override_gives_the_role_its_own_client() {
    let mut settings = ollama_defaults();
    settings.judge.model = Some("qwen2.5:14b".into());

    let roles = build(&settings).expect("builds");

    assert!(!Arc::ptr_eq(&roles.judge, &roles.narrator));
    assert_eq!(labels(&roles), ("ollama:qwen2.5:14b".into(), "ollama:qwen2.5:3b".into()));
}

#[test]
fn a_provider_override_switches_only_that_role() {
    let mut settings = ollama_defaults();
    settings.narrator.provider = Some(ProviderKind::Parrot);

    let roles = build(&settings).expect("builds");

    assert_eq!(labels(&roles), ("ollama:qwen2.5:3b".into(), "parrot".into()));
}

#[test]
fn openai_roles_read_their_own_key_variables() {
    let mut settings = LlmSettings { provider: ProviderKind::OpenAi, model: "gpt-4o-mini".into(), ..ollama_defaults() };
    settings.narrator.api_key_env = Some("NARRATOR_KEY".into());
    let only_judge_key = |name: &str| (name == "OPENAI_API_KEY").then(|| "sk-judge".to_owned());

    let error = build_roles_with_env(&settings, only_judge_key).err().expect("narrator key missing");

    assert!(
        matches!(error, LlmError::Config(ref m) if m.starts_with("narrator model:") && m.contains("NARRATOR_KEY")),
        "{error:?}"
    );
    assert!(build_roles_with_env(&settings, |_| Some("sk-any".into())).is_ok());
}

#[test]
fn a_local_openai_compatible_endpoint_needs_no_key() {
    let settings = LlmSettings {
        provider: ProviderKind::OpenAi,
        base_url: "http://127.0.0.1:8000/v1".into(),
        ..ollama_defaults()
    };

    let roles = build(&settings).expect("no key needed locally");

    assert_eq!(roles.judge.describe(), "openai:qwen2.5:3b");
}

#[tokio::test]
async fn configured_script_cycles_and_is_shared_by_identical_roles() {
    let settings = LlmSettings {
        provider: ProviderKind::Scripted,
        scripted_replies: vec!["yes".into(), "no".into()],
        ..ollama_defaults()
    };
    let roles = build(&settings).expect("builds");
    let ask = || ChatRequest::new(vec![ChatMessage::user("?")]);

    let mut replies = Vec::new();
    for client in [&roles.judge, &roles.narrator, &roles.judge] {
        replies.push(client.chat(ask()).await.expect("cycles").text);
    }

    assert_eq!(replies, ["yes", "no", "yes"]);
}

#[test]
fn scripted_provider_without_replies_is_a_config_error() {
    let settings = LlmSettings { provider: ProviderKind::Scripted, ..ollama_defaults() };

    let error = build(&settings).err().expect("no replies");

    assert!(matches!(error, LlmError::Config(ref m) if m.contains("scripted_replies")), "{error:?}");
}

#[tokio::test]
async fn reachable_when_every_role_answers() {
    let roles = RoleModels { judge: Arc::new(ParrotLlm), narrator: Arc::new(ScriptedLlm::from_texts(["ok"])) };

    assert_eq!(check_reachable(&roles).await, Ok(()));
}

#[tokio::test]
async fn dead_ollama_gives_one_message_saying_how_to_fix_it() {
    let settings = LlmSettings { base_url: refused_url(), ..ollama_defaults() };
    let roles = build(&settings).expect("builds");

    let message = check_reachable(&roles).await.expect_err("nothing listens");

    for part in [
        "No model provider answered for the judge (ollama:qwen2.5:3b)",
        &settings.base_url,
        "ollama serve",
        "ollama pull qwen2.5:3b",
        "ECHOES__LLM__PROVIDER=openai ECHOES__LLM__BASE_URL=",
        "OPENAI_API_KEY",
    ] {
        assert!(message.contains(part), "missing {part:?} in {message}");
    }
}

#[tokio::test]
async fn dead_openai_endpoint_points_at_base_url_and_key() {
    let mut settings = ollama_defaults();
    settings.narrator.provider = Some(ProviderKind::OpenAi);
    settings.narrator.base_url = Some(format!("{}/v1", refused_url()));
    settings.judge.provider = Some(ProviderKind::Parrot);
    let roles = build(&settings).expect("builds");

    let message = check_reachable(&roles).await.expect_err("narrator unreachable");

    assert!(message.starts_with("No model provider answered for the narrator (openai:qwen2.5:3b)"), "{message}");
    assert!(message.contains("llm.base_url") && message.contains("ECHOES__LLM__BASE_URL"), "{message}");
    assert!(!message.contains("ollama pull"), "{message}");
}

#[tokio::test]
async fn missing_ollama_model_is_reported_as_not_usable() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/api/tags"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "models": [] })))
        .mount(&server)
        .await;
    let settings = LlmSettings { base_url: server.uri(), ..ollama_defaults() };
    let roles = build(&settings).expect("builds");

    let message = check_reachable(&roles).await.expect_err("model missing");

    assert!(message.starts_with("The model provider for the judge (ollama:qwen2.5:3b) is not usable"), "{message}");
    assert!(message.contains("ollama pull qwen2.5:3b"), "{message}");
}

/// The old built-in default, which these tests were written against: `auto`
/// needs a probe before clients can be built (see `auto::tests`).
fn ollama_defaults() -> LlmSettings {
    LlmSettings { provider: ProviderKind::Ollama, ..LlmSettings::default() }
}
