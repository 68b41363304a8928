//! Rebuilds the crate when a file compiled into the binary changes
//! (`src/assets.rs` embeds these folders with `include_dir!`, which cargo
//! does not track by itself: a new puzzle file alone would leave a stale
//! binary in a warm build cache), and gives the portable build's binary
//! its library path.

fn main() {
    for dir in ["data", "prompts", "config", "migrations"] {
        println!("cargo:rerun-if-changed={dir}");
    }
    // The portable build links llama.cpp's shared libraries, shipped beside
    // the binary: the loader looks for them there.
    if std::env::var_os("CARGO_FEATURE_PORTABLE").is_some() {
        println!("cargo:rustc-link-arg-bins=-Wl,-rpath,$ORIGIN");
    }
}
