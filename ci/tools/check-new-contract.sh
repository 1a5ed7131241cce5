#!/usr/bin/env bash
# Checks `cargo xtask new` end to end on a clean clone of HEAD: scaffolds contract NAME
# (default: demo), then runs what the CI gate runs for it: rustfmt and clippy, its tests in
# racelab-props (tidy, every order of whole steps, histories, regression, reproductions, the
# scenario file), the README findings and import-circle checks, and `cargo xtask verify NAME`
# (loom included). The clone (with its own target directories, so a cold build: about 15
# minutes on two cores) is removed when everything passes and kept, with its path printed,
# when something fails.
#
# usage: ci/tools/check-new-contract.sh [NAME]
set -euo pipefail
name=${1:-demo}
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
dir=$(mktemp -d "${TMPDIR:-/tmp}/racelab-new-XXXXXX")
trap 'echo "kept for inspection: $dir" >&2' ERR
git clone --quiet --no-hardlinks "$repo" "$dir"
cd "$dir"
cargo xtask new "$name"
if cargo xtask new "$name" 2>/dev/null; then
  echo "a second \`cargo xtask new $name\` was not refused" >&2
  false
fi
cargo fmt --all -- --check
cargo clippy --all-targets -- -D warnings
cargo test --release -p racelab-props --test claims -- "$name/"
cargo test --release -p racelab-props --test claims -- README/
cargo test --release -p racelab-props --test claims -- tidy/
cargo test --release -p racelab-props --test claims -- "scenarios/$name-"
cargo xtask verify "$name"
cd /
rm -rf "$dir"
echo "cargo xtask new $name: a clean clone passes tidy and \`cargo xtask verify $name\`"
