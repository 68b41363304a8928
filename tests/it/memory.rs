//! Memory through the real binary: a finished game is remembered, survives
//! deleting the LanceDB directory (rebuilt from SQL), and can be forgotten.

use crate::support::{Brain, FakeOllama, Sandbox, guess, question};

#[tokio::test]
async fn memory_is_rebuilt_from_the_database_and_can_be_forgotten() {
    let ollama =
        FakeOllama::start(Brain::new(&[("related to Ana", question("YES")), ("birth father", guess(&["f1", "f2"]))]))
            .await;
    let sandbox = Sandbox::new();
    let url = ollama.server.uri();
    let script =
        sandbox.write("g.txt", "Was the man related to Ana?\n/guess he was her birth father who never saw her face\n");
    let run = sandbox
        .run(Some(&url), &["play", "en-arrivals-sign", "--name", "Kim", "--script", script.to_str().unwrap()])
        .await;
    assert!(run.ok && run.stdout.contains("Solved by Kim"), "{}{}", run.stdout, run.stderr);

    let shown = sandbox.run(None, &["memory", "show", "Kim"]).await;
    assert!(shown.ok, "{}", shown.stderr);
    assert!(shown.stdout.contains("3 memories"), "{}", shown.stdout);
    assert!(shown.stdout.contains("[stats] Kim has played 1 games and solved 1"), "{}", shown.stdout);

    std::fs::remove_dir_all(sandbox.path().join(".echoes/lancedb")).unwrap();
    let rebuilt = sandbox.run(None, &["knowledge", "rebuild"]).await;
    assert!(rebuilt.ok, "{}", rebuilt.stderr);
    assert!(rebuilt.stdout.contains("3 memories rebuilt"), "{}", rebuilt.stdout);
    let again = sandbox.run(None, &["memory", "show", "Kim"]).await;
    assert!(again.stdout.contains("3 memories"), "{}", again.stdout);

    let forgot = sandbox.run(None, &["memory", "forget", "Kim"]).await;
    assert!(forgot.ok && forgot.stdout.contains("3 memories erased"), "{}{}", forgot.stdout, forgot.stderr);
    let rebuilt = sandbox.run(None, &["knowledge", "rebuild"]).await;
    assert!(rebuilt.stdout.contains("0 memories rebuilt"), "forgetting survives a rebuild: {}", rebuilt.stdout);
    assert!(sandbox.run(None, &["memory", "show", "Kim"]).await.stdout.contains("0 memories"));

    let show = sandbox.run(None, &["puzzles", "show", "en-arrivals-sign"]).await;
    assert!(show.stdout.contains("1 plays · 100% solved · median 1 questions"), "{}", show.stdout);
}
