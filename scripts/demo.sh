#!/usr/bin/env bash
# The main job: builds statehub and runs the example stores and micro-app in the embedded
# engine, dispatching actions from native and printing the mirrored stores and the headless
# shell the micro-app talked to through the capability bridge.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
swift build -c release --product statehub
BIN="$(swift build -c release --show-bin-path)/statehub"
"$BIN" run js/examples/user.js js/examples/cart.js js/examples/micro-app.js \
  --dispatch user.login '["ada"]' \
  --dispatch cart.add '[{"id":"p1","name":"Pen","price":1.5,"qty":2}]' \
  --dispatch cart.add '[{"id":"p2","name":"Notebook","price":4.25}]' \
  --dispatch cart.remove '["p1"]' \
  --dispatch cart.checkout "[]" \
  "$@"
