#!/usr/bin/env bash
# Sync broadcast benchmark, side by side in one run (docs/sync.md §5, docs/benchmarks.md):
# `statehub serve` (our y-websocket endpoint, SQLite, every update stored before it is
# broadcast) and Yjs's own `y-websocket` server (in memory, no persistence), each measured by
# scripts/bench-sync.cjs: latency from one update to all receivers (p50/p99), burst throughput
# to the receivers, server memory per open document.
#   scripts/bench-sync.sh [path/to/statehub]     (default .build/debug/statehub: a DEBUG build)
# Environment: RECEIVERS (100), BURST (500), ROUNDS (200), DOCUMENTS (200).
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/debug/statehub}
case "$binary" in *release*) build=release ;; *) build=debug ;; esac
receivers=${RECEIVERS:-100} burst=${BURST:-500} rounds=${ROUNDS:-200} documents=${DOCUMENTS:-200}
export NODE_PATH=/usr/share/nodejs
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
wait_port() { for _ in $(seq 1 200); do (echo > "/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.05; done; echo "port $1 never opened" >&2; return 1; }

data=$(mktemp -d /tmp/statehub-bench-sync.XXXXXX)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; rm -rf "$data"; }
trap cleanup EXIT

ours_port=$(free_port)
STATEHUB_ADMIN_TOKEN=bench-sync-token "$binary" serve --data "$data/data" --port "$ours_port" --log-level error >"$data/serve.log" 2>&1 &
ours_pid=$!; pids+=("$ours_pid")
wait_port "$ours_port"
ours=$(node scripts/bench-sync.cjs "ws://127.0.0.1:$ours_port/sync" bench-sync-token "$ours_pid" "$receivers" "$burst" "$rounds" "$documents")

theirs_port=$(free_port)
HOST=127.0.0.1 PORT=$theirs_port node /usr/share/nodejs/y-websocket/bin/server.js >"$data/y-websocket.log" 2>&1 &
theirs_pid=$!; pids+=("$theirs_pid")
wait_port "$theirs_port"
theirs=$(node scripts/bench-sync.cjs "ws://127.0.0.1:$theirs_port/sync" - "$theirs_pid" "$receivers" "$burst" "$rounds" "$documents")

python3 - "$build" "$ours" "$theirs" <<'PY'
import json, sys
build, ours, theirs = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
print(f"sync broadcast: {ours['receivers']} receivers, {ours['rounds']} single updates, a burst of {ours['burst']}, {ours['documents']} open documents")
print(f"{'':34}{'statehub (' + build + ')':>20}{'y-websocket':>14}{'ratio':>8}")
rows = [("latency p50, ms (lower is better)", "p50ms", False), ("latency p99, ms (lower is better)", "p99ms", False),
        ("burst deliveries/s", "deliveriesPerSecond", True), ("burst updates/s", "updatesPerSecond", True),
        ("server RSS per open document, KiB", "kibPerDocument", False)]
for label, key, higher in rows:
    a, b = ours[key], theirs[key]
    ratio = (a / b if higher else b / a) if a and b else float("nan")
    print(f"{label:34}{a:>20}{b:>14}{ratio:>7.2f}x")
print("ratio: how many times better statehub is (above 1: better).")
PY
