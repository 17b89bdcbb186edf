#!/usr/bin/env bash
# Runs on a GPU host from an unpacked bundle (scripts/gpu-bundle.sh): every golden with every
# CUDA twin, the CUDA unit tests, and compute-sanitizer; prints a summary table last.
# Usage: gpu-check.sh [LOG_DIR]   (default: $OUT when set, else ./gpu-check-logs)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
logs=${1:-${OUT:-$here/gpu-check-logs}}
mkdir -p "$logs"
tp="$here/bin/twinproof"
export TWINPROOF_DATA="$here" TWINPROOF_CACHE="$here/cache" TWINPROOF_BIN="$tp"
summary="$logs/summary.tsv"
: >"$summary"
row() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$summary"; }

echo "== device"
nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader | tee "$logs/device.txt"
"$tp" backends | tee "$logs/backends.txt"

echo "== clips"
for xz in "$here"/cache/vectors/*.yuv.xz; do
  [[ -f ${xz%.xz} ]] || xz -d -k "$xz"
done
"$tp" vectors verify bbb640_t240 city720_f48 | tail -1

for backend in cuda cuda-rowthread cuda-block cpu cpu-simd; do
  echo "== goldens check --backend $backend"
  extra=()
  [[ $backend == cuda-block ]] && extra=(--places 4)
  start=$(date +%s.%N)
  "$tp" goldens check --backend "$backend" --skip-absent "${extra[@]}" --json "$logs/goldens-$backend.json" \
    >"$logs/goldens-$backend.txt" 2>&1
  rc=$?
  secs=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
  tail -2 "$logs/goldens-$backend.txt"
  row "goldens $backend" "rc=$rc" "$(tail -2 "$logs/goldens-$backend.txt" | head -1) | $(tail -1 "$logs/goldens-$backend.txt") | ${secs}s"
done

echo "== unit tests (all suites but the build-tree PTX check)"
"$here/bin/twinproof-tests" --run_test='!ptx_contract' --report_level=short >"$logs/tests.txt" 2>&1
rc=$?
tail -3 "$logs/tests.txt"
row "unit tests" "rc=$rc" "$(grep -E 'passed|failed|No errors' "$logs/tests.txt" | tail -1)"

echo "== compute-sanitizer"
for tool in memcheck racecheck; do
  for backend in cuda cuda-rowthread cuda-block; do
    log="$logs/sanitizer-$tool-$backend.txt"
    compute-sanitizer --tool "$tool" --error-exitcode 99 "$tp" score vector:odd175_420 --backend "$backend" \
      -o motion_add_uv=true -o motion_add_scale1=true >"$log" 2>&1
    rc=$?
    row "sanitizer $tool $backend" "rc=$rc" "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)"
  done
done

# The two full-size real clips stay on the CPU runners (see README); everything else runs.
absent=(--filter '-*/bbb1080_t240/*' --filter '-*/city720x405/*')
for run in "gate:0" "sweep:0" "gate:0,0"; do
  matrix=${run%%:*} devices=${run#*:}
  name="$matrix-devices-${devices/,/-}"
  echo "== gate --matrix $matrix.json --require cuda --devices $devices"
  start=$(date +%s.%N)
  "$tp" gate --matrix "$here/ci/matrices/$matrix.json" --require cuda --devices "$devices" --quiet "${absent[@]}" \
    --report-dir "$logs/$name" >"$logs/$name.txt" 2>&1
  rc=$?
  secs=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
  tail -3 "$logs/$name.txt"
  row "gate $matrix.json --devices $devices" "rc=$rc" "$(grep -E '^gate ' "$logs/$name.txt" | tail -1) | ${secs}s wall"
done
# Two workers on one device must give the same verdicts as one.
python3 - "$logs" <<'PY' && row "gate --devices 0,0 = --devices 0" "rc=0" "same cells, same verdicts" || row "gate --devices 0,0 = --devices 0" "rc=1" "verdicts differ"
import json, sys
def verdicts(d):
    return {json.loads(l)["id"]: json.loads(l)["status"] for l in open(f"{sys.argv[1]}/{d}/results.jsonl")}
sys.exit(0 if verdicts("gate-devices-0") == verdicts("gate-devices-0-0") else 1)
PY

echo "== repro"
"$tp" repro float_motion/cuda-block/cb1080_d1/8b/420/default >"$logs/repro-cuda-block.txt" 2>&1
rc=$?
tail -12 "$logs/repro-cuda-block.txt"
row "repro cuda-block cb1080_d1" "rc=$rc" "$(grep -E 'equal;|first divergence|every exposed' "$logs/repro-cuda-block.txt" | tail -1)"
"$tp" repro float_motion/cuda/cb1080_d1/8b/420/default --repeat 20 >"$logs/repro-cuda-repeat.txt" 2>&1
rc=$?
tail -3 "$logs/repro-cuda-repeat.txt"
row "repro cuda cb1080_d1 --repeat 20" "rc=$rc" "$(grep -E 'repeat' "$logs/repro-cuda-repeat.txt" | tail -1)"

echo
echo "== summary"
python3 - "$logs" <<'PY'
import json, pathlib, sys
logs = pathlib.Path(sys.argv[1])
rows = [l.split("\t") for l in (logs / "summary.tsv").read_text().splitlines()]
w = max(len(r[0]) for r in rows)
print(f"{'check':<{w}}  {'exit':<6}  result")
for name, rc, text in rows:
    print(f"{name:<{w}}  {rc:<6}  {text}")
for backend in ("cuda", "cuda-rowthread", "cuda-block"):
    f = logs / f"goldens-{backend}.json"
    if not f.exists():
        continue
    doc = json.loads(f.read_text())
    scored = [c for c in doc["cases"] if c["kind"] == "scored"]
    present = [c for c in scored if c["status"] != "ABSENT"]
    zero = [c for c in present if c["status"] == "PASS" and c["max_ulp"] == 0]
    refusals = [c for c in doc["cases"] if c["kind"] == "refusal"]
    ok_ref = [c for c in refusals if c["status"] == "PASS"]
    print(f"\n{backend} ({doc['tolerance']}): scored cases held {len(present)} of {len(scored)}, "
          f"0 ULP on {len(zero)}, max ULP {max((c['max_ulp'] for c in present), default=0)}; refusals {len(ok_ref)}/{len(refusals)}")
    if backend == "cuda-block":
        print(f"  {'case':<32} {'status':<6} {'max |diff|':>12}")
        for c in present:
            print(f"  {c['id']:<32} {c['status']:<6} {c['max_abs_diff']:>12.3e}")
PY
