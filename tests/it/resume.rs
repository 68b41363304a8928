//! Kill the process between two turns, resume, and find the history and
//! score intact.

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::support::{Brain, FakeOllama, Sandbox, guess, question};

#[tokio::test]
async fn a_killed_game_resumes_with_history_and_score() {
    let ollama = FakeOllama::start(Brain::new(&[
        ("related to Ana", question("YES")),
        ("at the airport", question("YES")),
        ("birth father", guess(&["f1", "f2"])),
    ]))
    .await;
    let sandbox = Sandbox::new();
    let url = ollama.server.uri();

    // First process: interactive on a pipe, two questions, then SIGKILL.
    let mut child = sandbox
        .echoes(Some(&url))
        .args(["play", "en-arrivals-sign", "--name", "Kim"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut stderr = BufReader::new(child.stderr.take().unwrap()).lines();
    let session = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let line = stderr.next_line().await.unwrap().expect("stderr closed before the session line");
            if let Some(rest) = line.strip_prefix("· session ") {
                return rest.split_whitespace().next().unwrap().to_string();
            }
        }
    })
    .await
    .expect("session id");
    for q in ["Was the man related to Ana?", "Were they at the airport?"] {
        stdin.write_all(format!("{q}\n").as_bytes()).await.unwrap();
        wait_for_line(&mut stdout, "YES:").await;
    }
    child.kill().await.unwrap();
    drop(stdin);

    // Second process: resume, check status, then solve.
    let script = sandbox.write("more.txt", "/status\n/guess He was her birth father who never saw her\n");
    let run = sandbox.run(Some(&url), &["play", "--resume", &session, "--script", script.to_str().unwrap()]).await;
    assert!(run.ok, "{}", run.stderr);
    assert!(run.stdout.contains("> Was the man related to Ana?"), "history is shown: {}", run.stdout);
    assert!(run.stdout.contains("> Were they at the airport?"));
    assert!(run.stdout.contains("2 questions"), "the question count survived: {}", run.stdout);
    // 100 - 2 questions * 2 = 96: the score counts the questions asked before the kill.
    assert!(run.stdout.contains("Solved by Kim! Score: 96."), "{}", run.stdout);
    let board = sandbox.run(None, &["leaderboard"]).await;
    assert!(board.stdout.contains("Kim"), "{}", board.stdout);
}

async fn wait_for_line(lines: &mut tokio::io::Lines<BufReader<tokio::process::ChildStdout>>, prefix: &str) {
    tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if line.starts_with(prefix) {
                return;
            }
        }
        panic!("stdout closed before a line starting with {prefix:?}");
    })
    .await
    .expect("reply in time");
}

#[tokio::test]
async fn resuming_an_unknown_session_says_so() {
    let sandbox = Sandbox::new();
    let ollama = FakeOllama::start(Brain::new(&[])).await;
    let run = sandbox.run(Some(&ollama.server.uri()), &["play", "--resume", "no-such-session"]).await;
    assert!(!run.ok);
    assert!(run.stderr.contains("no-such-session") && run.stderr.contains("not found"), "{}", run.stderr);
}
