#!/usr/bin/env bash
# Checks the JIRA comments as a reader would: each target/racelab/comments/*.jira is converted
# back to Markdown with jira2markdown (PyPI, pinned; installed once per machine, tool-cache.sh),
# must keep every table and {noformat} block, and must render in headless Chromium with every
# table and code block (render-report.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-target/racelab/comments}
shopt -s nullglob
comments=("$dir"/*.jira)
[ ${#comments[@]} -gt 0 ] || { echo "error: $dir: no .jira comments (run \`cargo xtask report --format jira\` first)" >&2; exit 2; }
package=jira2markdown==0.5.3
. ci/tools/tool-cache.sh
venv=$tool_cache/jira-$package-$(python3 -c 'import sys; print("py%d.%d" % sys.version_info[:2])')
install_venv() {
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "$package"
}
install_once "$venv" install_venv
"$venv/bin/python" ci/tools/jira-roundtrip.py "${comments[@]}"
# All comments in one call: the browsers are launched once, each renders its share of them.
ci/tools/render-report.sh "${comments[@]/%.jira/.md}"
