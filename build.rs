//! Rebuilds the crate when a file compiled into the binary changes
//! (`src/assets.rs` embeds these folders with `include_dir!`, which cargo
//! does not track by itself: a new puzzle file alone would leave a stale
//! binary in a warm build cache), gives the portable build's binary its
//! library path, and names the commit it is built from (`ECHOES_COMMIT`,
//! the `commit` label of `echoes_build_info`).

use std::path::Path;
use std::process::Command;

fn main() {
    for dir in ["data", "prompts", "config", "migrations"] {
        println!("cargo:rerun-if-changed={dir}");
    }
    // The portable build links llama.cpp's shared libraries, shipped beside
    // the binary: the loader looks for them there.
    if std::env::var_os("CARGO_FEATURE_PORTABLE").is_some() {
        println!("cargo:rustc-link-arg-bins=-Wl,-rpath,$ORIGIN");
    }
    println!("cargo:rustc-env=ECHOES_COMMIT={}", commit());
}

/// The short hash of HEAD, or "unknown" where there is no git or no
/// repository (a source tarball, a build context without `.git`): a
/// build never fails for want of it.
fn commit() -> String {
    // Watched only where they exist (cargo reruns a script whose watched
    // path is missing every time): HEAD, and the branch it names, which
    // moves with each commit. A worktree's `.git` is a file, so there the
    // label may lag until another watched file changes.
    let head = Path::new(".git/HEAD");
    if head.exists() {
        println!("cargo:rerun-if-changed=.git/HEAD");
        let named = std::fs::read_to_string(head).unwrap_or_default();
        if let Some(branch) = named.trim().strip_prefix("ref: ")
            && Path::new(".git").join(branch).exists()
        {
            println!("cargo:rerun-if-changed=.git/{branch}");
        }
    }
    let output = Command::new("git").args(["rev-parse", "--short", "HEAD"]).output();
    match output {
        Ok(out) if out.status.success() => {
            let hash = String::from_utf8_lossy(&out.stdout).trim().to_string();
            if hash.is_empty() { "unknown".to_string() } else { hash }
        }
        _ => "unknown".to_string(),
    }
}
