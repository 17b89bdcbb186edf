#!/usr/bin/env bash
# The main job: set up, build, fetch the real-content vectors, check every golden bit for bit,
# then run the gate over ci/matrices/gate.json. Extra arguments go to the gate (e.g.
# --require cuda on a GPU runner). Reports: build/ci/gate-report/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
build=$(bash scripts/build.sh ci)
"$build/harness/twinproof" vectors fetch
"$build/harness/twinproof" goldens check
"$build/harness/twinproof" gate --report-dir "$build/gate-report" "$@"
