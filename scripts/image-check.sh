#!/usr/bin/env bash
# Builds the image and checks that it runs: not part of CI (it builds
# `echoes` in release mode, which takes long on a small machine).
#
#  1. the local base images (scripts/base-images.sh) when missing;
#  2. `podman build` of the Dockerfile on them (tag localhost/echoes:check);
#  3. a PostgreSQL database for it: a new database on the server at
#     127.0.0.1:5432 (trust auth, user postgres) when one answers, else a
#     throwaway server from this host's PostgreSQL binaries;
#  4. `echoes serve --discord` in a container, on the host's network, on
#     the model inside the image (an Ollama on the host is not asked), with
#     a placeholder token and Discord's hosts pointed at 127.0.0.1: serve
#     needs a platform, and without a reachable Discord its gateway
#     connection fails and is retried while the ops endpoint answers (as
#     during an outage); the check needs no token and no network;
#  5. waits for GET /healthz, /livez and /readyz to answer 200 and runs the
#     image's HEALTHCHECK (`podman healthcheck run`); prints the time from
#     start to healthy and the image size;
#  6. plays a scripted Turtle Soup game inside the container (`podman exec`,
#     `echoes play --script /dev/stdin`) on the model built into the image
#     and checks its transcript; stops the container (SIGTERM must end
#     serve with status 0) and removes it.
# Exits non-zero, with the reason, on the first failure.
#
# Usage: scripts/image-check.sh [--no-build]
#   --no-build  check the image already tagged localhost/echoes:check.
# Environment:
#   MODELS=auto|small|none      the build argument (default auto);
#   ECHOES_CHECK_DATABASE=URL   use this PostgreSQL database as it is
#                               (=throwaway: start a throwaway server);
#   ECHOES_CHECK_READYZ=report  report /readyz without requiring 200;
#   ECHOES_CHECK_TIMEOUT=SECS   how long to wait for health (default 180);
#   ECHOES_PODMAN_STORAGE, ECHOES_PODMAN_RUNTIME (scripts/podman.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/podman.sh

IMAGE="${IMAGE:-localhost/echoes:check}"
RUNTIME_IMAGE="${RUNTIME_IMAGE:-localhost/echoes-base:bookworm-runtime}"
BUILD_IMAGE="${BUILD_IMAGE:-localhost/echoes-base:bookworm-build}"
MODELS="${MODELS:-auto}"
TIMEOUT="${ECHOES_CHECK_TIMEOUT:-180}"

build=1
for arg in "$@"; do
  case "$arg" in
    --no-build) build=0 ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    *) die "unknown argument '$arg' (try --help)" ;;
  esac
done

podman_setup
command -v curl >/dev/null 2>&1 || apt_install_missing curl

work="$(mktemp -d /var/tmp/echoes-check.XXXXXX)"
container="echoes-check-$$"
db_drop=""
pg_dir=""
pg_bin=""
cleanup() {
  local status=$?
  pm rm -f -t 2 "$container" >/dev/null 2>&1 || true
  if [ -n "$db_drop" ]; then
    psql -h 127.0.0.1 -p 5432 -U postgres -d postgres -qAtc "DROP DATABASE IF EXISTS \"$db_drop\"" >/dev/null 2>&1 || true
  fi
  if [ -n "$pg_dir" ]; then
    runuser -u postgres -- "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$pg_dir"
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT

# Seconds since the epoch, with fractions.
now() {
  date +%s.%N
}

since() {
  awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'
}

# The HTTP status of GET url ("000" when nothing answers).
status_of() {
  curl -s -o "$work/body" -w '%{http_code}' --max-time 3 "$1" 2>/dev/null || true
}

# --- 1, 2: the base images and the image ---------------------------------
if [ "$build" = 1 ]; then
  [ -f scripts/release.sh ] || die "scripts/release.sh is missing: the image's build stage runs it to build the release binary and its libraries"
  if ! pm image exists "$RUNTIME_IMAGE" || ! pm image exists "$BUILD_IMAGE"; then
    note "the local base images are missing: building them (scripts/base-images.sh)"
    scripts/base-images.sh
  fi
  note "building $IMAGE (MODELS=$MODELS; a cold release build takes long on 2 cores)"
  started="$(now)"
  if ! pm build "${CTR_OPTS[@]}" --pull=never --format docker \
    --build-arg BUILD_BASE="$BUILD_IMAGE" \
    --build-arg RUNTIME_BASE="$RUNTIME_IMAGE" \
    --build-arg MODELS="$MODELS" \
    -t "$IMAGE" -f Dockerfile . 2>&1 | tee "$work/build.log"; then
    die "podman build failed (the lines above)"
  fi
  note "built $IMAGE in $(since "$started") s"
else
  pm image exists "$IMAGE" || die "$IMAGE does not exist: run without --no-build"
fi
size="$(image_size "$IMAGE")"
[ "$(pm image inspect --format '{{json .Config.Healthcheck}}' "$IMAGE")" != null ] \
  || die "$IMAGE has no HEALTHCHECK (podman builds need --format docker to keep it)"

# --- 3: PostgreSQL --------------------------------------------------------
free_port() {
  local port="$1"
  while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
    port=$((port + 1))
  done
  echo "$port"
}

db_choice="${ECHOES_CHECK_DATABASE:-}"
if [ -n "$db_choice" ] && [ "$db_choice" != throwaway ]; then
  db_url="$db_choice"
  note "PostgreSQL: the database given in ECHOES_CHECK_DATABASE"
elif [ -z "$db_choice" ] && command -v pg_isready >/dev/null 2>&1 && pg_isready -q -h 127.0.0.1 -p 5432 \
  && psql -h 127.0.0.1 -p 5432 -U postgres -d postgres -qAtc 'SELECT 1' >/dev/null 2>&1; then
  db_drop="echoes_image_check_$$"
  psql -h 127.0.0.1 -p 5432 -U postgres -d postgres -qAtc "CREATE DATABASE \"$db_drop\"" >/dev/null \
    || die "could not create the database $db_drop on 127.0.0.1:5432"
  db_url="postgres://postgres@127.0.0.1:5432/$db_drop"
  note "PostgreSQL: a new database $db_drop on 127.0.0.1:5432 (dropped at the end)"
else
  pg_bin="$(find /usr/lib/postgresql -maxdepth 3 -name initdb -path '*/bin/*' 2>/dev/null | sort -V | tail -n 1 | xargs -r dirname)"
  if [ -z "$pg_bin" ] || ! id postgres >/dev/null 2>&1; then
    die "no PostgreSQL answers on 127.0.0.1:5432 and none is installed here to start: install postgresql, or set ECHOES_CHECK_DATABASE=postgres://..."
  fi
  pg_dir="$(mktemp -d /var/tmp/echoes-check-pg.XXXXXX)"
  chown postgres: "$pg_dir"
  pg_port="$(free_port 25432)"
  runuser -u postgres -- "$pg_bin/initdb" -D "$pg_dir/data" -A trust -U postgres >"$work/initdb.log" 2>&1 \
    || { cat "$work/initdb.log" >&2; die "initdb failed"; }
  runuser -u postgres -- "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w \
    -o "-p $pg_port -k $pg_dir -c listen_addresses=127.0.0.1" start >/dev/null \
    || { cat "$pg_dir/log" >&2; die "the throwaway PostgreSQL did not start"; }
  "$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -qAtc 'CREATE DATABASE echoes' >/dev/null
  db_url="postgres://postgres@127.0.0.1:$pg_port/echoes"
  note "PostgreSQL: a throwaway server on 127.0.0.1:$pg_port"
fi

# --- 4: serve -------------------------------------------------------------
port="$(free_port 19464)"
base="http://127.0.0.1:$port"
note "starting $container: echoes serve --discord, ops endpoint on 127.0.0.1:$port"
started="$(now)"
pm run -d --name "$container" "${CTR_OPTS[@]}" --health-interval=disable \
  --add-host discord.com:127.0.0.1 --add-host gateway.discord.gg:127.0.0.1 \
  -e DISCORD_TOKEN=image-check-placeholder \
  -e ECHOES__STORAGE__DATABASE="$db_url" \
  -e ECHOES__STORAGE__INSTANCE=image-check \
  -e ECHOES__LLM__PROVIDER=local \
  -e ECHOES__OPS__BIND="127.0.0.1:$port" \
  "$IMAGE" serve --discord >"$work/run.out" 2>"$work/run.err" \
  || { grep -v systemd "$work/run.err" >&2 || true; die "podman run failed"; }

logs() {
  echo "--- the container's log (last 40 lines) ---" >&2
  pm logs --tail 40 "$container" >&2 2>&1 || true
}

running() {
  [ "$(pm inspect --format '{{.State.Running}}' "$container" 2>/dev/null)" = true ]
}

# --- 5: health --------------------------------------------------------------
deadline=$((SECONDS + TIMEOUT))
code=000
while [ "$SECONDS" -lt "$deadline" ]; do
  code="$(status_of "$base/healthz")"
  [ "$code" = 200 ] && break
  if ! running; then
    logs
    die "the container stopped before /healthz answered 200"
  fi
  sleep 0.25
done
if [ "$code" != 200 ]; then
  logs
  die "/healthz did not answer 200 within $TIMEOUT s (last: HTTP $code: $(head -c 300 "$work/body" 2>/dev/null))"
fi
healthy_after="$(since "$started")"
note "/healthz: 200 after $healthy_after s"

for path in /livez /readyz /metrics; do
  code=000
  while [ "$SECONDS" -lt "$deadline" ]; do
    code="$(status_of "$base$path")"
    { [ "$code" = 200 ] || [ "$code" = 404 ]; } && break
    running || { logs; die "the container stopped while $path answered HTTP $code"; }
    sleep 0.5
  done
  case "$code" in
    200) note "$path: 200 after $(since "$started") s" ;;
    404) note "$path: not served by this build (404)" ;;
    *)
      if [ "$path" = /readyz ] && [ "${ECHOES_CHECK_READYZ:-}" = report ]; then
        note "/readyz: HTTP $code ($(head -c 300 "$work/body")), reported only (ECHOES_CHECK_READYZ=report)"
      else
        logs
        die "$path did not answer 200 within $TIMEOUT s (last: HTTP $code: $(head -c 300 "$work/body" 2>/dev/null)); /readyz waits for the database, the knowledge index and the model; ECHOES_CHECK_READYZ=report reports it without requiring 200, a longer ECHOES_CHECK_TIMEOUT waits longer"
      fi
      ;;
  esac
done

if ! pm healthcheck run "$container" >"$work/hc.out" 2>&1; then
  cat "$work/hc.out" >&2
  logs
  die "the image's HEALTHCHECK (echoes healthcheck) failed"
fi
note "HEALTHCHECK (echoes healthcheck): $(pm inspect --format '{{.State.Health.Status}}' "$container")"

# --- 6: a scripted game ------------------------------------------------------
cat >"$work/game.txt" <<'EOF'
# questions, a hint, the status, giving up
Was the man related to Ana?
Had Ana and the man met before that day?
/hint
/status
/giveup
EOF
note "playing a scripted game in the container"
game_started="$(now)"
if ! pm exec -i "$container" echoes --config /etc/echoes/config.toml \
  play en-arrivals-sign --name ImageCheck --script /dev/stdin \
  <"$work/game.txt" >"$work/play.out" 2>"$work/play.err"; then
  cat "$work/play.err" "$work/play.out" >&2
  die "echoes play failed in the container"
fi
game_took="$(since "$game_started")"
for expected in "Her Own Name" "> Was the man related to Ana?" "Hint 1/3" "You gave up"; do
  grep -qF -- "$expected" "$work/play.out" || {
    cat "$work/play.out" "$work/play.err" >&2
    die "the game's output lacks \"$expected\" (the output above)"
  }
done
grep -qF "running in this process" "$work/play.err" || {
  cat "$work/play.err" >&2
  die "the game did not play on the in-process model (its notice is above)"
}
grep -qF "transcript: " "$work/play.err" || {
  cat "$work/play.err" >&2
  die "the game wrote no transcript"
}
note "the game played to its end in $game_took s: $(grep -m1 -F 'model:' "$work/play.err" | cut -c1-120)"
running || { logs; die "the serve container stopped during the game"; }
pm exec "$container" echoes --config /etc/echoes/config.toml models list >"$work/models.txt" 2>&1 || true

# SIGTERM (podman stop) ends serve cleanly, with exit status 0.
stop_started="$(now)"
pm stop -t 30 "$container" >/dev/null 2>&1 || true
exit_code="$(pm inspect --format '{{.State.ExitCode}}' "$container")"
stop_took="$(since "$stop_started")"
if [ "$exit_code" != 0 ]; then
  logs
  die "serve exited with status $exit_code on SIGTERM"
fi
note "serve stopped on SIGTERM in $stop_took s, exit status 0"

echo
echo "image:             $IMAGE"
echo "image size:        $size bytes ($(human_size "$size"))"
echo "start to healthy:  $healthy_after s"
echo "scripted game:     $game_took s"
echo "models inside:"
sed 's/^/  /' "$work/models.txt"
echo "image check passed"
