#!/usr/bin/env bash
# Installs what StateHub needs on Debian or Ubuntu when it is missing: JavaScriptCore's
# development package (libjavascriptcoregtk-4.1-dev) and pkg-config. Needs root or sudo
# only when something is missing. Swift itself is expected on PATH (swift.org toolchain).
set -euo pipefail

if ! command -v swift >/dev/null 2>&1; then
  echo "statehub: swift is not on PATH; install a Swift 6 toolchain from swift.org first" >&2
  exit 1
fi

# --- crdt engineer (issue 15): the real peers of SharedDocument's differential tests: Yjs (Debian's node-yjs, run
# by node with NODE_PATH=/usr/share/nodejs) and Yrs (pycrdt from PyPI).
crdt_sudo() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
if ! command -v node >/dev/null 2>&1 || [ ! -f /usr/share/nodejs/yjs/package.json ]; then
  echo "statehub: installing nodejs and node-yjs" >&2
  crdt_sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive crdt_sudo apt-get install -y -qq nodejs node-yjs >/dev/null
fi
if ! python3 -c 'import pycrdt' >/dev/null 2>&1; then
  echo "statehub: installing pycrdt" >&2
  python3 -m pip install -q pycrdt 2>/dev/null || python3 -m pip install -q --break-system-packages pycrdt
fi
# --- end crdt engineer
# --- cli engineer (issue 12): esbuild bundles ES modules for `statehub run`/`eval`/`bundle`;
# chromium + chromium-driver + selenium test `statehub trace view` in a real browser.
cli_missing=()
command -v esbuild >/dev/null 2>&1 || cli_missing+=(esbuild)
command -v chromium >/dev/null 2>&1 || cli_missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || cli_missing+=(chromium-driver)
command -v python3 >/dev/null 2>&1 || cli_missing+=(python3 python3-pip)
if [ ${#cli_missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then CLI_SUDO=""; else CLI_SUDO="sudo"; fi
  echo "statehub: installing ${cli_missing[*]}" >&2
  $CLI_SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $CLI_SUDO apt-get install -y -qq "${cli_missing[@]}" >/dev/null
fi
if ! python3 -c 'import selenium' >/dev/null 2>&1; then
  echo "statehub: installing selenium (PyPI)" >&2
  python3 -m pip install -q selenium 2>/dev/null || python3 -m pip install -q --break-system-packages selenium
fi
# --- end cli engineer
# --- js engineer (issue 13): esbuild bundles the js/ package in JSPackageTests -------------
if ! command -v esbuild >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then js_sudo=""; else js_sudo="sudo"; fi
  echo "statehub: installing esbuild" >&2
  $js_sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $js_sudo apt-get install -y -qq esbuild >/dev/null
fi
# --- end js engineer -------------------------------------------------------------------------
# server (issue 14): PostgreSQL for the server tests (scripts/with-postgres.sh), curl and wrk for
# scripts/fuzz-server.sh and scripts/bench-server.sh, schemathesis (PyPI) for the API fuzz.
server_missing=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || server_missing+=(postgresql)
command -v curl >/dev/null 2>&1 || server_missing+=(curl)
command -v wrk >/dev/null 2>&1 || server_missing+=(wrk)
if [ ${#server_missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then server_sudo=""; else server_sudo="sudo"; fi
  echo "statehub: installing ${server_missing[*]}" >&2
  $server_sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $server_sudo apt-get install -y -qq "${server_missing[@]}" >/dev/null
fi
if ! command -v schemathesis >/dev/null 2>&1 && ! command -v st >/dev/null 2>&1; then
  echo "statehub: installing schemathesis" >&2
  python3 -m pip install -q schemathesis || python3 -m pip install -q --break-system-packages schemathesis
fi

if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists javascriptcoregtk-4.1; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
  echo "statehub: libjavascriptcoregtk-4.1-dev is missing and neither root nor sudo is available" >&2
  exit 1
fi
echo "statehub: installing libjavascriptcoregtk-4.1-dev and pkg-config" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libjavascriptcoregtk-4.1-dev pkg-config >/dev/null
