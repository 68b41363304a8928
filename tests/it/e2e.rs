//! A whole scripted game through the real binary, a real SQLite file and a
//! local server speaking the Ollama protocol; the transcript is a snapshot.

use crate::support::{Brain, FakeOllama, Sandbox, guess, question};

const SCRIPT: &str = "\
# questions, a wrong guess, a hint, a right guess
Did Ana know the man before that day?
Was the man related to Ana?
Was the man related to Ana?
/ask Is the airport important?
/guess He was her old teacher
/hint
/status
/guess He was her birth father and had never seen her face, only knew her name
/history
";

fn brain() -> Brain {
    Brain::new(&[
        ("Did Ana know the man", question("YES_AND_NO")),
        ("related to Ana", question("YES")),
        ("airport important", question("IRRELEVANT")),
        ("old teacher", guess(&[])),
        ("birth father", guess(&["f1", "f2", "f3"])),
    ])
}

#[tokio::test]
async fn a_scripted_game_plays_to_the_end() {
    let ollama = FakeOllama::start(brain()).await;
    let sandbox = Sandbox::new();
    let script = sandbox.write("game.txt", SCRIPT);
    let run = sandbox
        .run(
            Some(&ollama.server.uri()),
            &["play", "en-arrivals-sign", "--name", "Ana", "--script", script.to_str().unwrap()],
        )
        .await;
    assert!(run.ok, "stderr: {}", run.stderr);
    insta::assert_snapshot!("scripted_game_transcript", run.stdout);

    // The repeated question was answered from the ledger: 3 judge calls for
    // questions, 2 for guesses, and a narrator call per fresh question.
    let judge_calls = ollama.requests().iter().filter(|r| r.to_string().contains("You are the JUDGE")).count();
    assert_eq!(judge_calls, 5);
    let first = &ollama.requests()[0];
    assert_eq!(first["format"]["type"], "object", "structured output is requested from Ollama");

    // The final score is on the leaderboard, read back from the SQLite file.
    let board = sandbox.run(None, &["leaderboard"]).await;
    assert!(board.ok, "{}", board.stderr);
    assert!(board.stdout.contains("Ana") && board.stdout.contains("1 solved"), "{}", board.stdout);

    // The transcript was written when the game ended; `echoes transcript`
    // writes the last finished game again, any time after.
    let written = run.stderr.lines().find_map(|l| l.strip_prefix("· transcript: ")).expect(&run.stderr);
    let text = std::fs::read_to_string(sandbox.path().join(written.trim())).unwrap();
    for expected in ["**Ana**: Did Ana know the man before that day?", "/hint", "## The story", "- [x]"] {
        assert!(text.contains(expected), "{expected:?} missing from:\n{text}");
    }
    let out = sandbox.path().join("again.md");
    let again = sandbox.run(None, &["transcript", "--out", out.to_str().unwrap()]).await;
    assert!(again.ok, "{}", again.stderr);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    let unknown = sandbox.run(None, &["transcript", "no-such-session"]).await;
    assert!(!unknown.ok && unknown.stderr.contains("There is no session"), "{}", unknown.stderr);
}

#[tokio::test]
async fn the_database_records_turns_with_model_usage() {
    let ollama = FakeOllama::start(brain()).await;
    let sandbox = Sandbox::new();
    let script = sandbox.write("game.txt", "Was the man related to Ana?\n/giveup\n");
    let run = sandbox
        .run(Some(&ollama.server.uri()), &["play", "en-arrivals-sign", "--script", script.to_str().unwrap()])
        .await;
    assert!(run.ok, "{}", run.stderr);
    assert!(run.stdout.contains("You gave up"), "{}", run.stdout);
    let store = echoes::store::SqlStore::open(&sandbox.path().join("echoes.db")).await.unwrap();
    use echoes::core::store::SessionRecord;
    let sessions = store.recent_sessions(5).await.unwrap();
    assert_eq!(sessions.len(), 1);
    let loaded = store.load_session(&sessions[0].id).await.unwrap().unwrap();
    let asked = loaded.turns.iter().find(|t| t.kind == "say").expect("question turn");
    assert_eq!(asked.model_calls, 2, "judge + narrator");
    assert_eq!(asked.prompt_tokens, 240, "token counts from the provider are kept");
    assert_eq!(asked.judge_parse, "clean");
    assert!(store.unsent(&sessions[0].id).await.unwrap().is_empty(), "every shown reply is marked sent");
}

#[tokio::test]
async fn eval_judge_scores_labelled_lines_through_the_real_judge_path() {
    let ollama = FakeOllama::start(Brain::new(&[("related", question("YES")), ("money", question("NO"))])).await;
    let sandbox = Sandbox::new();
    let file = sandbox.write(
        "judge.jsonl",
        concat!(
            r#"{"puzzle": "en-arrivals-sign", "kind": "question", "input": "Was the man related to Ana?", "expected": "YES"}"#,
            "\n",
            r#"{"puzzle": "en-arrivals-sign", "kind": "question", "input": "Is it about money?", "expected": "YES"}"#,
            "\n",
            r#"{"surface": "A man smiles at rain.", "bottom": "His crops were dying.", "kind": "question", "input": "What is the first letter of the answer?", "expected": "IRRELEVANT"}"#,
            "\n",
        ),
    );
    let run = sandbox.run(Some(&ollama.server.uri()), &["eval", "judge", file.to_str().unwrap(), "--json"]).await;
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["lines"], 3);
    assert_eq!(report["questions"]["right"], 1, "{report}");
    assert_eq!(report["parse"]["clean"], 2, "two Judge calls parsed cleanly: {report}");
    assert_eq!(report["parse"]["meta"], 1, "the wording question never reached a model: {report}");
    let misses: Vec<i64> = report["misses"].as_array().unwrap().iter().map(|m| m["line"].as_i64().unwrap()).collect();
    assert_eq!(misses, vec![2, 3]);
    let bad = sandbox
        .write("bad.jsonl", "{\"puzzle\": \"x\", \"kind\": \"question\", \"input\": \"?\", \"expected\": \"MAYBE\"}\n");
    let run = sandbox.run(Some(&ollama.server.uri()), &["eval", "judge", bad.to_str().unwrap()]).await;
    assert!(!run.ok && run.stderr.contains("line 1"), "{}", run.stderr);
}

#[tokio::test]
async fn selfplay_soup_reports_solves_questions_calls_and_the_parse_rate() {
    // The AI players' model guesses the story at once; the Judge finds
    // every key fact in it.
    let guesser = brain().with_others(&[(
        "You are a player",
        "He was her birth father and had never seen her face, only knew her name.",
    )]);
    let ollama = FakeOllama::start(guesser).await;
    let sandbox = Sandbox::new();
    let args = ["selfplay", "soup", "--puzzles", "en-arrivals-sign", "--max-turns", "6"];
    let run = sandbox.run(Some(&ollama.server.uri()), &args).await;
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("en-arrivals-sign") && run.stdout.contains("solve rate 100% (1/1)"), "{}", run.stdout);
    assert!(run.stdout.contains("Judge parse rate 100%"), "{}", run.stdout);
}
