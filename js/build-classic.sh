#!/bin/sh
# Builds the classic-script form of @statehub/pinia-sync (one IIFE for a <script> tag that
# publishes globalThis.StateHubPiniaSync) with esbuild (Debian: apt-get install esbuild).
# Usage: sh build-classic.sh [OUTFILE]   (default dist/statehub-pinia-sync.js)
set -eu
cd "$(dirname "$0")"
out="${1:-dist/statehub-pinia-sync.js}"
command -v esbuild >/dev/null 2>&1 || { echo "build-classic.sh: esbuild is missing (apt-get install esbuild)" >&2; exit 1; }
esbuild index.mjs --bundle --format=iife --global-name=StateHubPiniaSync --target=safari17 --log-level=warning --outfile="$out"
