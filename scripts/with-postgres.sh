#!/usr/bin/env bash
# Runs a command beside a throwaway PostgreSQL: initdb in a temporary folder, pg_ctl on a free
# loopback port (as the `postgres` user when run as root: initdb refuses root), exports
# STATEHUB_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:PORT/postgres, runs "$@", then stops
# the server and removes the folder. Usage: scripts/with-postgres.sh swift test --skip-build ...
set -euo pipefail

PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ]; then
  echo "with-postgres: PostgreSQL is not installed (scripts/ensure-deps.sh installs it)" >&2
  exit 1
fi

dir=$(mktemp -d /tmp/statehub-pg.XXXXXX)
as_pg=()
if [ "$(id -u)" -eq 0 ]; then
  chown postgres "$dir"
  as_pg=(runuser -u postgres --)
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')

stop() {
  "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

"${as_pg[@]}" "$PG_BIN/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
"${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=200" start >/dev/null \
  || { cat "$dir/server.log" >&2; exit 1; }

export STATEHUB_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
echo "with-postgres: PostgreSQL on 127.0.0.1:$port" >&2
"$@"
