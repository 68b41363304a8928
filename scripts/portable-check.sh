#!/usr/bin/env bash
# Shows that a portable build (scripts/release.sh) runs on older x86-64 CPUs:
# `echoes bench local-model` (speed only) natively and under qemu-user with
# CPU models that lack AVX-512 (Haswell) and AVX/AVX2 (Nehalem), printing the
# CPU kernels each chose and its speed. Not in CI: it emulates, slowly.
#   scripts/portable-check.sh [DIR]   (default dist/; qemu-user is installed
#   with apt-get when missing and possible)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-dist}
[ -x "$dir/echoes" ] || { echo "portable-check.sh: no $dir/echoes: run scripts/release.sh $dir first" >&2; exit 1; }
if ! command -v qemu-x86_64 >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get install -y -qq qemu-user >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq qemu-user >/dev/null; }
  fi
  command -v qemu-x86_64 >/dev/null 2>&1 || { echo "portable-check.sh: qemu-x86_64 is missing (Debian: apt-get install qemu-user)" >&2; exit 1; }
fi
# Natively the bench's usual sizes (a 512-token prompt); emulated a short
# run, since emulation is 10-100x slower than the CPU itself.
native=(bench local-model --questions 0 --runs 3)
emulated=(bench local-model --questions 0 --runs 1 --prompt 64 --generate 16)
run() {
  local label=$1; shift
  local bench=("${emulated[@]}")
  [ "$1" = env ] && bench=("${native[@]}")
  echo "== $label"
  local started=$SECONDS out status=0
  out=$("$@" "$dir/echoes" "${bench[@]}" 2>&1) || status=$?
  grep -E "^(CPU kernels|load|prompt|generation) " <<<"$out" || tail -5 <<<"$out"
  echo "   (exit $status, $((SECONDS - started)) s)"
  return "$status"
}
run "native ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs))" env
run "qemu -cpu Haswell (AVX2, no AVX-512)" qemu-x86_64 -cpu Haswell
run "qemu -cpu Nehalem (SSE4.2, no AVX)" qemu-x86_64 -cpu Nehalem
