#!/usr/bin/env bash
# The README's test command: format check, lints and the whole test suite.
# Hermetic: tests talk only to 127.0.0.1 (local fake model servers, SQLite files).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null 2>&1; then
  echo "cargo is missing: install Rust 1.95 (rustup toolchain install 1.95) and re-run." >&2
  exit 1
fi

# A build cache outside the clone keeps fresh clones fast after the first run.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/echoes-target}"
export INSTA_UPDATE=no       # snapshots are checked, never rewritten, here
export CARGO_TERM_COLOR=never

start=$(date +%s)
cargo fmt --all -- --check
cargo clippy --locked --all-targets -- -D warnings
cargo test --locked
echo "scripts/test.sh: fmt, clippy and tests passed in $(( $(date +%s) - start ))s"
