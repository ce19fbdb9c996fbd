#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer (docs/reliability.md): builds the Fuzz/ package (the
# fuzz targets, beside the core and depending on it by path) with AddressSanitizer and
# libFuzzer's coverage (how, and why each flag: docs/reliability.md), then runs each target on its
# committed seed corpus, for SECONDS each (default 60) or, with --ci, for the fixed number of
# inputs below. New inputs go to a scratch corpus under .build-fuzz/ (never committed); a crash
# leaves its input there and fails the script.
# The build is a debug build by default: it compiles in a fraction of a release build's time,
# which is what a CI run needs; FUZZ_CONFIGURATION=release for long runs.
# Usage: [FUZZ_CONFIGURATION=debug|release] scripts/fuzz.sh [SECONDS | --ci] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${1:-60}
shift || true
case "$budget" in
  --ci) ;;
  ''|*[!0-9]*|0) echo "usage: scripts/fuzz.sh [SECONDS | --ci] [TARGET...]" >&2; exit 2 ;;
esac
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzStoreMessages FuzzTraceReader FuzzThemeReader FuzzLegacyURL FuzzSharedDocument)

# --ci: inputs per target, about 20 s of each in CI (two cores, the other lane of
# scripts/test.sh beside it; docs/reliability.md): a Yjs update costs some 7 ms there and a
# theme 0.26 ms, a store-message line 1.3 ms, a trace or URL line well under 0.2 ms. A count,
# not a time, so a loaded machine fuzzes as much as a quiet one and a quiet one is done sooner.
# At load 45, 20 s ran 247 store-message lines instead of 15,461; such a machine stops at
# ci_guard seconds a target, and the run says so.
ci_guard=300
ci_inputs() {
  case "$1" in
    FuzzStoreMessages) echo 16000 ;;
    FuzzSharedDocument) echo 4000 ;;
    FuzzThemeReader) echo 80000 ;;
    *) echo 150000 ;;
  esac
}

scratch=.build-fuzz
mkdir -p "$scratch"
# The fuzz package builds into its own folder so the normal build is untouched.
# Coverage for the whole build; libFuzzer itself only in the fuzz targets (Fuzz/Package.swift).
# The build-tool executable runs instrumented too: its leaks at exit are not findings.
# `-use-ld=lld`: ld.gold crashes linking that instrumented tool. `-gline-tables-only`: a crash
# report needs file and line, not variables, and full debug info is most of a debug link;
# no index store: nothing browses this build. SwiftPM does not rebuild when these flags
# change: delete .build-fuzz/ after changing them.
configuration=${FUZZ_CONFIGURATION:-debug}
(cd Fuzz && ASAN_OPTIONS=detect_leaks=0 swift build -c "$configuration" --scratch-path "../$scratch/build" --disable-index-store \
  -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp -Xswiftc -use-ld=lld \
  -Xswiftc -gline-tables-only 2>&1 \
  | grep -E "error|warning: |Build complete" | tail -5)
export ASAN_OPTIONS="detect_leaks=0 ${ASAN_OPTIONS:-}"
bin="$scratch/build/$configuration"
for target in "${targets[@]}"; do
  corpus="$scratch/corpus/$target"
  mkdir -p "$corpus" "$scratch/crashes"
  if [ "$budget" = --ci ]; then
    limit=-runs=$(ci_inputs "$target")
    echo "fuzz: $target for ${limit#-runs=} inputs (at most ${ci_guard}s)"
  else
    limit=-max_total_time=$budget
    echo "fuzz: $target for ${budget}s"
  fi
  log="$scratch/$target.log"
  status=0
  start=$SECONDS
  guard=()
  [ "$budget" = --ci ] && guard=(-max_total_time="$ci_guard")
  "$bin/$target" "$limit" "${guard[@]}" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix="$scratch/crashes/$target-" -print_final_stats=1 "$corpus" "Fuzz/Corpus/$target" >"$log" 2>&1 || status=$?
  grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)|^SUMMARY|ERROR: libFuzzer" "$log" || true
  echo "fuzz: $target took $((SECONDS - start)) s"
  ran=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  if [ "$budget" = --ci ] && [ "${ran:-0}" -lt "${limit#-runs=}" ]; then
    echo "fuzz: $target stopped at ${ci_guard}s after ${ran:-0} of ${limit#-runs=} inputs (a loaded machine)"
  fi
  if [ "$status" -ne 0 ]; then tail -40 "$log" >&2; echo "fuzz: $target FAILED (input in $scratch/crashes)" >&2; exit 1; fi
done
echo "fuzz: no crash"
