#!/usr/bin/env bash
# Installs what StateHub's build and tests need on Debian or Ubuntu, when it is missing, in one
# apt-get call and one pip call. Needs root or sudo only when something is missing. Swift itself
# is expected on PATH (swift.org toolchain).
#
#   libjavascriptcoregtk-4.1-dev, pkg-config  the engine (CJSCore)
#   esbuild                                   ES modules → classic scripts (run/eval/bundle, js/ package)
#   chromium, chromium-driver; selenium (pip) `statehub trace view` checked in a real browser
#   postgresql                                the server's PostgreSQL tests (scripts/with-postgres.sh)
#   curl, wrk; schemathesis (pip)             the server's API fuzz and its benchmark
#   nodejs, node-yjs, node-y-protocols,
#   node-y-websocket, node-ws; pycrdt (pip)   SharedDocument's differential tests against Yjs and Yrs
#   node-typescript                           js/index.d.ts checked with tsc (scripts/check-js-types.sh)
#   libsqlite3-dev                            GRDB (the native sync client's document store)
#   libwebkit2gtk-4.1-dev, xvfb               the WebKitGTK web view package and its tests (docs/webview.md)
#   gdb                                       thread stacks of a hung test run (scripts/hang-guard.sh)
set -euo pipefail

if ! command -v swift >/dev/null 2>&1; then
  echo "statehub: swift is not on PATH; install a Swift 6 toolchain from swift.org first" >&2
  exit 1
fi

missing=()
need() { # need PACKAGE CHECK...: PACKAGE is missing when the check command fails
  local package=$1; shift
  "$@" >/dev/null 2>&1 || missing+=("$package")
}
need pkg-config                   command -v pkg-config
need libjavascriptcoregtk-4.1-dev pkg-config --exists javascriptcoregtk-4.1
need esbuild                      command -v esbuild
need chromium                     command -v chromium
need chromium-driver              command -v chromedriver
need postgresql                   bash -c 'ls /usr/lib/postgresql/*/bin/initdb'
need curl                         command -v curl
need wrk                          command -v wrk
need nodejs                       command -v node
need node-yjs                     test -d /usr/share/nodejs/yjs
need node-y-protocols             test -d /usr/share/nodejs/y-protocols
need node-y-websocket             test -d /usr/share/nodejs/y-websocket
need node-ws                      test -d /usr/share/nodejs/ws
need node-typescript              command -v tsc
need python3                      command -v python3
need libsqlite3-dev               pkg-config --exists sqlite3
# The web view: Integrations/WebKitGTK builds against WebKitGTK and tests under xvfb-run.
need libwebkit2gtk-4.1-dev        pkg-config --exists webkit2gtk-4.1
need xvfb                         command -v xvfb-run
need gdb                          command -v gdb

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "statehub: missing ${missing[*]}, and neither root nor sudo is available" >&2
    exit 1
  fi
  echo "statehub: installing ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

pip_missing=()
python3 -c 'import selenium' >/dev/null 2>&1 || pip_missing+=(selenium)
python3 -c 'import pycrdt' >/dev/null 2>&1 || pip_missing+=(pycrdt)
command -v schemathesis >/dev/null 2>&1 || command -v st >/dev/null 2>&1 || pip_missing+=(schemathesis)
if [ ${#pip_missing[@]} -gt 0 ]; then
  echo "statehub: installing ${pip_missing[*]} (PyPI)" >&2
  python3 -m pip install -q "${pip_missing[@]}" 2>/dev/null \
    || python3 -m pip install -q --break-system-packages "${pip_missing[@]}"
fi
