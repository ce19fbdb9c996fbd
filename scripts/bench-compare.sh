#!/usr/bin/env bash
# Two builds of statehub measured in one run: `bench SUITE` of each, alternating (base, head,
# base, head, …) so that a change in the machine's load falls on both, with the JIT and without
# it (JSC_useJIT=false). Prints, per figure, each build's median over the rounds and the ratio of
# head to base, said as "faster"/"slower" by the figure's direction (docs/benchmarks.md).
#
#   scripts/bench-compare.sh BASE HEAD [SUITE...]     (suites: engine hub bridge …; default: engine hub)
# Environment: ROUNDS (3) runs of each build per suite and JIT mode; REPETITIONS (5) per run.
# Both binaries should be release builds (`swift build -c release --product statehub`).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: scripts/bench-compare.sh BASE HEAD [SUITE...]" >&2; exit 2; }
base=$1 head=$2; shift 2
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(engine hub)
rounds=${ROUNDS:-3} repetitions=${REPETITIONS:-5}
for binary in "$base" "$head"; do
  [ -x "$binary" ] || { echo "bench-compare: $binary is not an executable" >&2; exit 2; }
done
out=$(mktemp -d /tmp/statehub-bench-compare.XXXXXX)
trap 'rm -rf "$out"' EXIT

echo "bench-compare: base $base, head $head; ${rounds} rounds of ${suites[*]}, ${repetitions} repetitions each; load $(cut -d' ' -f1-3 /proc/loadavg)"
for suite in "${suites[@]}"; do
  for round in $(seq "$rounds"); do
    for mode in jit nojit; do
      for side in base head; do
        binary=$base; [ "$side" = head ] && binary=$head
        file="$out/$suite.$mode.$side.$round.json"
        if [ "$mode" = jit ]; then
          "$binary" bench "$suite" --json --jit-only --repetitions "$repetitions" >"$file"
        else
          JSC_useJIT=false "$binary" bench "$suite" --json --jit-only --repetitions "$repetitions" >"$file"
        fi
      done
    done
  done
done

python3 - "$out" "${suites[@]}" <<'PY'
import json, os, statistics, sys
folder, suites = sys.argv[1], sys.argv[2:]
def load(suite, mode, side):
    runs = {}
    for name in sorted(os.listdir(folder)):
        if name.startswith(f"{suite}.{mode}.{side}."):
            for figure in json.load(open(os.path.join(folder, name))):
                if isinstance(figure.get("jit"), (int, float)):
                    runs.setdefault(figure["key"], (figure, []))[1].append(figure["jit"])
    return runs
for suite in suites:
    print(f"\n## bench {suite}: median of each build's runs; head/base")
    print(f"{'figure':60} {'mode':6} {'base':>12} {'head':>12}  {'unit':9} head/base")
    for mode in ("jit", "nojit"):
        base, head = load(suite, mode, "base"), load(suite, mode, "head")
        for key, (figure, values) in head.items():
            if key not in base: continue
            b, h = statistics.median(base[key][1]), statistics.median(values)
            if b == 0: continue
            ratio = h / b
            better = (ratio > 1) == figure.get("higherIsBetter", False)
            word = "same" if abs(ratio - 1) < 0.02 else ("better" if better else "worse")
            label = figure.get("label", key)[:60]
            print(f"{label:60} {('JIT' if mode == 'jit' else 'no JIT'):6} {b:12.3f} {h:12.3f}  {figure.get('unit', ''):9} {ratio:.3f} ({word})")
PY
