#!/usr/bin/env bash
# Every test: installs what is missing, builds, runs the Swift Testing suites.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
swift build --build-tests
# server (issue 14): the PostgreSQL tests need the database scripts/with-postgres.sh starts.
bash scripts/with-postgres.sh swift test --skip-build
# types (issue 18): the committed generated types still match the stores they were generated from
# (docs/types.md); regenerate with the same command and -o instead of --check.
"$(swift build --show-bin-path)/statehub" types js/examples/hello.js js/examples/cart.js js/examples/user.js \
    --from-trace Examples/Types/examples.ndjson --bridge-ts Examples/Types/bridge.d.ts \
    --check Tests/StateHubTypesTests/Generated/ExampleStores.swift
"$(swift build --show-bin-path)/statehub" types Tests/StateHubTypesTests/Fixtures/inventory.js \
    --check Tests/StateHubTypesTests/Generated/InventoryTypes.swift
# cli engineer (issue 12): `statehub trace view` checked in headless Chromium with selenium.
python3 scripts/test-trace-view.py "$(swift build --show-bin-path)/statehub"
# json engineer (issue 10): DocC for every library module, no warnings (about 1.5 minutes).
bash scripts/docs.sh
# server (issue 14): the API fuzzed from its OpenAPI document, no 5xx.
bash scripts/fuzz-server.sh 15
# server (issue 14): a store micro-app's loader page runs its store in headless Chromium.
python3 scripts/test-loader-page.py "$(swift build --show-bin-path)/statehub"

# hardening (issue 11): coverage-guided fuzzing of what pages, files and peers feed us
# (docs/reliability.md); a crash fails the run.
bash scripts/fuzz.sh 20
# harden (issue 11): a short soak — two pages and native dispatches with random writes,
# mirror == both pages' states at every quiet point, flat memory (docs/reliability.md).
"$(swift build --show-bin-path)/statehub" soak --seconds 45
# sync (issue 16): the board example the README runs (a server, a device offline, a Yjs web client).
swift run --skip-build board-example
# console (issue 17): /console in headless Chromium against a real `statehub serve` (docs/console.md).
python3 scripts/test-console.py "$(swift build --show-bin-path)/statehub"
# webview (issue 19): the WebKitGTK package (its own build folder) against real web views under Xvfb
# (docs/webview.md): first build ~4 min at load, the tests ~10 s.
(cd Integrations/WebKitGTK && swift build --build-tests && xvfb-run -a swift test --skip-build)
