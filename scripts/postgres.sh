# Sourced by test.sh: a PostgreSQL server for the store's tests.
#
# `postgres_for_tests` exports ECHOES_TEST_POSTGRES (a URL whose user may
# CREATE DATABASE) and ECHOES_TEST_PG_BIN (the directory holding initdb and
# pg_ctl, for tests that start and stop a server of their own). A server
# already answering at ECHOES_TEST_POSTGRES (default
# postgres://postgres@127.0.0.1:5432/test) is used as it is; otherwise a
# throwaway one is made: initdb into a temporary directory as an
# unprivileged user, trust auth on 127.0.0.1 and a free port, stopped and
# removed when the calling shell exits. Debian's `postgresql` package is
# installed when the binaries are missing and apt-get can run.

pg_bin_dir() {
  local dir
  for dir in "${ECHOES_TEST_PG_BIN:-}" $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r) /usr/local/pgsql/bin; do
    [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && { echo "$dir"; return 0; }
  done
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v initdb)")"
    return 0
  fi
  return 1
}

pg_answers() {
  python3 - "$1" <<'PY'
import socket, sys, urllib.parse
url = urllib.parse.urlparse(sys.argv[1])
try:
    socket.create_connection((url.hostname or "127.0.0.1", url.port or 5432), timeout=3).close()
except OSError:
    sys.exit(1)
PY
}

postgres_for_tests() {
  local bin
  if ! bin=$(pg_bin_dir); then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
      echo "installing PostgreSQL (Debian's postgresql package) for the store's tests..." >&2
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null 2>&1 \
        || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; }
    fi
    bin=$(pg_bin_dir) || bin=""
  fi
  [ -n "$bin" ] && export ECHOES_TEST_PG_BIN="$bin"
  export ECHOES_TEST_POSTGRES="${ECHOES_TEST_POSTGRES:-postgres://postgres@127.0.0.1:5432/test}"
  if pg_answers "$ECHOES_TEST_POSTGRES"; then
    return 0
  fi
  if [ -z "$bin" ]; then
    echo "PostgreSQL is not answering at $ECHOES_TEST_POSTGRES and initdb/pg_ctl are missing: install Debian's postgresql package (sudo apt-get install postgresql), or point ECHOES_TEST_POSTGRES at a server where the user may CREATE DATABASE." >&2
    return 1
  fi
  echo "no PostgreSQL at $ECHOES_TEST_POSTGRES: starting a throwaway server ($bin)" >&2
  start_throwaway_postgres "$bin"
}

start_throwaway_postgres() {
  local bin=$1 owner="" port
  ECHOES_PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/echoes-pg.XXXXXX")
  if [ "$(id -u)" = 0 ]; then
    # initdb refuses to run as root: the server runs as an unprivileged user.
    owner=$(id -u postgres >/dev/null 2>&1 && echo postgres || echo nobody)
    chown "$owner" "$ECHOES_PG_DIR"
    chmod 0700 "$ECHOES_PG_DIR"
  fi
  as_owner() { if [ -n "$owner" ]; then runuser -u "$owner" -- "$@"; else "$@"; fi; }
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  as_owner "$bin/initdb" -D "$ECHOES_PG_DIR/data" -U postgres --auth=trust -E UTF8 --no-sync >"$ECHOES_PG_DIR/initdb.log" 2>&1 \
    || { cat "$ECHOES_PG_DIR/initdb.log" >&2; return 1; }
  as_owner "$bin/pg_ctl" -D "$ECHOES_PG_DIR/data" -l "$ECHOES_PG_DIR/server.log" -w \
    -o "-p $port -k $ECHOES_PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" start >/dev/null \
    || { cat "$ECHOES_PG_DIR/server.log" >&2; return 1; }
  ECHOES_PG_OWNER=$owner
  export ECHOES_PG_DIR ECHOES_PG_OWNER
  trap stop_throwaway_postgres EXIT
  "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres test
  export ECHOES_TEST_POSTGRES="postgres://postgres@127.0.0.1:$port/test"
  echo "throwaway PostgreSQL at $ECHOES_TEST_POSTGRES (data in $ECHOES_PG_DIR)" >&2
}

stop_throwaway_postgres() {
  [ -n "${ECHOES_PG_DIR:-}" ] || return 0
  if [ -n "${ECHOES_PG_OWNER:-}" ]; then
    runuser -u "$ECHOES_PG_OWNER" -- "$ECHOES_TEST_PG_BIN/pg_ctl" -D "$ECHOES_PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  else
    "$ECHOES_TEST_PG_BIN/pg_ctl" -D "$ECHOES_PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  fi
  rm -rf "$ECHOES_PG_DIR"
}
