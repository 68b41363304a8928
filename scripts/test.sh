#!/usr/bin/env bash
# The README's test command: format check, lints and the whole test suite.
# Hermetic: tests talk only to 127.0.0.1 (local fake model servers, SQLite files).
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/require.sh

# A build cache outside the clone keeps fresh clones fast after the first run.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/echoes-target}"
export INSTA_UPDATE=no       # snapshots are checked, never rewritten, here
export CARGO_TERM_COLOR=never

# The store's tests run on SQLite and on PostgreSQL (each test makes and
# drops its own database): a server already answering is used, otherwise a
# throwaway one is started for this run (scripts/postgres.sh).
. scripts/postgres.sh
postgres_for_tests

start=$(date +%s)
cargo fmt --all -- --check
# Lints in the same build as the tests: our crate compiles through
# clippy-driver (scripts/clippy-rustc: Clippy's lints, warnings denied, as
# `cargo clippy --all-targets -- -D warnings` would), so the dependencies
# are built once. A separate `cargo clippy` would compile all ~700 of them
# a second time in check mode (about 15 minutes from cold on 2 cores).
# Setup, not a test: the local-model tests read the small chat model and the
# embedder from the model cache (`echoes models path`); fetch them once.
# build_echoes (require.sh) is the one build both README commands share.
build_echoes
ECHOES__LLM__LOCAL__CHAT_MODEL=small "$CARGO_TARGET_DIR/debug/echoes" models fetch --if-missing
cargo test --locked --features fakes
echo "scripts/test.sh: fmt, clippy and tests passed in $(( $(date +%s) - start ))s"
