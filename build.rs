//! Rebuilds the crate when a file compiled into the binary changes
//! (`src/assets.rs` embeds these folders with `include_dir!`, which cargo
//! does not track by itself: a new puzzle file alone would leave a stale
//! binary in a warm build cache).

fn main() {
    for dir in ["data", "prompts", "config", "migrations"] {
        println!("cargo:rerun-if-changed={dir}");
    }
}
