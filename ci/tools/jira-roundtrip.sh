#!/usr/bin/env bash
# Checks the JIRA comments as a reader would: each target/racelab/comments/*.jira is converted
# back to Markdown with jira2markdown (PyPI, pinned; installed once per machine, tool-cache.sh),
# must keep every table and {noformat} block, and must render in headless Chromium with every
# table and code block (render-report.sh). `--install` installs jira2markdown and converts nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
install_only=false
[ "${1:-}" != --install ] || { install_only=true; shift; }
dir=${1:-target/racelab/comments}
shopt -s nullglob
comments=("$dir"/*.jira)
$install_only || [ ${#comments[@]} -gt 0 ] || { echo "error: $dir: no .jira comments (run \`cargo xtask report --format jira\` first)" >&2; exit 2; }
# its parser pinned too: a new pyparsing must not change the check between two runs
packages=(jira2markdown==0.5.3 pyparsing==3.3.3)
# Under PyPy (Debian's pypy3): jira2markdown's parser, pyparsing, converted the five comments in
# 12 CPU-seconds in one PyPy process and in 33 under CPython 3.11, into the same Markdown, byte
# for byte (2026-12-06); the round trip is the gate's last step.
. ci/tools/tool-cache.sh
if ! command -v pypy3 >/dev/null; then
  echo "installing Debian's pypy3 (once)"
  apt_install pypy3
fi
venv=$tool_cache/jira-$(IFS=-; echo "${packages[*]}")-$(pypy3 -c 'import sys; print("pypy%d.%d" % sys.version_info[:2])')
install_venv() {
  pypy3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "${packages[@]}"
}
install_once "$venv" install_venv
! $install_only || exit 0
"$venv/bin/python" ci/tools/jira-roundtrip.py "${comments[@]}"
# All comments in one call: the browsers are launched once, each renders its share of them.
ci/tools/render-report.sh "${comments[@]/%.jira/.md}"
