#!/usr/bin/env bash
# Checks the JIRA comments as a reader would: each target/racelab/comments/*.jira is converted
# back to Markdown with jira2markdown (PyPI, pinned; installed on first use into target/tools),
# must keep every table and {noformat} block, and must render in headless Chromium with every
# table and code block (render-report.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-target/racelab/comments}
shopt -s nullglob
comments=("$dir"/*.jira)
[ ${#comments[@]} -gt 0 ] || { echo "error: $dir: no .jira comments (run \`cargo xtask report --format jira\` first)" >&2; exit 2; }
venv=target/tools/jira
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import jira2markdown" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check jira2markdown==0.5.3
fi
"$venv/bin/python" ci/tools/jira-roundtrip.py "${comments[@]}"
# All comments in one call: the browsers are launched once, each renders its share of them.
ci/tools/render-report.sh "${comments[@]/%.jira/.md}"
