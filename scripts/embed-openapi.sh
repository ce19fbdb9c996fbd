#!/usr/bin/env bash
# Copies docs/openapi.yaml into Sources/StateHubServer/OpenAPI/OpenAPIDocument.swift (the
# binary serves it at /openapi.yaml; ServerRouterTests checks the two are equal).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - <<'PY'
src = open("docs/openapi.yaml").read()
assert '"""#' not in src
open("Sources/StateHubServer/OpenAPI/OpenAPIDocument.swift", "w").write(
    "/// The OpenAPI document of every route, served at `/openapi.yaml`. A copy of\n"
    "/// `docs/openapi.yaml` made by scripts/embed-openapi.sh (a test checks they are equal),\n"
    "/// embedded so the binary needs no files.\n"
    "enum OpenAPIDocument {\n    static let yaml = #\"\"\"\n" + src + "\"\"\"#\n}\n")
PY
