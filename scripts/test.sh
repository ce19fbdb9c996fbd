#!/usr/bin/env bash
# Every test: installs what is missing, builds, runs the Swift Testing suites.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
swift build --build-tests
swift test --skip-build
