#!/usr/bin/env bash
# The main job: set up, build, fetch the real-content vectors, and check every golden bit for bit.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
build=$(bash scripts/build.sh ci)
"$build/harness/twinproof" vectors fetch
"$build/harness/twinproof" goldens check "$@"
