#!/usr/bin/env bash
# Reproduces the server figures in docs/benchmarks.md: wrk (Debian) at 64 connections against
# `statehub serve` (release build) for the manifest (random users), a theme 304, a 20 KB
# bundle and a 16 KB asset (img/logo.png, docs/server.md "Assets"), on SQLite and on PostgreSQL
# (started by scripts/with-postgres.sh); prints requests/s, p99 and the server's resident memory
# after the runs. A run with any non-2xx/3xx answer fails the script (a figure over errors is void).
# Each run first measures the baseline, a bare Hummingbird server with one fixed route on the same
# event loops (`statehub bench http-baseline`), and prints every route's requests/s as a ratio to it.
# Usage: scripts/bench-server.sh [seconds per run, default 10] [sqlite|postgres|both]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
which_backend=${2:-both}
bin=${STATEHUB_BIN:-.build/release/statehub}
[ -x "$bin" ] || swift build -c release --product statehub
command -v wrk >/dev/null || { echo "bench-server: wrk is missing (apt-get install wrk)" >&2; exit 1; }

if [ "$which_backend" = both ]; then
  bash "$0" "$seconds" sqlite
  exec bash scripts/with-postgres.sh bash "$0" "$seconds" postgres
fi

dir=$(mktemp -d /tmp/statehub-bench.XXXXXX)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
port=$(free_port)
token="bench-$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
if [ "$which_backend" = postgres ]; then
  storage=(--database "${STATEHUB_TEST_DATABASE_URL:?run through scripts/with-postgres.sh}")
else
  storage=(--data "$dir/data")
fi
STATEHUB_ADMIN_TOKEN="$token" "$bin" serve "${storage[@]}" --port "$port" --log-level error >"$dir/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$dir"' EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 100); do curl -fs "$base/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

auth=(-H "Authorization: Bearer $token" -H "Content-Type: application/json")
python3 - "$dir/upload.json" <<'PY'
import base64, json, random, sys
bundle = "globalThis.app = {" + ",".join(f'"k{i}": "{"x" * 40}"' for i in range(400)) + "};"
logo = base64.b64encode(random.Random(14).randbytes(16384)).decode()
json.dump({"bundle": bundle, "stylesheet": "body{margin:0}", "minNativeVersion": "1.0.0",
           "assets": [{"path": "img/logo.png", "data": logo}]}, open(sys.argv[1], "w"))
PY
curl -fs "${auth[@]}" -X PUT "$base/admin/apps/cart/versions/1.0.0" --data-binary @"$dir/upload.json" >/dev/null
sed 's/globalThis.app/globalThis.app2/' "$dir/upload.json" > "$dir/upload2.json"
curl -fs "${auth[@]}" -X PUT "$base/admin/apps/cart/versions/1.1.0" --data-binary @"$dir/upload2.json" >/dev/null
curl -fs "${auth[@]}" -X PUT "$base/admin/apps/cart/release" -d '{"stable":"1.0.0","arms":[{"version":"1.1.0","percent":20}]}' >/dev/null
curl -fs "${auth[@]}" -X PUT "$base/admin/themes/1.1.0" --data-binary @examples/themes/standard.json >/dev/null
curl -fs "${auth[@]}" -X POST "$base/admin/themes/1.1.0/publish" >/dev/null
etag=$(curl -fs -D - -o /dev/null "$base/themes/current?nativeVersion=1.0.0" | tr -d '\r' | awk -F': ' 'tolower($1)=="etag"{print $2}')
bundle_size=$(curl -fs "$base/apps/cart/1.0.0/bundle.js" | wc -c)
asset_size=$(curl -fs "$base/apps/cart/1.0.0/img/logo.png" | wc -c)

cat > "$dir/manifest.lua" <<'LUA'
request = function()
  return wrk.format("GET", "/apps/cart/manifest?user=u" .. math.random(1, 1000000) .. "&nativeVersion=1.2.0")
end
LUA

baseline_rps=
run() { # name, wrk arguments...
  local name=$1; shift
  wrk -t2 -c64 -d"${seconds}s" --latency "$@" > "$dir/wrk.txt" 2>&1 || { cat "$dir/wrk.txt" >&2; exit 1; }
  local rps p99 non2xx ratio
  rps=$(awk '/Requests\/sec/{print $2}' "$dir/wrk.txt")
  p99=$(awk '$1=="99%"{print $2}' "$dir/wrk.txt")
  non2xx=$(awk '/Non-2xx/{print $5}' "$dir/wrk.txt")
  [ -n "$baseline_rps" ] || baseline_rps=$rps
  ratio=$(awk -v a="$rps" -v b="$baseline_rps" 'BEGIN{printf "%.2f", a / b}')
  printf '%-10s %-12s %12s req/s   %5sx baseline   p99 %8s   non-2xx/3xx %s\n' "$which_backend" "$name" "$rps" "$ratio" "$p99" "${non2xx:-0}"
  if [ "${non2xx:-0}" != 0 ]; then echo "bench-server: $name had error answers; see $dir/server.log" >&2; exit 1; fi
}

# The baseline first, alone on the machine: the bare HTTP stack's ceiling for this run.
baseline_port=$(free_port)
"$bin" bench http-baseline --port "$baseline_port" >"$dir/baseline.log" 2>&1 &
baseline=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$baseline_port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
run baseline "http://127.0.0.1:$baseline_port/healthz"
kill $baseline; wait $baseline 2>/dev/null || true

curl -fs -o /dev/null "$base/apps/cart/manifest?user=warm&nativeVersion=1.2.0"
run healthz "$base/healthz"
run manifest -s "$dir/manifest.lua" "$base"
run theme-304 -H "If-None-Match: $etag" "$base/themes/current?nativeVersion=1.0.0"
run bundle "$base/apps/cart/1.0.0/bundle.js"
run asset "$base/apps/cart/1.0.0/img/logo.png"
rss=$(ps -o rss= -p "$server" | tr -d ' ')
printf '%-10s server RSS after the runs: %s MiB (bundle %s bytes, asset %s bytes)\n' "$which_backend" "$((rss / 1024))" "$bundle_size" "$asset_size"
