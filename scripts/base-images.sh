#!/usr/bin/env bash
# Builds the two local base images the Dockerfile can start from, where no
# image registry can be reached: Debian bookworm (amd64) made with
# debootstrap from Debian's own package repository, imported into podman.
#
#   localhost/echoes-base:bookworm-runtime  minbase, security updates,
#       ca-certificates, tzdata, libstdc++6, libgcc-s1 (the binary uses
#       rustls: no OpenSSL); no documentation, no apt lists.
#   localhost/echoes-base:bookworm-build    the runtime base plus
#       build-essential, cmake, clang, libclang-dev, protobuf-compiler,
#       libprotobuf-dev, pkg-config, curl, git, python3 with pip, patchelf,
#       and Rust 1.95 with clippy and rustfmt, copied from this host's
#       toolchain (rustup installs it here first when it is missing).
#
# Usage: scripts/base-images.sh [--force]
#   --force   rebuild both images even when they exist.
# Environment:
#   DEBIAN_MIRROR, DEBIAN_SECURITY_MIRROR  where to fetch packages from
#       (default: the bookworm sources this host's apt uses, else
#       debootstrap's default mirror);
#   RUST_TOOLCHAIN_DIR  a Rust 1.95 toolchain directory to copy (default:
#       found through rustup);
#   EXTRA_CA_DIR  *.crt files added to the build base's trusted
#       certificates, for downloads through a TLS-inspecting proxy
#       (default: /usr/local/share/ca-certificates, where such a host
#       keeps them);
#   ECHOES_PODMAN_STORAGE  a podman storage driver (e.g. vfs).
# Then: scripts/image-check.sh, or podman build with the --build-arg lines
# docs/image.md shows.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/podman.sh

RUNTIME_IMAGE="${RUNTIME_IMAGE:-localhost/echoes-base:bookworm-runtime}"
BUILD_IMAGE="${BUILD_IMAGE:-localhost/echoes-base:bookworm-build}"
SUITE=bookworm
ARCH=amd64
RUST_VERSION=1.95

force=0
for arg in "$@"; do
  case "$arg" in
    --force) force=1 ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    *) die "unknown argument '$arg' (try --help)" ;;
  esac
done

[ "$(uname -m)" = x86_64 ] || die "these base images are amd64; this machine is $(uname -m)"
podman_setup
apt_install_missing debootstrap debian-archive-keyring

work="$(mktemp -d /var/tmp/echoes-base.XXXXXX)"
cleanup() {
  pm rm -f echoes-base-setup >/dev/null 2>&1 || true
  pm rmi -f localhost/echoes-base:debootstrap >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# The URL this host's apt fetches SUITE/main for amd64 from ("" if none).
host_repo() {
  apt-cache policy 2>/dev/null | awk -v s=" $1/main amd64 Packages" 'index($0, s) { print $2; exit }'
}

build_runtime() {
  local mirror security rootfs="$work/rootfs"
  mirror="${DEBIAN_MIRROR:-$(host_repo "$SUITE")}"
  security="${DEBIAN_SECURITY_MIRROR:-$(host_repo "$SUITE-security")}"
  local from="$mirror"
  [ -n "$from" ] || from="the default mirror of debootstrap"
  note "debootstrap $SUITE ($ARCH, minbase) from $from"
  local started=$SECONDS
  if ! debootstrap --variant=minbase --arch="$ARCH" \
    --include=ca-certificates,tzdata,libstdc++6,libgcc-s1 \
    "$SUITE" "$rootfs" ${mirror:+"$mirror"} >"$work/debootstrap.log" 2>&1; then
    tail -n 20 "$work/debootstrap.log" >&2
    die "debootstrap failed (the lines above; the whole log was $work/debootstrap.log)"
  fi
  note "debootstrap took $((SECONDS - started)) s"

  # Package sources for updates, and dpkg told to skip documentation, as
  # Debian's slim images do.
  if [ -n "$mirror" ]; then
    {
      echo "deb $mirror $SUITE main"
      echo "deb $mirror $SUITE-updates main"
      [ -n "$security" ] && echo "deb $security $SUITE-security main"
    } >"$rootfs/etc/apt/sources.list"
  else
    note "no $SUITE mirror known on this host: the image gets debootstrap's sources only (no security suite)"
  fi
  cat >"$rootfs/etc/dpkg/dpkg.cfg.d/excludes" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
EOF
  # The host's name server and name are not the image's.
  : >"$rootfs/etc/resolv.conf"
  rm -f "$rootfs/etc/hostname"

  tar --numeric-owner -C "$rootfs" -cf - . | pm import -q - localhost/echoes-base:debootstrap >/dev/null
  rm -rf "$rootfs"
  # Security updates and the slim clean-up in a container, then exported
  # and imported again: one layer, nothing left of the steps.
  note "installing security updates and trimming the runtime base"
  pm run --name echoes-base-setup "${CTR_OPTS[@]}" localhost/echoes-base:debootstrap bash -euc '
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get upgrade -y -qq >/dev/null
    apt-get clean
    rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/debconf/*-old /var/lib/dpkg/*-old
    find /usr/share/doc -mindepth 1 ! -type d ! -name copyright -delete
    find /usr/share/doc -mindepth 1 -type d -empty -delete
    find /usr/share/locale -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
    rm -rf /usr/share/man/* /usr/share/info/* /usr/share/groff/* /usr/share/lintian/*
    rm -rf /var/log/* /tmp/* /var/tmp/*
    : > /etc/machine-id
  ' || die "setting up the runtime base failed (the lines above)"
  pm export echoes-base-setup | pm import -q \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    --change 'CMD ["bash"]' \
    --message "Debian $SUITE $ARCH minbase runtime base for echoes" \
    - "$RUNTIME_IMAGE" >/dev/null
  pm rm -f echoes-base-setup >/dev/null
  pm rmi -f localhost/echoes-base:debootstrap >/dev/null
  note "built $RUNTIME_IMAGE ($(human_size "$(image_size "$RUNTIME_IMAGE")"))"
}

# A Rust $RUST_VERSION toolchain directory with clippy and rustfmt.
find_toolchain() {
  local candidates=() dir rustup_home="${RUSTUP_HOME:-$HOME/.rustup}"
  [ -n "${RUST_TOOLCHAIN_DIR:-}" ] && candidates+=("$RUST_TOOLCHAIN_DIR")
  if command -v rustup >/dev/null 2>&1; then
    dir="$(rustup which cargo 2>/dev/null || true)"
    [ -n "$dir" ] && candidates+=("$(dirname "$(dirname "$dir")")")
  fi
  for dir in "$rustup_home"/toolchains/"$RUST_VERSION"* "$rustup_home"/toolchains/stable-*; do
    [ -d "$dir" ] && candidates+=("$dir")
  done
  for dir in "${candidates[@]}"; do
    dir="$(readlink -f "$dir")"
    local tool lacking=0
    for tool in rustc cargo cargo-clippy rustfmt; do
      [ -x "$dir/bin/$tool" ] || lacking=1
    done
    [ "$lacking" = 0 ] || continue
    case "$("$dir/bin/rustc" --version 2>/dev/null)" in
      "rustc $RUST_VERSION".*)
        echo "$dir"
        return 0
        ;;
    esac
  done
  return 1
}

build_build() {
  local toolchain ctx="$work/build-context"
  if ! toolchain="$(find_toolchain)"; then
    command -v rustup >/dev/null 2>&1 \
      || die "no Rust $RUST_VERSION toolchain with clippy and rustfmt on this host, and no rustup: install one and re-run, or set RUST_TOOLCHAIN_DIR"
    note "installing Rust $RUST_VERSION with rustup on this host, to copy it into the build base"
    rustup toolchain install "$RUST_VERSION" --profile minimal --component clippy --component rustfmt \
      || die "rustup could not install Rust $RUST_VERSION: install it by hand, or set RUST_TOOLCHAIN_DIR"
    toolchain="$(find_toolchain)" || die "Rust $RUST_VERSION was installed but not found; set RUST_TOOLCHAIN_DIR"
  fi
  note "Rust: $("$toolchain/bin/rustc" --version) from $toolchain (its documentation left out)"
  mkdir -p "$ctx/rust" "$ctx/ca"
  local part
  for part in bin lib libexec etc; do
    [ -d "$toolchain/$part" ] && cp -a "$toolchain/$part" "$ctx/rust/"
  done
  local ca_dir="${EXTRA_CA_DIR:-/usr/local/share/ca-certificates}" crt
  for crt in "$ca_dir"/*.crt; do
    [ -f "$crt" ] || continue
    cp "$crt" "$ctx/ca/"
    note "trusting the extra certificate $(basename "$crt") in the build base"
  done
  cat >"$ctx/Containerfile" <<'EOF'
ARG RUNTIME_BASE
FROM ${RUNTIME_BASE}
# hadolint ignore=DL3008
RUN apt-get update -qq \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        build-essential cmake clang libclang-dev protobuf-compiler libprotobuf-dev \
        pkg-config curl git python3 python3-pip patchelf xz-utils >/dev/null \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/log/apt /var/log/dpkg.log
COPY ca/ /usr/local/share/ca-certificates/
RUN update-ca-certificates >/dev/null
COPY rust/ /usr/local/rust/
# As in the rust images: cargo's home (registry, git checkouts) in /usr/local/cargo.
ENV CARGO_HOME=/usr/local/cargo \
    PATH=/usr/local/cargo/bin:/usr/local/rust/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    PIP_CERT=/etc/ssl/certs/ca-certificates.crt
RUN mkdir -p /usr/local/cargo/bin \
    && rustc --version && cargo --version && cargo clippy --version && rustfmt --version \
    && cmake --version | head -n 1 && clang --version | head -n 1 && protoc --version && python3 -m pip --version
EOF
  note "building $BUILD_IMAGE"
  pm build "${CTR_OPTS[@]}" --pull=never --format docker \
    --build-arg RUNTIME_BASE="$RUNTIME_IMAGE" \
    -t "$BUILD_IMAGE" -f "$ctx/Containerfile" "$ctx" \
    || die "building $BUILD_IMAGE failed (the lines above)"
  note "built $BUILD_IMAGE ($(human_size "$(image_size "$BUILD_IMAGE")"))"
}

runtime_new=0
if [ "$force" = 1 ] || ! pm image exists "$RUNTIME_IMAGE"; then
  build_runtime
  runtime_new=1
else
  note "$RUNTIME_IMAGE is there (--force rebuilds it)"
fi
if [ "$force" = 1 ] || [ "$runtime_new" = 1 ] || ! pm image exists "$BUILD_IMAGE"; then
  build_build
else
  note "$BUILD_IMAGE is there (--force rebuilds it)"
fi
for image in "$RUNTIME_IMAGE" "$BUILD_IMAGE"; do
  printf '%-45s %s\n' "$image" "$(human_size "$(image_size "$image")")"
done
