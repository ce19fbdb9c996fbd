#!/usr/bin/env bash
# Builds the DocC documentation of every library module with swift-docc-plugin; any warning
# (a broken symbol link, an unresolved topic) fails the run. Called by scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(StateHubJSON JSEngine Trace StateHub CapabilityBridge StyleTokens StateHubTesting StateHubPage SharedDocument Delivery StateHubServer MicroAppAssets SharedDocumentSync SharedStores StateHubTypes)
args=()
for target in "${targets[@]}"; do args+=(--target "$target"); done
# Parameter lists are not validated (several modules document only the parameters that need
# words); links, topics and symbol references are, and any warning there fails the run.
swift package --disable-sandbox generate-documentation "${args[@]}" --warnings-as-errors --disable-parameters-and-returns-validation
