#!/usr/bin/env bash
# Fuzzes the server from its own OpenAPI document with schemathesis (PyPI): starts
# `statehub serve` on an empty SQLite folder and a free loopback port, publishes an app and a
# theme so the read routes have something to find, then runs every operation with the admin
# token. Fails on any 5xx (check not_a_server_error). Needs a built `statehub` (.build/debug).
# Usage: scripts/fuzz-server.sh [max-examples per operation, default 25]
set -euo pipefail
cd "$(dirname "$0")/.."
examples=${1:-25}
bin=${STATEHUB_BIN:-.build/debug/statehub}
st=$(command -v schemathesis || command -v st || true)
if [ -z "$st" ]; then echo "fuzz-server: schemathesis is missing (scripts/ensure-deps.sh installs it)" >&2; exit 1; fi

dir=$(mktemp -d /tmp/statehub-fuzz.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
token="fuzz-$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
STATEHUB_ADMIN_TOKEN="$token" "$bin" serve --data "$dir/data" --port "$port" --log-level error >"$dir/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$dir"' EXIT

base="http://127.0.0.1:$port"
for _ in $(seq 100); do curl -fs "$base/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
auth=(-H "Authorization: Bearer $token" -H "Content-Type: application/json")
# 1.0.0 ships assets (docs/server.md, "Assets"): logo.png and data/prices.json as base64.
curl -fs "${auth[@]}" -X PUT "$base/admin/apps/cart/versions/1.0.0" -d '{"bundle":"globalThis.x = 1;","stylesheet":"p{}",
  "assets":[{"path":"logo.png","data":"iVBORw0KGgo="},{"path":"data/prices.json","data":"eyJwZW4iOjEuNX0="}]}' >/dev/null
curl -fs "${auth[@]}" -X PUT "$base/admin/apps/cart/release" -d '{"stable":"1.0.0"}' >/dev/null
curl -fs "${auth[@]}" -X PUT "$base/admin/themes/1.1.0" --data-binary @examples/themes/standard.json >/dev/null
curl -fs "${auth[@]}" -X POST "$base/admin/themes/1.1.0/publish" >/dev/null

(cd "$dir" && "$st" run "$base/openapi.yaml" --checks not_a_server_error -H "Authorization: Bearer $token" \
  --max-examples "$examples" --seed 14 --workers 1 --request-timeout 10 --no-color)
if grep -q "Fatal\|panic" "$dir/server.log"; then cat "$dir/server.log" >&2; exit 1; fi
echo "fuzz-server: no 5xx"
