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

/// One bot process on `server` with a vector directory of its own.
async fn process_on(server: &echoes::store::scratch::ScratchDb, vectors: &std::path::Path) -> echoes::app::App {
    let mut settings = echoes::config::Settings::load(None).unwrap();
    settings.storage.database = server.url().to_string();
    settings.storage.vector_dir = vectors.to_path_buf();
    settings.knowledge.embedder = "hashing".into();
    let parrot: std::sync::Arc<dyn echoes::core::llm::LlmClient> = std::sync::Arc::new(echoes::llm::ParrotLlm);
    let models = echoes::core::llm::RoleModels { judge: parrot.clone(), narrator: parrot };
    echoes::app::App::open(settings, models).await.unwrap()
}

/// Waits up to `within` for `done`; how long it took, or `None`.
async fn waited<F: std::future::Future<Output = bool>>(
    within: std::time::Duration,
    mut done: impl FnMut() -> F,
) -> Option<std::time::Duration> {
    let start = std::time::Instant::now();
    while start.elapsed() < within {
        if done().await {
            return Some(start.elapsed());
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    None
}

/// Two processes on one PostgreSQL database, each with its own LanceDB
/// directory: what one learns reaches the other's index within a second,
/// told by LISTEN/NOTIFY before the other reads anything, and is recalled
/// there; a player erased through either (`forget-me`) is erased in both
/// indexes and in the record.
#[tokio::test]
async fn memory_learned_through_one_process_is_recalled_and_erased_through_the_other() {
    use echoes::core::memory::{Memory, MemoryItem, MemoryKind};
    let server = echoes::store::scratch::ScratchDb::create().await.unwrap_or_else(|e| panic!("{e}"));
    let dirs = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = process_on(&server, dirs.0.path()).await;
    let b = process_on(&server, dirs.1.path()).await;
    let (on_a, on_b) = (&a.vectors.as_ref().unwrap().memory, &b.vectors.as_ref().unwrap().memory);
    let namespace = "player:discord:42".to_string();
    let fact = MemoryItem {
        id: format!("{namespace}#summary-s1"),
        namespace: namespace.clone(),
        kind: MemoryKind::Summary,
        text: "Kim solved the lighthouse puzzle with a single clever guess about the drowned brother.".into(),
        updated_ms: 1,
    };
    on_a.put(std::slice::from_ref(&fact)).await.unwrap();
    let second = std::time::Duration::from_secs(1);
    let took = waited(second, || async { on_b.index().list(&namespace).await.unwrap().contains(&fact) }).await;
    assert!(took.is_some(), "b's index followed a's write within a second, before b read anything");
    let recalled = on_b.recall(std::slice::from_ref(&namespace), "the lighthouse puzzle guess", 3).await.unwrap();
    assert_eq!(recalled, std::slice::from_ref(&fact), "recalled through b");

    // Written again through b: a sees the newer text.
    let newer = MemoryItem { text: "Kim has solved two puzzles.".into(), updated_ms: 2, ..fact.clone() };
    on_b.put(std::slice::from_ref(&newer)).await.unwrap();
    let took = waited(second, || async { on_a.index().list(&namespace).await.unwrap() == [newer.clone()] }).await;
    assert!(took.is_some(), "a's index replaced the memory within a second");

    // forget-me through b: erased in both indexes and in the record.
    assert_eq!(on_b.forget(&namespace).await.unwrap(), 1);
    let took = waited(second, || async { on_a.index().list(&namespace).await.unwrap().is_empty() }).await;
    assert!(took.is_some(), "a's index erased the player within a second");
    assert!(on_b.index().list(&namespace).await.unwrap().is_empty());
    let record = a.store.memory_changes(0, 100).await.unwrap();
    assert!(record.iter().all(|c| !format!("{c:?}").contains("Kim")), "the text is gone from the record: {record:?}");

    // A third process on a new directory starts from the record: nothing of Kim.
    let dir = tempfile::tempdir().unwrap();
    let c = process_on(&server, dir.path()).await;
    assert!(c.vectors.as_ref().unwrap().memory.list(&namespace).await.unwrap().is_empty());
}
