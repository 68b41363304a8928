//! The sentence embedder's GGUF: `scripts/bert-to-gguf.py` (compiled in)
//! run by the configured Python over the fetched files. The script needs
//! numpy and gguf; when that Python cannot import them, pip installs the
//! pinned `CONVERTER_PACKAGES` into the cache directory's `.python/`, which
//! only the converter's runs put on their `PYTHONPATH`.
//!
//! The fetched files are checked against their recorded hashes first; the
//! GGUF is written under a `.part` name and moved into place complete; it
//! is checked before it counts as converted.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::{Fetcher, Scratch, part_of, path_arg, remove_any};
use crate::models::{
    CONVERTER_PACKAGES, CONVERTER_SCRIPT, EMBEDDER_GGUF, EMBEDDER_SOURCES, ModelError, pins, write_error,
};

/// Succeeds only where the converter can run: its packages import and
/// have what it calls.
const CONVERTER_CHECK: &str = "import numpy, gguf; gguf.GGUFWriter.add_add_sep_token; gguf.PoolingType.MEAN";

/// Environment variables for the converter's Python.
type Env = Vec<(&'static str, OsString)>;

impl Fetcher {
    /// The embedder's GGUF: `llm.local.embedder_gguf` when set (it must
    /// exist), else the one in `dir`, converted when it is not there yet.
    pub(super) async fn embedder_gguf(&self, dir: &Path) -> Result<PathBuf, ModelError> {
        if !self.dir.settings().embedder_gguf.trim().is_empty() {
            return self.dir.embedder_gguf();
        }
        let out = dir.join(EMBEDDER_GGUF);
        if !out.is_file() {
            self.convert_embedder(dir, &out).await?;
        }
        Ok(out)
    }

    /// Converts the embedder's files in `dir` to the GGUF `out`, each
    /// file first checked against the hash recorded when it was fetched.
    pub(super) async fn convert_embedder(&self, dir: &Path, out: &Path) -> Result<(), ModelError> {
        let sources = dir.to_owned();
        tokio::task::spawn_blocking(move || {
            EMBEDDER_SOURCES.iter().try_for_each(|file| pins::check_recorded(&sources.join(file)))
        })
        .await
        .map_err(|e| ModelError::Fetch(format!("checking the embedder's files failed: {e}")))??;
        let env = self.converter_env().await?;
        (self.say)("· converting the embedder to GGUF for llama.cpp");
        let args = ["-c".to_owned(), CONVERTER_SCRIPT.to_owned(), path_arg(dir), path_arg(out)];
        let converted = self.python_with(&args, &env, "converting the embedder to GGUF failed").await;
        if converted.is_err() {
            remove_any(&part_of(out)).await;
        }
        converted?;
        check_gguf(out).await
    }

    /// Whether the converter's packages import, from `.python/` or from
    /// the configured Python's own.
    pub(super) async fn converter_ready(&self) -> bool {
        let args = ["-c".to_owned(), CONVERTER_CHECK.to_owned()];
        self.python_with(&args, &self.converter_pythonpath(), "checking numpy and gguf").await.is_ok()
    }

    /// The converter's environment, its packages installed first when
    /// they do not import.
    async fn converter_env(&self) -> Result<Env, ModelError> {
        if !self.converter_ready().await {
            self.install_converter_packages().await?;
        }
        Ok(self.converter_pythonpath())
    }

    /// `PYTHONPATH` with `.python/` first, then whatever was set.
    fn converter_pythonpath(&self) -> Env {
        let own = self.dir.converter_python();
        let mut paths = vec![own.clone()];
        if let Some(existing) = std::env::var_os("PYTHONPATH") {
            paths.extend(std::env::split_paths(&existing));
        }
        let joined = std::env::join_paths(paths).unwrap_or_else(|_| own.into_os_string());
        vec![("PYTHONPATH", joined)]
    }

    /// `pip install`s `CONVERTER_PACKAGES` into a scratch directory, then
    /// moves them to `.python/` whole.
    async fn install_converter_packages(&self) -> Result<(), ModelError> {
        (self.say)("· installing numpy and gguf with pip, to convert the embedder to GGUF");
        let root = self.dir.root();
        let scratch = Scratch::new(root.join(format!(".fetch-python-{}", std::process::id()))).await?;
        let target = scratch.path.join("lib");
        let mut args: Vec<String> =
            ["-m", "pip", "install", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check", "--no-input"]
                .map(String::from)
                .to_vec();
        args.extend(["--quiet".to_owned(), "--target".to_owned(), path_arg(&target)]);
        args.extend(CONVERTER_PACKAGES.map(String::from));
        args.extend(self.dir.settings().pip_args.iter().cloned());
        self.python(&args, "pip could not install numpy and gguf, needed to convert the embedder to GGUF").await?;
        let dest = self.dir.converter_python();
        remove_any(&dest).await;
        tokio::fs::rename(&target, &dest)
            .await
            .map_err(|e| write_error(root, "installing the converter's packages", &e))?;
        if !self.converter_ready().await {
            return Err(ModelError::Fetch(format!(
                "numpy and gguf were installed in {} but do not import with `{}`; delete that directory, \
                 check llm.local.python and run `echoes models fetch` again",
                dest.display(),
                self.dir.settings().python
            )));
        }
        Ok(())
    }
}

/// Checks a converted GGUF's header and size; an unusable one is removed,
/// so the next fetch converts again.
async fn check_gguf(path: &Path) -> Result<(), ModelError> {
    let file = path.to_owned();
    let verdict = tokio::task::spawn_blocking(move || crate::models::gguf::verify_gguf(&file))
        .await
        .map_err(|e| ModelError::Fetch(format!("checking the embedder's GGUF failed: {e}")))?;
    if let Err(why) = verdict {
        remove_any(path).await;
        return Err(ModelError::Fetch(format!(
            "the embedder's GGUF came out unusable ({why}); run `echoes models fetch` again"
        )));
    }
    Ok(())
}
