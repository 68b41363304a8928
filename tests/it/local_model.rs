//! The in-process model through the real binary: a scripted 10-turn game
//! chosen by `auto` with no Ollama running, and the clear, non-zero exits
//! for missing and corrupt model files. Uses the model files that
//! `scripts/test.sh` fetches first (in CI a missing file fails the test).

use echoes::core::store::SessionRecord;
use echoes::models::testing;

use crate::support::Sandbox;

const SCRIPT: &str = "\
Was the elderly man related to Ana?
Had Ana and the man met before?
Was Ana adopted?
Did the man know what Ana looked like?
Is the weather important?
Did they write letters to each other?
/hint
Did the man come from abroad?
/guess He was her birth father, who knew her name but had never seen her face
/giveup
";

/// A command that may only use the in-process model (nothing listens at
/// the Ollama address), with model files from `models_dir`.
fn local(sandbox: &Sandbox, models_dir: &str) -> tokio::process::Command {
    let refused = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let mut cmd = sandbox.echoes(Some(&format!("http://{refused}")));
    cmd.env("ECHOES__LLM__PROVIDER", "auto");
    cmd.env("ECHOES__LLM__TIMEOUT_SECS", "300");
    // One model call a turn keeps the CI run short; the narrator's path is
    // the same client.
    cmd.env("ECHOES__GAME__NARRATOR", "false");
    // These tests drive the model itself; the embedded default lets it
    // judge nothing (`game.judge = "auto"`), tested on its own below.
    cmd.env("ECHOES__GAME__JUDGE", "true");
    cmd.env("ECHOES__LLM__LOCAL__MODELS_DIR", models_dir);
    cmd.env("ECHOES__LLM__LOCAL__CHAT_MODEL", "small");
    cmd.env("ECHOES__LLM__LOCAL__HUB_URL", format!("http://{refused}"));
    cmd
}

#[tokio::test]
async fn a_scripted_ten_turn_game_runs_on_the_local_model() {
    if testing::small_chat().is_none() {
        return;
    }
    let models_dir = testing::model_dir().root().display().to_string();
    let sandbox = Sandbox::new();
    let script = sandbox.write("game.txt", SCRIPT);
    let output = local(&sandbox, &models_dir)
        .args(["play", "en-arrivals-sign", "--name", "Ana", "--script", script.to_str().unwrap()])
        .output()
        .await
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "stderr: {stderr}\nstdout: {stdout}");
    assert!(stderr.contains("running in this process") && stderr.contains("no Ollama answered"), "{stderr}");
    assert!(stderr.contains("larger model plays much better"), "{stderr}");
    assert!(stdout.contains("You gave up"), "{stdout}");

    let store = echoes::store::SqlStore::open(&sandbox.path().join("echoes.db")).await.unwrap();
    let sessions = store.recent_sessions(5).await.unwrap();
    let loaded = store.load_session(&sessions[0].id).await.unwrap().unwrap();
    let judged: Vec<_> = loaded.turns.iter().filter(|t| t.model_calls > 0).collect();
    assert!(judged.len() >= 7, "{} model turns", judged.len());
    for turn in judged {
        // Every Judge reply maps to a verdict or to the defined fallback.
        assert!(["clean", "salvaged", "fallback"].contains(&turn.judge_parse.as_str()), "{turn:?}");
        assert!(turn.prompt_tokens > 0, "token counts come from the local model");
    }
}

#[tokio::test]
async fn a_corrupt_model_file_is_one_clear_error() {
    let models = tempfile::tempdir().unwrap();
    let bytes: Vec<u8> = (0..100_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8).collect();
    std::fs::write(models.path().join(echoes::models::SMALL_CHAT_FILE), bytes).unwrap();
    let sandbox = Sandbox::new();
    let script = sandbox.write("game.txt", "Was he her father?\n");
    let output = local(&sandbox, models.path().to_str().unwrap())
        .args(["play", "en-arrivals-sign", "--script", script.to_str().unwrap()])
        .output()
        .await
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("not a usable model file") || stderr.contains("is not usable"), "{stderr}");
    assert!(stderr.contains("echoes models fetch") && !stderr.contains("panicked"), "{stderr}");
}

#[tokio::test]
async fn missing_model_files_that_cannot_be_fetched_are_one_clear_error() {
    let models = tempfile::tempdir().unwrap();
    let sandbox = Sandbox::new();
    let mut cmd = local(&sandbox, models.path().to_str().unwrap());
    cmd.env("ECHOES__LLM__LOCAL__PYTHON", "/nonexistent/python3");
    let output = cmd.args(["play", "en-arrivals-sign"]).output().await.unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("cannot run `/nonexistent/python3`") && !stderr.contains("panicked"), "{stderr}");

    let list = local(&sandbox, models.path().to_str().unwrap()).args(["models", "list"]).output().await.unwrap();
    let listing = String::from_utf8_lossy(&list.stdout);
    assert!(list.status.success() && listing.matches("missing").count() == 4, "{listing}");
    let path = local(&sandbox, models.path().to_str().unwrap()).args(["models", "path"]).output().await.unwrap();
    assert_eq!(String::from_utf8_lossy(&path.stdout).trim(), models.path().to_str().unwrap());
}
