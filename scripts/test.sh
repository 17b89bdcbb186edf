#!/usr/bin/env bash
# The test command: set up, build (ci preset), run every CTest suite. Exit 0 only when all pass.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh ci >/dev/null
ctest --preset ci
