# shellcheck shell=bash
# Sourced by base-images.sh and image-check.sh: podman, run as root on a
# machine with no image registry and no systemd (a VM or a container).
#
# What works there, and is used here:
# - storage: the driver podman picks (overlay on ext4 or xfs); `vfs` when
#   podman cannot start with it (ECHOES_PODMAN_STORAGE=vfs forces it);
# - cgroups: `--cgroup-manager=cgroupfs` (no systemd to ask); on cgroup v1
#   or a hybrid layout, the runtime runc (`--runtime runc`): crun 1.8 stops
#   with "cgroups in hybrid mode not supported" where the v2 hierarchy
#   holds a controller (ECHOES_PODMAN_RUNTIME names another);
# - events: `--events-backend=file` (no journald);
# - network: `--network host` for builds and containers (no bridge, netavark
#   or slirp4netns needed; a container reaches the host's PostgreSQL on
#   127.0.0.1 and the package repositories the host reaches);
# - limits: `--ulimit nofile=N:N` with this shell's hard limit and
#   `--ulimit nproc=M:M` (at most 32768): as root podman asks for more than
#   that, which fails ("setrlimit RLIMIT_NOFILE: Operation not permitted")
#   where root lacks CAP_SYS_RESOURCE;
# - health checks: run by hand with `podman healthcheck run` (no systemd
#   timers: containers start with `--health-interval=disable`).
# Installs podman from Debian's packages when it is missing.

# The global options every podman call here gets, and the options of
# every `podman build` and `podman run`.
PODMAN_OPTS=()
CTR_OPTS=()

die() {
  echo "error: $*" >&2
  exit 1
}

note() {
  echo "· $*" >&2
}

# Installs Debian packages that are missing (needs root and apt-get).
apt_install_missing() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  command -v apt-get >/dev/null 2>&1 || die "missing: ${missing[*]}; install them with your package manager and re-run"
  [ "$(id -u)" = 0 ] || die "missing: ${missing[*]}; install them (sudo apt-get install ${missing[*]}) and re-run"
  note "installing ${missing[*]} from Debian's packages"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
      || die "apt-get could not install ${missing[*]}"
  fi
}

# Podman with its runtimes and the helpers a
# rootless user would need too; then the options that work on this machine.
podman_setup() {
  [ "$(id -u)" = 0 ] || die "run this as root: the images are built with rootful podman (debootstrap needs root too)"
  apt_install_missing podman crun uidmap fuse-overlayfs slirp4netns
  PODMAN_OPTS=(--cgroup-manager=cgroupfs --events-backend=file)
  local runtime="${ECHOES_PODMAN_RUNTIME:-}"
  if [ -z "$runtime" ] && [ "$(stat -fc %T /sys/fs/cgroup 2>/dev/null)" != cgroup2fs ]; then
    runtime=runc
  fi
  if [ -n "$runtime" ]; then
    [ "$runtime" = runc ] && apt_install_missing runc
    PODMAN_OPTS+=(--runtime "$runtime")
  fi
  if [ -n "${ECHOES_PODMAN_STORAGE:-}" ]; then
    PODMAN_OPTS+=(--storage-driver="$ECHOES_PODMAN_STORAGE")
  elif ! podman "${PODMAN_OPTS[@]}" info >/dev/null 2>&1; then
    note "podman does not start with its default storage driver; using vfs (slower, more disk)"
    PODMAN_OPTS+=(--storage-driver=vfs)
  fi
  local nofile nproc
  nofile="$(ulimit -Hn)"
  [ "$nofile" = unlimited ] && nofile=1048576
  nproc="$(ulimit -Hu)"
  { [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ]; } && nproc=32768
  # shellcheck disable=SC2034 # used by the scripts that source this file
  CTR_OPTS=(--network host --ulimit "nofile=$nofile:$nofile" --ulimit "nproc=$nproc:$nproc")
  local err
  if ! err=$(podman "${PODMAN_OPTS[@]}" info 2>&1 >/dev/null); then
    die "podman does not start (${PODMAN_OPTS[*]}): $(tail -n 3 <<<"$err")"
  fi
  note "podman $(podman --version | awk '{print $3}'): runtime $(pm info --format '{{.Host.OCIRuntime.Name}}'), storage $(pm info --format '{{.Store.GraphDriverName}}'), cgroups $(pm info --format '{{.Host.CgroupsVersion}}') by cgroupfs, events to a file, host network, ulimits nofile=$nofile nproc=$nproc"
}

# podman with the options podman_setup chose.
pm() {
  podman "${PODMAN_OPTS[@]}" "$@"
}

# An image's size in bytes, and in MB for people.
image_size() {
  pm image inspect --format '{{.Size}}' "$1"
}

human_size() {
  awk -v b="$1" 'BEGIN { printf "%.0f MB", b / 1000000 }'
}
