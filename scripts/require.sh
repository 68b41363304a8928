# Sourced by play.sh and test.sh: the build needs cargo and protoc (LanceDB's
# build compiles protobuf files). Installs protoc with apt-get when it can,
# otherwise names exactly what is missing.
if ! command -v cargo >/dev/null 2>&1; then
  echo "cargo is missing: install Rust 1.95 (rustup toolchain install 1.95) and re-run." >&2
  exit 1
fi
if ! command -v protoc >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "installing protoc (protobuf-compiler, libprotobuf-dev) for the LanceDB build..." >&2
    apt-get install -y -qq protobuf-compiler libprotobuf-dev >/dev/null 2>&1 \
      || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq protobuf-compiler libprotobuf-dev >/dev/null; }
  fi
  if ! command -v protoc >/dev/null 2>&1; then
    echo "protoc is missing: install it (Debian/Ubuntu: sudo apt-get install protobuf-compiler libprotobuf-dev) and re-run." >&2
    exit 1
  fi
fi
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/echoes-target}"

# One build for both README commands: the same wrapper (our crate through
# clippy-driver, scripts/clippy-rustc), features and profile, so after
# `scripts/test.sh` the play command compiles nothing. `cargo test
# --no-run` (not `cargo build`) resolves the dependencies' features as the
# tests do; a plain `cargo build` would compile half of them again.
build_echoes() {
  export RUSTC_WORKSPACE_WRAPPER="$PWD/scripts/clippy-rustc"
  if [ ! -x "$CARGO_TARGET_DIR/debug/echoes" ]; then
    echo "building echoes and its ~700 dependencies (a cold build takes 30-60 minutes on 2 cores; later builds a few minutes)..." >&2
  fi
  cargo test --locked --no-run
}
