#!/usr/bin/env bash
# Every test: installs what is missing, builds, runs the Swift Testing suites.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
swift build --build-tests
swift test --skip-build
# cli engineer (issue 12): `statehub trace view` checked in headless Chromium with selenium.
python3 scripts/test-trace-view.py "$(swift build --show-bin-path)/statehub"
