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
