#!/usr/bin/env bash
# Builds the DocC documentation of every library module; any warning (a broken symbol link, an
# unresolved topic) fails the run. The same check as scripts/docs.sh, meant to replace it as the
# `docs` stage once it has passed a run (docs/testing-stages.md).
#
# What `swift package generate-documentation` (swift-docc-plugin) does, without its cost: the
# plugin asks SwiftPM for one module's symbol graph at a time, and each ask plans the whole
# build again (12–18 s at load 10, fifteen times) and first builds the plugin's snippet tool.
# Here `swift package dump-symbol-graph` plans once, reuses the debug build (it compiles only
# what is out of date) and extracts every module of the package with the plugin's options;
# then `docc convert` runs per module with the plugin's arguments, two at a time. The package
# has no Snippets/ folder, the one input of the plugin this leaves out.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(StateHubJSON JSEngine Trace StateHub CapabilityBridge StyleTokens StateHubTesting StateHubPage SharedDocument Delivery StateHubServer MicroAppAssets SharedDocumentSync SharedStores StateHubTypes)
docc=$(command -v docc || echo "$(dirname "$(readlink -f "$(command -v swift)")")/docc")
out=.build/docs
rm -rf "$out"
mkdir -p "$out/symbol-graphs" "$out/logs"

# The plugin's symbol graph options: public symbols, synthesized members, inherited docs and
# extension blocks included, no SPI.
swift package dump-symbol-graph --minimum-access-level public --emit-extension-block-symbols \
  >"$out/logs/dump-symbol-graph.log" 2>&1 || { cat "$out/logs/dump-symbol-graph.log"; exit 1; }
graphs=$(sed -n 's/^Files written to //p' "$out/logs/dump-symbol-graph.log")
[ -d "$graphs" ] || { cat "$out/logs/dump-symbol-graph.log"; echo "docs: no symbol graph folder" >&2; exit 1; }

convert() {
  local target=$1 catalog=()
  mkdir -p "$out/symbol-graphs/$target"
  # The module's own graph and its extensions of other modules' types (`Target@Other`).
  cp "$graphs/$target.symbols.json" "$out/symbol-graphs/$target/" || return 1
  find "$graphs" -maxdepth 1 -name "$target@*.symbols.json" -exec cp {} "$out/symbol-graphs/$target/" \;
  [ -d "Sources/$target/$target.docc" ] && catalog=("Sources/$target/$target.docc")
  # Parameter lists are not validated (several modules document only the parameters that need
  # words); links, topics and symbol references are, and any warning there fails the run.
  "$docc" convert "${catalog[@]}" --emit-lmdb-index --fallback-display-name "$target" \
    --fallback-bundle-identifier "$target" --additional-symbol-graph-dir "$out/symbol-graphs/$target" \
    --output-path "$out/$target.doccarchive" --warnings-as-errors --disable-parameters-and-returns-validation \
    >"$out/logs/$target.log" 2>&1
}
export -f convert
export docc out graphs
failed=0
printf '%s\n' "${targets[@]}" | xargs -P 2 -I {} bash -c 'convert {} && echo "docs: {} passed" || { echo "docs: {} FAILED"; exit 1; }' \
  || failed=1
for target in "${targets[@]}"; do
  if grep -q -E "warning:|error:" "$out/logs/$target.log" 2>/dev/null; then
    echo "--- $target"; grep -E -A3 "warning:|error:" "$out/logs/$target.log"
  fi
done
[ "$failed" -eq 0 ] || { echo "docs: a module's documentation has warnings or errors" >&2; exit 1; }
echo "docs: ${#targets[@]} modules, no warnings; archives in $out"
