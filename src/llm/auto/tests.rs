use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::*;
use crate::llm::test_support::refused_url;

async fn ollama_with(models: &[&str]) -> MockServer {
    let server = MockServer::start().await;
    let listed: Vec<_> = models.iter().map(|m| json!({"name": m})).collect();
    Mock::given(method("GET"))
        .and(path("/api/tags"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"models": listed})))
        .mount(&server)
        .await;
    server
}

fn auto_at(url: &str) -> LlmSettings {
    LlmSettings { provider: ProviderKind::Auto, base_url: url.to_owned(), ..LlmSettings::default() }
}

#[tokio::test]
async fn ollama_is_chosen_when_it_answers_with_the_model() {
    let server = ollama_with(&["qwen2.5:3b"]).await;
    let choice = choose(&auto_at(&server.uri())).await;
    assert_eq!(choice.settings.provider, ProviderKind::Ollama);
    assert_eq!(choice.local_because, None);
}

#[tokio::test]
async fn the_local_model_is_chosen_when_nothing_answers() {
    let url = refused_url();
    let choice = choose(&auto_at(&url)).await;
    assert_eq!(choice.settings.provider, ProviderKind::Local);
    let why = choice.local_because.expect("a reason");
    assert!(why.contains("no Ollama answered") && why.contains(&url), "{why}");
}

#[tokio::test]
async fn an_ollama_without_the_model_is_passed_over_with_a_reason() {
    let server = ollama_with(&["llama3.2:1b"]).await;
    let choice = choose(&auto_at(&server.uri())).await;
    assert_eq!(choice.settings.provider, ProviderKind::Local);
    assert!(choice.local_because.unwrap().contains("qwen2.5:3b"));
}

#[tokio::test]
async fn explicit_providers_are_left_alone_and_role_overrides_are_settled() {
    let explicit = LlmSettings { provider: ProviderKind::Parrot, ..LlmSettings::default() };
    assert_eq!(choose(&explicit).await.settings, explicit);

    let mut mixed = LlmSettings { provider: ProviderKind::Parrot, base_url: refused_url(), ..LlmSettings::default() };
    mixed.judge.provider = Some(ProviderKind::Auto);
    let chosen = choose(&mixed).await.settings;
    assert_eq!((chosen.provider, chosen.judge.provider), (ProviderKind::Parrot, Some(ProviderKind::Local)));
}

#[test]
fn auto_is_refused_by_the_client_builder() {
    let resolved = LlmSettings::default().resolve_with_env(ModelRole::Judge, |_| None).unwrap();
    let error = crate::llm::build_client(&resolved).err().expect("auto must be settled first");
    assert!(matches!(error, LlmError::Config(_)));
}
