#!/usr/bin/env bash
# The main job: set up, build, fetch the real-content vectors, check every golden bit for bit,
# then run the gate over ci/matrices/gate.json, the exec twins' ci/matrices/exec.json and the
# example plugins over ci/matrices/plugins.json. Extra arguments go to the gate (e.g.
# --require cuda on a GPU runner); a --shard I/N among them shards the goldens check too.
# Reports: build/ci/gate-report/.
set -euo pipefail
cd "$(dirname "$0")/.."
goldens_args=()
args=("$@")
for ((i = 0; i < ${#args[@]}; ++i)); do
  case ${args[i]} in
    --shard) goldens_args+=(--shard "${args[i + 1]:-}") ;;
    --shard=*) goldens_args+=("${args[i]}") ;;
  esac
done
bash scripts/setup.sh
build=$(bash scripts/build.sh ci)
"$build/harness/twinproof" vectors fetch
"$build/harness/twinproof" goldens check "${goldens_args[@]}"
"$build/harness/twinproof" gate --report-dir "$build/gate-report" "$@"
# Programs twinproof did not write (ci/twins/): itself as an external program (exact), ffmpeg's
# vmafmotion (calibrated), the vmaf tool when --vmaf or TWINPROOF_VMAF names one.
"$build/harness/twinproof" gate --matrix ci/matrices/exec.json --report-dir "$build/exec-report" "$@"
# Twins built outside twinproof as plugins (tests/plugins), loaded at run time: the exact example
# and the pair example (every pair cell; the unit tests run a few of them).
"$build/harness/twinproof" --plugin "$build/tests/plugins/twinproof-example-plugin.so" \
  --plugin "$build/tests/plugins/twinproof-example-psnr.so" gate --matrix ci/matrices/plugins.json \
  --filter '*/example-plugin/*' --filter 'psnr/example-psnr/*' --report-dir "$build/plugins-report" "$@"
