#!/usr/bin/env bash
# The test suite under ThreadSanitizer (docs/reliability.md). Builds into its own folder;
# the suppressions cover Synchronization.Mutex's futex-based locking, which TSan cannot see.
# Usage: scripts/tsan.sh [swift test --filter pattern]
set -euo pipefail
cd "$(dirname "$0")/.."
export TSAN_OPTIONS="suppressions=$PWD/scripts/tsan-suppressions.txt halt_on_error=0 report_signal_unsafe=0 ${TSAN_OPTIONS:-}"
# JavaScriptCore stops JIT code by suspending the engine thread with a signal; TSan defers a
# signal's handler until the thread reaches instrumented code, which a compiled loop never
# does, so the signal sender would wait forever and the loop never stop (an exit test's child
# would spin for good). Polling traps need no signal: compiled code checks the trap bit itself.
export JSC_usePollingTraps=true
args=(--sanitize=thread --scratch-path .build-tsan)
swift build --build-tests "${args[@]}"
if [ $# -gt 0 ]; then filter=(--filter "$1"); else filter=(); fi
swift test --skip-build "${args[@]}" "${filter[@]}" 2>&1 | tee .build-tsan/tsan.log | grep -E "^(✔|✘) (Test run|Suite)|WARNING: ThreadSanitizer|SUMMARY: ThreadSanitizer" || true
races=$(grep -c "WARNING: ThreadSanitizer" .build-tsan/tsan.log || true)
echo "tsan: $races reports (log in .build-tsan/tsan.log)"
[ "$races" -eq 0 ]
