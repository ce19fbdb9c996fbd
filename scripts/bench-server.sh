#!/usr/bin/env bash
# Reproduces the server figures in docs/benchmarks.md: wrk (Debian) at 64 connections against
# `statehub serve` (release build) for the manifest (random users), a theme 304, a 20 KB
# bundle and a 16 KB asset (img/logo.png, docs/server.md "Assets"), on SQLite and on PostgreSQL
# (started by scripts/with-postgres.sh); prints requests/s, p99 and the server's resident memory
# after the runs, and the server CPU time per request (from /proc: robust to a loaded machine where
# requests/s is not). A run with any non-2xx/3xx answer fails the script (a figure over errors is void).
# Each run first measures the baseline, a bare Hummingbird server with one fixed route on the same
# event loops (`statehub bench http-baseline`), and prints every route's requests/s as a ratio to it.
# `variants` instead of a backend measures the baseline with parts of serve's stack added one at a
# time (`statehub bench http-baseline --parts …`, docs/benchmarks.md "Where the third went"),
# ROUNDS times (default 3), each round starting at another variant, and prints each variant's median
# requests/s and CPU time per request over the rounds as ratios to the bare baseline's medians.
# Usage: scripts/bench-server.sh [seconds per run, default 10] [sqlite|postgres|both|variants]
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

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }

# CPU seconds (user + system) a process has used so far, from /proc (clock ticks, usually 100 a second).
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$1/stat"; }

if [ "$which_backend" = variants ]; then
  dir=$(mktemp -d /tmp/statehub-bench.XXXXXX)
  trap 'rm -rf "$dir"' EXIT
  variants=(bare ws head-guards body-guard cap middleware middleware,metrics logger router,metrics
            ws,head-guards,body-guard,cap,router,metrics,logger)
  [ -z "${VARIANTS:-}" ] || read -r -a variants <<<"$VARIANTS"
  : > "$dir/results.tsv"
  for round in $(seq "${ROUNDS:-3}"); do
    # Each round starts at another variant, so no variant always meets the same minute of load.
    count=${#variants[@]}
    for i in $(seq 0 $((count - 1))); do
      parts=${variants[$(((i + round - 1) % count))]}
      port=$(free_port)
      flag=(); [ "$parts" = bare ] || flag=(--parts "$parts" --data "$dir/data-$round-$i")
      "$bin" bench http-baseline --port "$port" "${flag[@]}" >"$dir/variant.log" 2>&1 &
      pid=$!
      for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
      cpu0=$(cpu_seconds $pid)
      wrk -t2 -c64 -d"${seconds}s" --latency "http://127.0.0.1:$port/healthz" > "$dir/wrk.txt" 2>&1 || { cat "$dir/wrk.txt" "$dir/variant.log" >&2; exit 1; }
      cpu1=$(cpu_seconds $pid)
      kill $pid; wait $pid 2>/dev/null || true
      requests=$(awk '/requests in/{print $1}' "$dir/wrk.txt")
      rps=$(awk '/Requests\/sec/{print $2}' "$dir/wrk.txt")
      p99=$(awk '$1=="99%"{print $2}' "$dir/wrk.txt")
      us=$(awk -v a="$cpu0" -v b="$cpu1" -v n="$requests" 'BEGIN{printf "%.1f", (b - a) * 1e6 / n}')
      printf 'round %s  %-52s %10s req/s  %6s µs CPU/request  p99 %8s  load %s\n' "$round" "$parts" "$rps" "$us" "$p99" "$(cut -d' ' -f1 /proc/loadavg)"
      printf '%s\t%s\t%s\n' "$parts" "$rps" "$us" >> "$dir/results.tsv"
    done
  done
  # Medians over the rounds, and their ratios to the bare baseline's medians.
  python3 - "$dir/results.tsv" <<'PY'
import statistics, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
names = list(dict.fromkeys(r[0] for r in rows))
med = {n: (statistics.median(float(r[1]) for r in rows if r[0] == n),
           statistics.median(float(r[2]) for r in rows if r[0] == n)) for n in names}
rps0, us0 = med["bare"]
print(f"{'parts':52} {'median req/s':>12} {'ratio':>6} {'median µs CPU/req':>18} {'ratio':>6}")
for n in names:
    rps, us = med[n]
    print(f"{n:52} {rps:12.0f} {rps / rps0:6.2f} {us:18.1f} {us / us0:6.2f}")
PY
  exit 0
fi

dir=$(mktemp -d /tmp/statehub-bench.XXXXXX)
 { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
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
baseline_us=
run() { # name, server pid, wrk arguments...
  local name=$1 pid=$2; shift 2
  local cpu0 cpu1 requests us us_ratio
  cpu0=$(cpu_seconds "$pid")
  wrk -t2 -c64 -d"${seconds}s" --latency "$@" > "$dir/wrk.txt" 2>&1 || { cat "$dir/wrk.txt" >&2; exit 1; }
  cpu1=$(cpu_seconds "$pid")
  requests=$(awk '/requests in/{print $1}' "$dir/wrk.txt")
  us=$(awk -v a="$cpu0" -v b="$cpu1" -v n="$requests" 'BEGIN{printf "%.1f", (b - a) * 1e6 / n}')
  [ -n "$baseline_us" ] || baseline_us=$us
  us_ratio=$(awk -v a="$us" -v b="$baseline_us" 'BEGIN{printf "%.2f", a / b}')
  local rps p99 non2xx ratio
  rps=$(awk '/Requests\/sec/{print $2}' "$dir/wrk.txt")
  p99=$(awk '$1=="99%"{print $2}' "$dir/wrk.txt")
  non2xx=$(awk '/Non-2xx/{print $5}' "$dir/wrk.txt")
  [ -n "$baseline_rps" ] || baseline_rps=$rps
  ratio=$(awk -v a="$rps" -v b="$baseline_rps" 'BEGIN{printf "%.2f", a / b}')
  printf '%-10s %-12s %12s req/s   %5sx baseline   p99 %8s   %6s µs CPU/request (%sx baseline)   non-2xx/3xx %s   load %s\n' \
    "$which_backend" "$name" "$rps" "$ratio" "$p99" "$us" "$us_ratio" "${non2xx:-0}" "$(cut -d' ' -f1 /proc/loadavg)"
  if [ "${non2xx:-0}" != 0 ]; then echo "bench-server: $name had error answers; see $dir/server.log" >&2; exit 1; fi
}

# The baseline first, alone on the machine: the bare HTTP stack's ceiling for this run.
baseline_port=$(free_port)
"$bin" bench http-baseline --port "$baseline_port" >"$dir/baseline.log" 2>&1 &
baseline=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$baseline_port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
run baseline $baseline "http://127.0.0.1:$baseline_port/healthz"
kill $baseline; wait $baseline 2>/dev/null || true

curl -fs -o /dev/null "$base/apps/cart/manifest?user=warm&nativeVersion=1.2.0"
run healthz $server "$base/healthz"
run manifest $server -s "$dir/manifest.lua" "$base"
run theme-304 $server -H "If-None-Match: $etag" "$base/themes/current?nativeVersion=1.0.0"
run bundle $server "$base/apps/cart/1.0.0/bundle.js"
run asset $server "$base/apps/cart/1.0.0/img/logo.png"
rss=$(ps -o rss= -p "$server" | tr -d ' ')
printf '%-10s server RSS after the runs: %s MiB (bundle %s bytes, asset %s bytes)\n' "$which_backend" "$((rss / 1024))" "$bundle_size" "$asset_size"
