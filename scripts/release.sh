#!/usr/bin/env bash
# A portable release of `echoes` for x86-64 Linux: scripts/release.sh [DIR]
# (default dist/). DIR receives the binary and the shared libraries it
# loads: libllama, libggml, libggml-base and llama.cpp's CPU kernels once per
# CPU generation (libggml-cpu-<variant>.so, x64 and sse42 up to
# sapphirerapids). At start `echoes` loads the best variant the CPU runs
# (AMX only where the kernel grants it); `echoes bench local-model` prints
# the one chosen. Keep the files together: the binary finds the libraries
# beside itself. PACKAGE_ONLY=1 with PROFILE=dev packages a portable build
# already made in the dev profile (for checks: `cargo test --no-run
# --features portable,fakes --test it` reuses the test build's
# dependencies, where a `cargo build` would compile many of them again).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/require.sh

out=${1:-dist}
profile=${PROFILE:-release}
dir=$([ "$profile" = dev ] && echo debug || echo "$profile")
# No CPU-specific flags may reach llama.cpp's build: the variants carry their own.
unset CMAKE_C_FLAGS CMAKE_CXX_FLAGS
if [ -z "${PACKAGE_ONLY:-}" ]; then
  cargo build --locked --profile "$profile" --features portable --bin echoes
fi

target=${CARGO_TARGET_DIR:-target}
# The newest llama-cpp-sys-2 build of this profile that made the modules.
build=$(ls -td "$target/$dir"/build/llama-cpp-sys-2-*/out/backends 2>/dev/null | head -1)
[ -n "$build" ] || { echo "release.sh: llama.cpp's CPU modules were not built (no $target/$dir/build/llama-cpp-sys-2-*/out/backends)" >&2; exit 1; }
lib=$(dirname "$build")/lib
mkdir -p "$out"
cp "$target/$dir/echoes" "$out/"
cp -a "$lib"/lib*.so* "$out/"
cp -a "$build"/libggml-cpu-*.so "$out/"
missing=$(LD_LIBRARY_PATH= ldd "$out/echoes" | grep "not found" || true)
[ -z "$missing" ] || { echo "release.sh: the binary misses libraries: $missing" >&2; exit 1; }
echo "release.sh: $out holds echoes and $(ls "$out"/libggml-cpu-*.so | wc -l) CPU kernel variants ($(du -sh "$out" | cut -f1))"
