//! Bad input from every side gets one clear message and loses nothing:
//! unknown puzzles, malformed puzzle files, a missing or failing model.

use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::support::{Brain, FakeOllama, Sandbox, question};

#[tokio::test]
async fn an_unknown_puzzle_id_suggests_near_ones() {
    let ollama = FakeOllama::start(Brain::new(&[])).await;
    let run = Sandbox::new().run(Some(&ollama.server.uri()), &["play", "midnight-rooster"]).await;
    assert!(!run.ok);
    assert!(run.stderr.contains("There is no puzzle \"midnight-rooster\""), "{}", run.stderr);
    assert!(run.stderr.contains("en-midnight-rooster"), "{}", run.stderr);
}

#[tokio::test]
async fn an_unreachable_provider_gets_one_clear_line() {
    let run = Sandbox::new().run(Some("http://127.0.0.1:9"), &["play"]).await;
    assert!(!run.ok);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", run.stderr);
    assert!(lines[0].contains("ollama serve") && lines[0].contains("ECHOES__LLM__PROVIDER=openai"), "{}", lines[0]);
}

#[tokio::test]
async fn puzzles_check_names_file_field_and_reason() {
    let sandbox = Sandbox::new();
    let good = include_str!("../../data/puzzles/en/en-midnight-rooster.toml");
    sandbox.write("data/puzzles/en/en-midnight-rooster.toml", good);
    sandbox.write(
        "data/puzzles/en/en-bad.toml",
        &good.replace("en-midnight-rooster", "en-bad").replace("difficulty = \"easy\"", "difficulty = \"\""),
    );
    sandbox.write(
        "data/puzzles/zh/zh-nohints.toml",
        &good
            .replace("en-midnight-rooster", "zh-nohints")
            .replace("language = \"en\"", "language = \"zh\"")
            .replace("hints = [", "hints = [] \nold_hints = ["),
    );
    let run = sandbox.run(None, &["puzzles", "check"]).await;
    assert!(!run.ok);
    assert!(run.stdout.contains("en-bad.toml: (at byte") && run.stdout.contains("difficulty"), "{}", run.stdout);
    assert!(run.stdout.contains("zh-nohints.toml"), "{}", run.stdout);
    assert!(run.stdout.contains("3 puzzle file(s) checked, 2 with problems"), "{}", run.stdout);
    // The game still starts with the good puzzle and says what it skipped.
    let list = sandbox.run(None, &["puzzles", "list"]).await;
    assert!(list.ok && list.stdout.contains("en-midnight-rooster"), "{}", list.stdout);
    assert!(list.stderr.contains("skipped 2 malformed puzzle file(s)"), "{}", list.stderr);
}

#[tokio::test]
async fn the_bundled_puzzles_pass_the_check() {
    let run = Sandbox::new().run(None, &["puzzles", "check"]).await;
    assert!(run.ok, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("104 puzzle file(s) checked, 0 with problems"), "{}", run.stdout);
}

#[tokio::test]
async fn a_failing_model_loses_no_turn() {
    // Every chat call fails with 500; the health check passes.
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/api/tags"))
        .respond_with(ResponseTemplate::new(200).set_body_string(r#"{"models":[{"name":"fake"}]}"#))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/api/chat"))
        .respond_with(ResponseTemplate::new(500).set_body_string(r#"{"error":"out of memory"}"#))
        .mount(&server)
        .await;
    let sandbox = Sandbox::new();
    let script = sandbox.write("s.txt", "Did he die?\n/status\n");
    let run =
        sandbox.run(Some(&server.uri()), &["play", "en-midnight-rooster", "--script", script.to_str().unwrap()]).await;
    assert!(run.ok, "{}", run.stderr);
    assert!(run.stdout.contains("isn't answering right now"), "{}", run.stdout);
    assert!(!run.stdout.contains("out of memory"), "provider errors stay in the log");
    assert!(run.stdout.contains("0 questions"), "the failed turn was not counted: {}", run.stdout);
}

#[tokio::test]
async fn garbage_from_the_model_asks_for_a_rephrase() {
    let brain = Brain::new(&[("die", "the answer is probably something".into()), ("rooster", question("YES"))]);
    let ollama = FakeOllama::start(brain).await;
    let sandbox = Sandbox::new();
    let long = "why ".repeat(2_500);
    let script = sandbox.write(
        "s.txt",
        &format!("Did he die?\n{long}\n/hint\n/hint\n/hint\n/hint\n/frobnicate\nIs the rooster male?\n"),
    );
    let run = sandbox
        .run(Some(&ollama.server.uri()), &["play", "en-midnight-rooster", "--script", script.to_str().unwrap()])
        .await;
    assert!(run.ok, "{}", run.stderr);
    assert!(run.stdout.contains("couldn't make sense of that"), "{}", run.stdout);
    assert!(run.stdout.contains("too long (9999 characters"), "{}", run.stdout);
    assert!(run.stdout.contains("No hints left: this game allows 3."), "{}", run.stdout);
    assert!(run.stdout.contains("Unknown command /frobnicate"), "{}", run.stdout);
    assert!(run.stdout.contains("YES: "), "play goes on after bad input: {}", run.stdout);
}
