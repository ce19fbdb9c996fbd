#!/usr/bin/env bash
# Sync broadcast benchmark, side by side in one run (docs/sync.md §5, docs/benchmarks.md):
# `statehub serve` (our y-websocket endpoint, SQLite, every update broadcast when applied and
# acknowledged once stored) and Yjs's own `y-websocket` server (in memory, no persistence), each measured by
# scripts/bench-sync.cjs: latency from one update to all receivers (p50/p99), burst throughput
# to the receivers, server memory per open document.
#   scripts/bench-sync.sh [path/to/statehub]     (default .build/debug/statehub: a DEBUG build)
# Environment: RECEIVERS (100), BURST (500), ROUNDS (200), DOCUMENTS (200);
#   REPEATS (1): pairs of runs, ours then theirs, each pair with fresh servers; with more than one,
#     every pair's ratios and the medians are printed;
#   PIN (unset): `PIN=1` runs each server on CPU 1 and the node client on CPU 0 (taskset), so the
#     client that counts deliveries does not take the server's core (docs/benchmarks.md, "Sync").
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/debug/statehub}
case "$binary" in *release*) build=release ;; *) build=debug ;; esac
receivers=${RECEIVERS:-100} burst=${BURST:-500} rounds=${ROUNDS:-200} documents=${DOCUMENTS:-200}
export NODE_PATH=/usr/share/nodejs
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
wait_port() { for _ in $(seq 1 200); do (echo > "/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.05; done; echo "port $1 never opened" >&2; return 1; }

repeats=${REPEATS:-1}
server_cpu=() client_cpu=()
if [ "${PIN:-}" = 1 ]; then server_cpu=(taskset -c 1) client_cpu=(taskset -c 0); fi
data=$(mktemp -d /tmp/statehub-bench-sync.XXXXXX)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; rm -rf "$data"; }
trap cleanup EXIT

results=()
for repeat in $(seq 1 "$repeats"); do
  ours_port=$(free_port)
  STATEHUB_ADMIN_TOKEN=bench-sync-token "${server_cpu[@]}" "$binary" serve --data "$data/data$repeat" --port "$ours_port" --log-level error >"$data/serve.log" 2>&1 &
  ours_pid=$!; pids+=("$ours_pid")
  wait_port "$ours_port"
  ours=$("${client_cpu[@]}" node scripts/bench-sync.cjs "ws://127.0.0.1:$ours_port/sync" bench-sync-token "$ours_pid" "$receivers" "$burst" "$rounds" "$documents")
  kill "$ours_pid"; wait "$ours_pid" 2>/dev/null || true

  theirs_port=$(free_port)
  HOST=127.0.0.1 PORT=$theirs_port "${server_cpu[@]}" node /usr/share/nodejs/y-websocket/bin/server.js >"$data/y-websocket.log" 2>&1 &
  theirs_pid=$!; pids+=("$theirs_pid")
  wait_port "$theirs_port"
  theirs=$("${client_cpu[@]}" node scripts/bench-sync.cjs "ws://127.0.0.1:$theirs_port/sync" - "$theirs_pid" "$receivers" "$burst" "$rounds" "$documents")
  kill "$theirs_pid"; wait "$theirs_pid" 2>/dev/null || true
  results+=("$ours" "$theirs")
done

python3 - "$build" "${PIN:-0}" "${results[@]}" <<'PY'
import json, statistics, sys
build, pin, runs = sys.argv[1], sys.argv[2], [json.loads(r) for r in sys.argv[3:]]
pairs = list(zip(runs[0::2], runs[1::2]))
ours0 = pairs[0][0]
pinned = ", server on CPU 1, client on CPU 0" if pin == "1" else ""
print(f"sync broadcast: {ours0['receivers']} receivers, {ours0['rounds']} single updates, a burst of {ours0['burst']}, {ours0['documents']} open documents{pinned}")
rows = [("latency p50, ms (lower is better)", "p50ms", False), ("latency p99, ms (lower is better)", "p99ms", False),
        ("burst deliveries/s", "deliveriesPerSecond", True), ("burst updates/s", "updatesPerSecond", True),
        ("server RSS per open document, KiB", "kibPerDocument", False)]
def ratio(a, b, higher): return (a / b if higher else b / a) if a and b else float("nan")
if len(pairs) == 1:
    ours, theirs = pairs[0]
    print(f"{'':34}{'statehub (' + build + ')':>20}{'y-websocket':>14}{'ratio':>8}")
    for label, key, higher in rows:
        a, b = ours[key], theirs[key]
        print(f"{label:34}{a:>20}{b:>14}{ratio(a, b, higher):>7.2f}x")
else:
    print(f"{len(pairs)} pairs of runs (ours, then theirs); medians, then each pair's ratio")
    print(f"{'':34}{'statehub (' + build + ')':>20}{'y-websocket':>14}{'ratio':>8}  each pair")
    for label, key, higher in rows:
        a = statistics.median(p[0][key] for p in pairs); b = statistics.median(p[1][key] for p in pairs)
        each = " ".join(f"{ratio(p[0][key], p[1][key], higher):.2f}" for p in pairs)
        print(f"{label:34}{a:>20}{b:>14}{statistics.median(ratio(p[0][key], p[1][key], higher) for p in pairs):>7.2f}x  {each}")
print("ratio: how many times better statehub is (above 1: better); with pairs, the median of the pairs' ratios.")
PY
