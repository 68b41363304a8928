use super::*;

#[derive(Debug, Deserialize)]
struct ConfigFile {
    #[serde(default)]
    llm: LlmSettings,
}

fn parse(toml_text: &str) -> Result<LlmSettings, toml::de::Error> {
    toml::from_str::<ConfigFile>(toml_text).map(|file| file.llm)
}

fn no_env(_: &str) -> Option<String> {
    None
}

fn resolve(settings: &LlmSettings, role: ModelRole) -> ResolvedProvider {
    settings.resolve_with_env(role, no_env).expect("resolves")
}

#[test]
fn empty_table_and_missing_table_give_defaults() {
    assert_eq!(parse("[llm]\n").expect("parses"), LlmSettings::default());
    assert_eq!(parse("").expect("parses"), LlmSettings::default());
    let defaults = LlmSettings::default();
    assert_eq!(defaults.provider, ProviderKind::Auto);
    assert_eq!(defaults.model, "qwen2.5:3b");
    assert_eq!((defaults.timeout_secs, defaults.max_retries, defaults.stream), (60, 3, true));
}

#[test]
fn full_section_with_role_overrides_parses() {
    let settings = parse(
        r#"
        [llm]
        provider = "openai"
        model = "gpt-4o-mini"
        base_url = "http://localhost:8000/v1"
        api_key_env = "VLLM_KEY"
        timeout_secs = 30
        connect_timeout_secs = 2
        max_retries = 1
        stream = false
        scripted_replies = ["yes", "no"]
        [llm.judge]
        model = "big-model"
        [llm.narrator]
        provider = "parrot"
        "#,
    )
    .expect("parses");

    assert_eq!(settings.provider, ProviderKind::OpenAi);
    assert_eq!(settings.api_key_env, "VLLM_KEY");
    assert_eq!(settings.scripted_replies, ["yes", "no"]);
    assert_eq!(settings.judge.model.as_deref(), Some("big-model"));
    assert_eq!(settings.narrator.provider, Some(ProviderKind::Parrot));
}

#[test]
fn unknown_keys_and_providers_are_rejected() {
    let typo = parse("[llm]\nmodle = \"x\"\n").expect_err("typo");
    assert!(typo.to_string().contains("modle"), "{typo}");
    assert!(parse("[llm]\napi_key = \"sk-secret\"\n").is_err());
    assert!(parse("[llm]\nprovider = \"claude\"\n").is_err());
    assert!(parse("[llm.judge]\ntemperature = 1\n").is_err());
}

#[test]
fn empty_base_url_means_the_provider_default() {
    let ollama = resolve(&ollama_defaults(), ModelRole::Judge);
    let openai = LlmSettings { provider: ProviderKind::OpenAi, ..ollama_defaults() };

    assert_eq!(ollama.base_url, "http://127.0.0.1:11434");
    assert_eq!(resolve(&openai, ModelRole::Judge).base_url, "https://api.openai.com/v1");
}

#[test]
fn base_url_loses_its_trailing_slash_and_must_be_http() {
    let trailing = LlmSettings { base_url: "http://gpu-box:11434/".into(), ..ollama_defaults() };
    let no_scheme = LlmSettings { base_url: "gpu-box:11434".into(), ..ollama_defaults() };

    assert_eq!(resolve(&trailing, ModelRole::Narrator).base_url, "http://gpu-box:11434");
    let error = no_scheme.resolve_with_env(ModelRole::Judge, no_env).expect_err("not http");
    assert!(matches!(error, LlmError::Config(ref m) if m.contains("gpu-box")), "{error:?}");
}

#[test]
fn role_overrides_replace_only_the_fields_they_set() {
    let mut settings = ollama_defaults();
    settings.judge.model = Some("qwen2.5:14b".into());

    let judge = resolve(&settings, ModelRole::Judge);
    let narrator = resolve(&settings, ModelRole::Narrator);

    assert_eq!((judge.model.as_str(), narrator.model.as_str()), ("qwen2.5:14b", "qwen2.5:3b"));
    assert_eq!(judge.base_url, narrator.base_url);
    assert_eq!(judge.http, narrator.http);
}

#[test]
fn switching_provider_drops_the_inherited_base_url() {
    let mut settings = LlmSettings { base_url: "http://gpu-box:11434".into(), ..ollama_defaults() };
    settings.judge.provider = Some(ProviderKind::OpenAi);
    settings.narrator.provider = Some(ProviderKind::OpenAi);
    settings.narrator.base_url = Some("http://vllm:8000/v1".into());

    assert_eq!(resolve(&settings, ModelRole::Judge).base_url, "https://api.openai.com/v1");
    assert_eq!(resolve(&settings, ModelRole::Narrator).base_url, "http://vllm:8000/v1");
}

#[test]
fn api_key_comes_from_the_named_variable_only() {
    let mut settings = LlmSettings { provider: ProviderKind::OpenAi, ..ollama_defaults() };
    settings.narrator.api_key_env = Some("NARRATOR_KEY".into());
    let env = |name: &str| match name {
        "OPENAI_API_KEY" => Some(" sk-judge \n".to_owned()),
        "NARRATOR_KEY" => Some(String::new()),
        _ => None,
    };

    let judge = settings.resolve_with_env(ModelRole::Judge, env).expect("resolves");
    let narrator = settings.resolve_with_env(ModelRole::Narrator, env).expect("resolves");

    assert_eq!(judge.api_key.as_ref().map(ApiKey::expose), Some("sk-judge"));
    assert_eq!(narrator.api_key, None, "an empty variable counts as unset");
    assert_eq!(narrator.api_key_env, "NARRATOR_KEY");
}

#[test]
fn debug_output_never_shows_the_key() {
    let settings = LlmSettings { provider: ProviderKind::OpenAi, ..ollama_defaults() };
    let resolved = settings.resolve_with_env(ModelRole::Judge, |_| Some("sk-very-secret".into())).expect("resolves");

    let shown = format!("{resolved:?}");

    assert!(!shown.contains("sk-very-secret") && shown.contains("redacted"), "{shown}");
}

#[test]
fn invalid_values_are_config_errors() {
    let zero_timeout = LlmSettings { timeout_secs: 0, ..ollama_defaults() };
    let empty_model = LlmSettings { model: " ".into(), ..ollama_defaults() };
    let parrot_without_model =
        LlmSettings { provider: ProviderKind::Parrot, model: String::new(), ..ollama_defaults() };

    assert!(matches!(zero_timeout.resolve_with_env(ModelRole::Judge, no_env), Err(LlmError::Config(_))));
    assert!(matches!(empty_model.resolve_with_env(ModelRole::Judge, no_env), Err(LlmError::Config(_))));
    assert_eq!(resolve(&parrot_without_model, ModelRole::Judge).base_url, "");
}

#[test]
fn durations_come_from_seconds_and_milliseconds() {
    let settings = LlmSettings { timeout_secs: 30, retry_base_delay_ms: 250, ..ollama_defaults() };

    let http = resolve(&settings, ModelRole::Judge).http;

    assert_eq!(http.timeout, Duration::from_secs(30));
    assert_eq!(http.connect_timeout, Duration::from_secs(5));
    assert_eq!(http.retry_base_delay, Duration::from_millis(250));
    assert_eq!(http.retry_max_delay, Duration::from_millis(10_000));
}

/// The old built-in default, which these tests were written against: `auto`
/// needs a probe before clients can be built (see `auto::tests`).
fn ollama_defaults() -> LlmSettings {
    LlmSettings { provider: ProviderKind::Ollama, ..LlmSettings::default() }
}

#[test]
fn the_context_window_is_a_role_setting_with_a_default_per_provider() {
    let settings = parse("[llm]\nprovider = \"ollama\"\n[llm.judge]\ncontext_window = 32768\n").expect("parses");
    assert_eq!(resolve(&settings, ModelRole::Judge).context_window, Some(32_768));
    assert_eq!(resolve(&settings, ModelRole::Narrator).context_window, Some(4_096), "Ollama's default");
    let settings = parse("[llm]\nprovider = \"local\"\ncontext_window = 2048\n").expect("parses");
    assert_eq!(resolve(&settings, ModelRole::Narrator).context_window, Some(2_048));
    let settings = parse("[llm]\nprovider = \"local\"\n").expect("parses");
    assert_eq!(resolve(&settings, ModelRole::Narrator).context_window, None, "the model knows its own");
}
