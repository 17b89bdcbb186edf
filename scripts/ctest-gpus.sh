#!/usr/bin/env bash
# The gate's GPU tests through CTest on a host with several GPUs: writes a CTest resource spec
# from the GPUs present, runs `ctest -L gpu` with one GPU per test (each gate test takes its
# device from CTEST_RESOURCE_GROUP_0_GPUS), then merges the per-test results into one report.
# Usage: scripts/ctest-gpus.sh [BUILD_DIR]   (default: build/ci)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/ci}
mapfile -t gpus < <(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null || true)
if ((${#gpus[@]} == 0)); then
  echo "ctest-gpus: no GPU on this host (nvidia-smi lists none)" >&2
  exit 2
fi
spec="$build/gpu-resources.json"
{
  printf '{"version": {"major": 1, "minor": 0}, "local": [{"gpus": ['
  for i in "${!gpus[@]}"; do
    ((i)) && printf ', '
    printf '{"id": "%s", "slots": 1}' "${gpus[$i]// /}"
  done
  printf ']}]}\n'
} >"$spec"
echo "ctest-gpus: ${#gpus[@]} GPU(s); resource spec $spec"
start=$(date +%s)
rc=0
ctest --test-dir "$build" -L gpu --resource-spec-file "$spec" -j "${#gpus[@]}" --output-on-failure || rc=$?
echo "ctest-gpus: ctest finished in $(($(date +%s) - start)) s (exit $rc)"
# The device twins' report folders, as the gate's CTest script lays them out
# (tests/gate/FEATURE/TWIN/VECTOR), from the registry rather than from twin names.
tp="$build/harness/twinproof"
filters=() dirs=()
while read -r feature twin; do
  filters+=(--filter "$feature/$twin/*")
  for d in "$build/tests/gate/$feature/$twin"/*/; do
    [[ -d $d ]] && dirs+=("${d%/}")
  done
done < <("$tp" backends --json | python3 -c 'import json, sys
for b in json.load(sys.stdin):
    if b["kind"] == "gpu" and b["built_in"]:
        print(b["feature"], b["name"])')
if ((${#dirs[@]} == 0)); then
  echo "ctest-gpus: no device twin's gate report under $build/tests/gate" >&2
  exit 2
fi
"$tp" merge "${filters[@]}" --out "$build/gate-gpus" -- "${dirs[@]}"
exit "$rc"
