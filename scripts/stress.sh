#!/usr/bin/env bash
# The Swift suite N times on a loaded machine: two busy loops (`yes > /dev/null`) take both
# cores' spare time while each run goes, as another build or CI job would (docs/testing-stages.md).
# Builds if needed, runs `swift test --skip-build` beside PostgreSQL N times, stops the loops
# at the end (also on Ctrl-C), and prints each run's result with its failed tests by name, then
# `N passed, N failed` (runs). Each run's output: .build/stress/run-K.log.
# Usage: scripts/stress.sh [N, default 3]
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
case "$runs" in ''|*[!0-9]*|0) echo "usage: scripts/stress.sh [N ≥ 1]" >&2; exit 2 ;; esac
logs=.build/stress
mkdir -p "$logs"

swift build --build-tests >"$logs/build.log" 2>&1 || { tail -40 "$logs/build.log"; echo "stress: the build failed" >&2; exit 1; }

loops=()
stop_loops() {
  local pid
  for pid in "${loops[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
  loops=()
}
trap stop_loops EXIT
trap 'exit 130' INT TERM
for _ in 1 2; do
  yes >/dev/null &
  loops+=($!)
done
echo "stress: $runs runs of the Swift suite beside ${#loops[@]} busy loops (pids ${loops[*]})"

passed=0 failed=0
for run in $(seq "$runs"); do
  log="$logs/run-$run.log"
  start=$SECONDS
  status=0
  bash scripts/with-postgres.sh bash scripts/hang-guard.sh 1500 swift test --skip-build >"$log" 2>&1 || status=$?
  seconds=$((SECONDS - start))
  closing=$(grep -a -E "Test run with [0-9]+ tests?" "$log" | tail -1)
  if [ "$status" -eq 0 ]; then
    passed=$((passed + 1))
    echo "run $run: passed ($seconds s) ${closing}"
  else
    failed=$((failed + 1))
    echo "run $run: FAILED, exit $status ($seconds s) ${closing:-no closing line: see $log}"
    # Swift Testing's closing line for each failed test: `✘ Test name() failed after …`.
    grep -a -E "^✘ Test .* failed after" "$log" | grep -a -v "^✘ Test run with" | sed "s/^/  /"
  fi
done
stop_loops
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
