//! Outgrowing one process: a game played on the embedded SQLite default is
//! copied into PostgreSQL with `echoes db copy` (every table's rows
//! compared), resumed there by the real binary, and finished; the copy
//! refuses a target that already holds rows. `echoes db migrate` on a new
//! server database applies every migration once.

use echoes::core::store::{SessionRecord, Stats};
use echoes::store::scratch::ScratchDb;
use echoes::store::{SqlStore, count_rows};

use crate::support::{Brain, FakeOllama, Sandbox, guess, question};

#[tokio::test]
async fn a_sqlite_game_moves_to_postgres_and_finishes_there() {
    let ollama = FakeOllama::start(Brain::new(&[
        ("related to Ana", question("YES")),
        ("birth father", guess(&["f1", "f2", "f3"])),
    ]))
    .await;
    let sandbox = Sandbox::new();
    let first = sandbox.write("first.txt", "Was the man related to Ana?\n/hint\n");
    let run = sandbox
        .run(
            Some(&ollama.server.uri()),
            &["play", "en-arrivals-sign", "--name", "Ana", "--script", first.to_str().unwrap()],
        )
        .await;
    assert!(run.ok, "{}", run.stderr);
    let file = sandbox.path().join("echoes.db");
    let sqlite = SqlStore::open(&file).await.unwrap();
    let session = sqlite.recent_sessions(1).await.unwrap().remove(0);
    assert_eq!(session.phase, "in_progress", "the game is still on when it moves");

    let server = ScratchDb::create().await.unwrap_or_else(|e| panic!("{e}"));
    let copy = sandbox.run(None, &["db", "copy", "--from", file.to_str().unwrap(), "--to", server.url()]).await;
    assert!(copy.ok, "{}", copy.stderr);
    assert!(copy.stdout.contains("turns"), "{}", copy.stdout);
    let postgres = SqlStore::connect(&server.database()).await.unwrap();
    let before = count_rows(&sqlite).await.unwrap();
    assert_eq!(count_rows(&postgres).await.unwrap(), before);
    assert!(before.iter().any(|(table, n)| table == "turns" && *n >= 2), "{before:?}");
    let copied = postgres.load_session(&session.id).await.unwrap().unwrap();
    let original = sqlite.load_session(&session.id).await.unwrap().unwrap();
    assert_eq!((copied.snapshot, copied.turns.len()), (original.snapshot, original.turns.len()));

    // The binary resumes the game from PostgreSQL and finishes it there.
    let last =
        sandbox.write("last.txt", "/guess He was her birth father and had never seen her face, only knew her name\n");
    let mut resume = sandbox.echoes(Some(&ollama.server.uri()));
    resume.env("ECHOES__STORAGE__DATABASE", server.url());
    resume.args(["play", "--resume", &session.id, "--script", last.to_str().unwrap()]);
    let resumed = crate::support::Run::from(resume.output().await.unwrap());
    assert!(resumed.ok, "{}", resumed.stderr);
    let board = postgres.leaderboard(None, 5).await.unwrap();
    assert_eq!(board.iter().map(|r| (r.name.as_str(), r.solves)).collect::<Vec<_>>(), [("Ana", 1)]);
    assert_eq!(sqlite.recent_sessions(1).await.unwrap()[0].phase, "in_progress", "the source is left as it was");

    // A second copy into the same server is refused, not merged.
    let again = sandbox.run(None, &["db", "copy", "--from", file.to_str().unwrap(), "--to", server.url()]).await;
    assert!(!again.ok && again.stderr.contains("not empty"), "{}", again.stderr);
    postgres.close().await;
}

#[tokio::test]
async fn db_migrate_applies_each_migration_once() {
    let sandbox = Sandbox::new();
    let server = ScratchDb::create().await.unwrap_or_else(|e| panic!("{e}"));
    let first = sandbox.run(None, &["db", "migrate", "--database", server.url()]).await;
    assert!(
        first.ok && first.stdout.contains("applied migrations [1, 2, 3, 4, 5, 6, 7, 8]"),
        "{}{}",
        first.stdout,
        first.stderr
    );
    let second = sandbox.run(None, &["db", "migrate", "--database", server.url()]).await;
    assert!(second.ok && second.stdout.contains("up to date"), "{}{}", second.stdout, second.stderr);
}
