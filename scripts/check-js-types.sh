#!/usr/bin/env bash
# js/index.d.ts checked two ways with Debian's TypeScript (node-typescript): against the module it
# declares (js/tests/check-declarations.mjs: the same exports, kinds, arities and literals), and by
# compiling a typed example that uses the plugin, the bridge client and invokeNative
# (js/examples/typed, `tsc --noEmit --strict`; its @ts-expect-error lines are misuses that must fail).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v tsc >/dev/null || { echo "tsc is missing: bash scripts/ensure-deps.sh installs node-typescript" >&2; exit 1; }
NODE_PATH=/usr/share/nodejs node js/tests/check-declarations.mjs
tsc -p js/examples/typed/tsconfig.json
echo "js/examples/typed/app.ts compiles against js/index.d.ts (tsc $(tsc --version | cut -d' ' -f2))"
