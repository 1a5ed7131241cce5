#!/usr/bin/env bash
# Renders report.md files (default target/racelab/report.md) as GitHub would show them, in
# headless Chromium: the Markdown through marked, every ```mermaid block through Mermaid. Fails
# when a table is missing or a diagram does not render; writes a screenshot beside each report.
# Chromium comes from Debian's packages, marked, Mermaid and playwright-core from npm (pinned),
# installed once per machine (tool-cache.sh). `--install` installs them and renders nothing (the
# gate installs them at its start, beside the Rust build).
set -euo pipefail
cd "$(dirname "$0")/../.."
install_only=false
[ "${1:-}" != --install ] || { install_only=true; shift; }
[ $# -gt 0 ] || set -- target/racelab/report.md
$install_only || for report in "$@"; do
  [ -f "$report" ] || { echo "error: $report: no such report (run \`cargo xtask report\` first)" >&2; exit 2; }
done
. ci/tools/tool-cache.sh
browser() { command -v chromium || command -v chromium-browser || command -v google-chrome || true; }
if [ -z "$(browser)" ]; then
  echo "installing Debian's chromium (once, about a minute)"
  apt_install chromium
fi
packages=(marked@18.2.1 mermaid@11.17.2 playwright-core@1.64.1)
tools=$tool_cache/render-$(IFS=-; echo "${packages[*]}")
install_once "$tools" npm install --silent --no-audit --no-fund --prefix "$tools" "${packages[@]}"
! $install_only || exit 0
NODE_PATH="$tools/node_modules" node ci/tools/render-report.cjs "$tools/node_modules" "$(browser)" "$@"
