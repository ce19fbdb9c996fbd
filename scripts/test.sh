#!/usr/bin/env bash
# Every test, as named stages (docs/testing-stages.md): each stage's output goes to
# .build/stages/NAME.log; a failed stage does not stop the others. The run ends with the last
# lines of each failed stage's log, one summary line per stage (name, passed/failed/skipped,
# seconds), the Swift test runner's closing line, and last of all `stages: N passed, N failed`.
# Exits non-zero when any stage failed.
#
# After the build and the Swift suites (alone: they wait on real engines and servers), two lanes
# run side by side on the machine's two cores: the two stages that compile a build of their own
# (fuzz, WebKitGTK) and the stages that mostly wait or use one core (headless Chromium, servers,
# the soak, then DocC, which plans and extracts one module at a time).
#
# Usage: scripts/test.sh           every stage
#        scripts/test.sh --quick   build if needed, then the suites tagged `.unit` alone
set -uo pipefail
cd "$(dirname "$0")/.."

start_load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
quick=false
case "${1:-}" in
  --quick) quick=true ;;
  "") ;;
  *) echo "usage: scripts/test.sh [--quick]" >&2; exit 2 ;;
esac

logs=.build/stages
rm -rf "$logs"
mkdir -p "$logs"
stages=()        # every stage started or skipped, in start order
built=false      # whether the build stage passed
tail_lines=40    # how much of a failed stage's log the end of the run prints

# stage NAME COMMAND...: runs COMMAND with its output in $logs/NAME.log, records
# "STATUS SECONDS CPU-SECONDS" in $logs/NAME.result and prints one line when it ends. CPU
# seconds are user + system time of the stage's processes (those it waits for): beside the
# wall-clock seconds they say whether a stage computes or waits.
stage() {
  local name=$1; shift
  local start=$SECONDS status=0 TIMEFORMAT='%U %S' user system
  echo "stage $name: started"
  # a subshell: a stage cannot end the run
  { time { ("$@") >"$logs/$name.log" 2>&1 || status=$?; }; } 2>"$logs/$name.cpu"
  local seconds=$((SECONDS - start))
  read -r user system <"$logs/$name.cpu"
  echo "$status $seconds $(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.0f", u + s }')" >"$logs/$name.result"
  if [ "$status" -eq 0 ]; then echo "stage $name: passed (${seconds} s)"
  else echo "stage $name: FAILED, exit $status (${seconds} s)"; fi
  return 0
}

# skip NAME WHY: records a stage that could not run; it counts as failed.
skip() {
  echo "$2" >"$logs/$1.log"
  echo "skipped 0 0" >"$logs/$1.result"
  echo "stage $1: skipped ($2)"
}

statehub() { "$bin/statehub" "$@"; }

# The stages. Each is a function so a lane can run several in turn.
deps() { bash scripts/ensure-deps.sh; }
build() { swift build --build-tests; }
# The PostgreSQL tests need the database scripts/with-postgres.sh starts.
# A hang guard, not a deadline: the suite takes about 250 s on two cores; a hung run fails this
# stage after 25 minutes, printing what each of its processes is doing, instead of holding CI
# to its own limit (scripts/hang-guard.sh, docs/testing-stages.md).
swift_tests() { bash scripts/with-postgres.sh bash scripts/hang-guard.sh 1500 swift test --skip-build; }
# The committed generated types still match the stores they were generated from (docs/types.md);
# regenerate with the same command and -o instead of --check.
types() {
  statehub types js/examples/hello.js js/examples/cart.js js/examples/user.js \
      --from-trace Examples/Types/examples.ndjson --bridge-ts Examples/Types/bridge.d.ts \
      --check Tests/StateHubTypesTests/Generated/ExampleStores.swift \
    && statehub types Tests/StateHubTypesTests/Fixtures/inventory.js \
      --check Tests/StateHubTypesTests/Generated/InventoryTypes.swift
}
# `statehub trace view` in headless Chromium with selenium.
trace_view() { python3 scripts/test-trace-view.py "$bin/statehub"; }
# DocC for every library module, no warnings.
docs() { bash scripts/docs.sh; }
# The server's API fuzzed from its OpenAPI document, no 5xx.
fuzz_server() { STATEHUB_BIN="$bin/statehub" bash scripts/fuzz-server.sh 15; }
# js/index.d.ts against the JavaScript, and a typed example compiled with tsc (no build needed).
js_types() { bash scripts/check-js-types.sh; }
# A store micro-app's loader page runs its store in headless Chromium.
loader_page() { python3 scripts/test-loader-page.py "$bin/statehub"; }
# Coverage-guided fuzzing of what pages, files and peers feed us (docs/reliability.md): a fixed
# number of inputs per target, so a loaded machine fuzzes as much as a quiet one.
fuzz() { bash scripts/fuzz.sh --ci; }
# Two pages and native dispatches with random writes: mirror == both pages' states at every
# quiet point, flat memory (docs/reliability.md).
soak() { statehub soak --seconds 45; }
# The board example the README runs (a server, a device offline, a Yjs web client).
board() { "$bin/board-example"; }
# /console in headless Chromium against a real `statehub serve` (docs/console.md).
console() { python3 scripts/test-console.py "$bin/statehub"; }
# The WebKitGTK package (its own build folder) against real web views under Xvfb (docs/webview.md).
# WebKitGTK's package builds into the core's build folder: the core's modules it uses are the ones
# the build stage made, with the same flags, so only its own modules compile (docs/testing-stages.md).
webkitgtk() {
  (cd Integrations/WebKitGTK && swift build --build-tests --scratch-path ../../.build &&
    xvfb-run -a swift test --skip-build --scratch-path ../../.build)
}
# `swift test` filters by test name, not by tag (docs/testing-stages.md): the top-level suites
# declared `@Suite(.tags(.unit) …)` are read from the sources, one `--filter Module.Suite/` each.
unit_suites() {
  local folder
  for folder in Tests/*/; do
    find "$folder" -name '*.swift' -print0 | xargs -0 -r awk -v module="$(basename "$folder")" '
      /^@Suite/ { unit = ($0 ~ /\.tags\([^)]*\.unit/) }
      unit && /^[^ \/]/ && match($0, /(^|[ )])(struct|class|enum|actor) +[A-Za-z0-9_]+/) {
        declaration = substr($0, RSTART, RLENGTH); sub(/.* /, "", declaration)
        print module "." declaration "/"; unit = 0
      }'
  done
}
unit_tests() {
  local filters=() suite
  while read -r suite; do filters+=(--filter "$suite"); done < <(unit_suites)
  [ ${#filters[@]} -gt 0 ] || { echo "no suite is tagged .unit"; return 1; }
  echo "$((${#filters[@]} / 2)) suites tagged .unit"
  swift test --skip-build "${filters[@]}"
}

# run_lane STAGE...: runs the stages in turn (a stage that needs the build is skipped without it).
run_lane() {
  local name
  for name in "$@"; do
    if [ "$built" = true ] || [[ " deps docs fuzz webkitgtk js-types " == *" $name "* ]]; then
      stage "$name" "${name//-/_}"
    else
      skip "$name" "the build failed"
    fi
  done
}

run_lane deps
stages+=(deps)
stage build build
stages+=(build)
[ "$(cut -d' ' -f1 "$logs/build.result")" = 0 ] && built=true
bin=$(swift build --show-bin-path 2>/dev/null || echo .build/debug)

if [ "$quick" = true ]; then
  run_lane unit-tests
  stages+=(unit-tests)
  runner_stages=(unit-tests)
else
  run_lane swift-tests
  stages+=(swift-tests)
  # Balanced by time: fuzz (its build, about 190 s, then about 110 s of inputs) alone against the
  # rest (about 330 s with webkitgtk).
  compiling=(fuzz)
  waiting=(js-types types trace-view fuzz-server loader-page soak board console docs webkitgtk)
  run_lane "${compiling[@]}" &
  compiling_lane=$!
  run_lane "${waiting[@]}"
  wait "$compiling_lane"
  stages+=("${waiting[@]}" "${compiling[@]}")
  runner_stages=(swift-tests webkitgtk)
fi

passed=0 failed=0
for name in "${stages[@]}"; do
  read -r status _ <"$logs/$name.result"
  if [ "$status" != 0 ] && [ "$status" != skipped ]; then
    echo
    echo "=== $name failed; the last $tail_lines lines of $logs/$name.log:"
    tail -n "$tail_lines" "$logs/$name.log"
  fi
done
echo
printf '%-12s %-7s %7s %9s\n' stage result seconds "cpu (s)"
for name in "${stages[@]}"; do
  read -r status seconds cpu <"$logs/$name.result"
  case "$status" in
    0) result=passed; passed=$((passed + 1)) ;;
    skipped) result=skipped; failed=$((failed + 1)) ;;
    *) result=failed; failed=$((failed + 1)) ;;
  esac
  printf '%-12s %-7s %7s %9s\n' "$name" "$result" "$seconds" "$cpu"
done
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)
printf '%-12s %-7s %7s   load average %s at the start, %s at the end\n' total "" "$SECONDS" "$start_load" "${load:-?}"
for name in "${runner_stages[@]}"; do
  closing=$(grep -a -E "Test run with [0-9]+ tests?" "$logs/$name.log" | tail -1)
  echo "$name: ${closing:-no closing line from the test runner}"
done
echo "stages: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
