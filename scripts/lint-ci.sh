#!/usr/bin/env bash
# Validates the CI templates in ci/runners/ against their platforms' schemas: the GitHub workflow
# with action-validator (GitHub's workflow schema), the GitLab pipeline with gitlab-ci-local (GitLab's
# .gitlab-ci.yml schema, and its jobs resolved), both with yamllint. Then the project's own JSON
# Schemas (ci/schemas/) with ajv: every shipped matrix, calibration table, twins file and feature
# test plan (extractors/*/cases.json) must validate, and every file of tests/schemas/ (each one
# twinproof refuses) must not. The npm tools
# are pinned and installed into build/lint-ci; yamllint is a Debian package (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
tools=build/lint-ci
if [[ ! -x $tools/node_modules/.bin/action-validator || ! -x $tools/node_modules/.bin/gitlab-ci-local ||
      ! -x $tools/node_modules/.bin/ajv ]]; then
  command -v npm >/dev/null || { echo "lint-ci.sh: npm is missing (scripts/setup.sh installs it)" >&2; exit 2; }
  mkdir -p "$tools"
  npm install --no-audit --no-fund --silent --prefix "$tools" \
    @action-validator/cli@0.6.0 @action-validator/core@0.6.0 gitlab-ci-local@4.60.1 ajv-cli@5.0.0
fi
yamllint -d '{extends: default, rules: {line-length: {max: 130}, truthy: {check-keys: false}, document-start: disable}}' \
  ci/runners/github-gpu.yml ci/runners/gitlab-gpu.yml
"$tools/node_modules/.bin/action-validator" ci/runners/github-gpu.yml
# gitlab-ci-local reads .gitlab-ci.yml from a git work tree: give it one holding only the template.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$work" init -q
cp ci/runners/gitlab-gpu.yml "$work/.gitlab-ci.yml"
out=$(cd "$work" && "$OLDPWD/$tools/node_modules/.bin/gitlab-ci-local" --list 2>&1) || { echo "$out" >&2; exit 1; }
# The pipeline must resolve to its three jobs, the gate in two shards.
for job in twinproof-build 'twinproof-gate: \[1/2\]' 'twinproof-gate: \[2/2\]' twinproof-merge; do
  grep -q "^$job " <<<"$out" || { echo "$out" >&2; echo "lint-ci.sh: the GitLab pipeline lacks job $job" >&2; exit 1; }
done
echo "lint-ci.sh: ci/runners/github-gpu.yml and ci/runners/gitlab-gpu.yml are valid"

# The JSON Schemas an editor validates the project's files with, held to what twinproof reads.
ajv() { "$tools/node_modules/.bin/ajv" validate --spec=draft2020 --strict-tuples=false "$@"; }
shipped=0
for file in ci/calibration.json ci/matrices/*.json ci/twins/*.json extractors/*/cases.json; do
  case $file in ci/calibration.json) kind=calibration ;; ci/matrices/*) kind=matrix ;; extractors/*) kind=plan ;; *) kind=twins ;; esac
  out=$(ajv -s "ci/schemas/$kind.schema.json" -d "$file" 2>&1) ||
    { echo "$out" >&2; echo "lint-ci.sh: $file does not validate against ci/schemas/$kind.schema.json" >&2; exit 1; }
  shipped=$((shipped + 1))
done
refused=0
for file in tests/schemas/*.json; do
  kind=$(basename "$file" | cut -d. -f1)
  if ajv -s "ci/schemas/$kind.schema.json" -d "$file" >/dev/null 2>&1; then
    echo "lint-ci.sh: ci/schemas/$kind.schema.json accepts $file, which twinproof refuses" >&2
    exit 1
  fi
  refused=$((refused + 1))
done
echo "lint-ci.sh: ci/schemas: $shipped shipped files valid, $refused refused files refused"
