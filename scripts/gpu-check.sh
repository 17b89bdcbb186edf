#!/usr/bin/env bash
# Runs on a GPU host from an unpacked bundle (scripts/gpu-bundle.sh): every golden of every
# feature with every CUDA twin, the device unit tests, compute-sanitizer, the gate, the sweep,
# repro and the benches; prints a summary table last.
# Usage: gpu-check.sh [LOG_DIR]   (default: $OUT when set, else ./gpu-check-logs)
# GPU_CHECK_PARTS="goldens tests sanitizer gate determinism repro bench libvmaf" (the default: all)
# picks parts, so that a device session can split the work over calls. The libvmaf part gates the
# libvmaf driver the bundle carries (bin/twinproof-libvmaf-driver, from a libvmaf built with
# scripts/build-libvmaf.sh --cuda): both of its twins over ci/matrices/libvmaf.json and
# libvmaf-sweep.json, calibrate on each run, a motion and a vif cell of libvmaf-cuda with
# --repeat 30 --concurrent 5, and repro of the first failing cell.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
logs=${1:-${OUT:-$here/gpu-check-logs}}
mkdir -p "$logs"
tp="$here/bin/twinproof"
export TWINPROOF_DATA="$here" TWINPROOF_CACHE="$here/cache" TWINPROOF_BIN="$tp"
summary="$logs/summary.tsv"
: >"$summary"
row() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$summary"; }
parts=" ${GPU_CHECK_PARTS:-goldens tests sanitizer gate determinism repro bench libvmaf} "
part() { [[ $parts == *" $1 "* ]]; }

# The bundle's programs travel compressed (gpu-bundle.sh).
for xz in "$here"/bin/*.xz; do
  [[ -e $xz ]] || continue
  [[ -f ${xz%.xz} ]] || xz -d -k "$xz"
done

echo "== device"
nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader | tee "$logs/device.txt"
"$tp" backends | tee "$logs/backends.txt"

echo "== clips"
for xz in "$here"/cache/vectors/*.yuv.xz; do
  [[ -f ${xz%.xz} ]] || xz -d -k "$xz"
done
"$tp" vectors verify bbb640_t240 city720_f48 bbb640_t240~x264crf23 bbb640_t240~x264crf38 | tail -1

# Every built-in backend of every feature against that feature's goldens (`backends --json`; device
# twins first), judged as its calibration row says: places=N for a places row, else exact.
while read -r feature backend places; do
  part goldens || break
  echo "== goldens check --feature $feature --backend $backend${places:+ --places $places}"
  start=$(date +%s.%N)
  "$tp" goldens check --feature "$feature" --backend "$backend" ${places:+--places "$places"} --skip-absent \
    --json "$logs/goldens-$feature-$backend.json" >"$logs/goldens-$feature-$backend.txt" 2>&1
  rc=$?
  secs=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
  tail -1 "$logs/goldens-$feature-$backend.txt"
  row "goldens $feature/$backend" "rc=$rc" "$(tail -1 "$logs/goldens-$feature-$backend.txt") | ${secs}s"
done < <("$tp" backends --json | python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
places = {(r["feature"], r["twin"]): r["places"] for r in rows if r.get("mode") == "places"}
chosen = [b for b in json.load(sys.stdin) if b["built_in"] and not b["mutant"]]
for b in sorted(chosen, key=lambda b: b["kind"] != "gpu"):
    print(b["feature"], b["name"], places.get((b["feature"], b["name"]), ""))' "$here/ci/calibration.json")

if part tests; then
echo "== unit tests (all suites but the build-tree PTX check and the plugins, whose libraries stay in the build tree)"
"$here/bin/twinproof-tests" --run_test='!ptx_contract:!plugins' --report_level=short >"$logs/tests.txt" 2>&1
rc=$?
tail -3 "$logs/tests.txt"
row "unit tests" "rc=$rc" "$(grep -E 'passed|failed|No errors' "$logs/tests.txt" | tail -1)"
"$here/bin/twinproof-tests" --run_test='gpu_twins' --report_level=detailed >"$logs/tests-gpu-twins.txt" 2>&1
rc=$?
row "gpu_twins suite" "rc=$rc" "$(grep -E 'Test suite .gpu_twins.' -A2 "$logs/tests-gpu-twins.txt" | tr '\n' ' ' | tr -s ' ')"
fi

part sanitizer && echo "== compute-sanitizer"
for tool in memcheck racecheck; do
  part sanitizer || break
  for backend in cuda cuda-rowthread cuda-block; do
    log="$logs/sanitizer-$tool-$backend.txt"
    compute-sanitizer --tool "$tool" --error-exitcode 99 "$tp" score vector:odd175_420 --backend "$backend" \
      --option motion_add_uv=true --option motion_add_scale1=true >"$log" 2>&1
    rc=$?
    row "sanitizer $tool $backend" "rc=$rc" "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)"
  done
  # Integer motion's cuda: the window at 8 bit, and 16 bit (the split products).
  for input in "vector:odd175_420 --option motion_five_frame_window=true" "vector:ramp256_16b --option debug=true"; do
    log="$logs/sanitizer-$tool-motion-cuda-${input%% *}.txt"
    log=${log//:/_}
    # shellcheck disable=SC2086
    compute-sanitizer --tool "$tool" --error-exitcode 99 "$tp" score $input --feature motion --backend cuda >"$log" 2>&1
    rc=$?
    row "sanitizer $tool motion/cuda ${input%% *}" "rc=$rc" "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)"
  done
done
# Every device twin of every feature from the registry, at default options over an odd-sized
# 4:2:0 clip (a pair for a feature that reads the distorted clip).
while read -r feature backend pair; do
  for tool in memcheck racecheck; do
    part sanitizer || break
    input=vector:odd175_420
    [[ $pair == True ]] && input=vector:odd175_420~noise4
    log="$logs/sanitizer-$tool-$feature-$backend.txt"
    compute-sanitizer --tool "$tool" --error-exitcode 99 "$tp" score "$input" --feature "$feature" --backend "$backend" >"$log" 2>&1
    rc=$?
    row "sanitizer $tool $feature/$backend $input" "rc=$rc" "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)"
  done
done < <("$tp" features --json | python3 -c '
import json, subprocess, sys
backends = json.loads(subprocess.run([sys.argv[1], "backends", "--json"], capture_output=True, text=True).stdout)
for f in json.load(sys.stdin):
    for b in backends:
        if b["feature"] == f["name"] and b["kind"] == "gpu":
            print(f["name"], b["name"], f["reads_distorted"])' "$tp")

# The two full-size real clips stay on the CPU runners (see docs/building.md); everything else runs.
absent=(--filter '-*/bbb1080_t240/*' --filter '-*/city720x405/*')
# gate:DEVICES:GPU_WORKERS; the first and the last run must give the same verdicts (one GPU worker
# against eight on one device).
for run in "gate:0:1" "sweep:0:8" "gate:0:8"; do
  part gate || break
  IFS=: read -r matrix devices workers <<<"$run"
  name="$matrix-devices-${devices/,/-}-workers-$workers"
  echo "== gate --matrix $matrix.json --require cuda --devices $devices --gpu-workers $workers"
  start=$(date +%s.%N)
  "$tp" gate --matrix "$here/ci/matrices/$matrix.json" --require cuda --devices "$devices" --gpu-workers "$workers" --quiet "${absent[@]}" \
    --report-dir "$logs/$name" >"$logs/$name.txt" 2>&1
  rc=$?
  secs=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
  tail -3 "$logs/$name.txt"
  row "gate $matrix.json --devices $devices --gpu-workers $workers" "rc=$rc" "$(grep -E '^gate: [0-9]+ cells of' "$logs/$name.txt" | tail -1) | ${secs}s wall"
done
# Eight workers on one device must give the same verdicts as one.
if part gate; then
python3 - "$logs" <<'PY' && row "gate: 8 GPU workers = 1" "rc=0" "same cells, same verdicts" || row "gate: 8 GPU workers = 1" "rc=1" "verdicts differ"
import json, sys
def verdicts(d):
    return {json.loads(l)["id"]: json.loads(l)["status"] for l in open(f"{sys.argv[1]}/{d}/results.jsonl")}
sys.exit(0 if verdicts("gate-devices-0-workers-1") == verdicts("gate-devices-0-workers-8") else 1)
PY
fi

if part determinism; then
# Every CUDA twin over gate.json's default option sets, 20 repetitions of 4 instances at once on
# one device: a cell whose 80 runs do not return the same bits fails.
echo "== gate --repeat 20 --concurrent 4 (CUDA twins, default options)"
start=$(date +%s.%N)
"$tp" gate --matrix "$here/ci/matrices/gate.json" --filter '*/cuda*/*default' "${absent[@]}" --require cuda --repeat 20 \
  --concurrent 4 --quiet --report-dir "$logs/gate-repeat" >"$logs/gate-repeat.txt" 2>&1
rc=$?
secs=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
tail -4 "$logs/gate-repeat.txt"
row "gate CUDA twins --repeat 20 --concurrent 4" "rc=$rc" "$(grep -E '^gate: [0-9]+ cells of' "$logs/gate-repeat.txt" | tail -1) | ${secs}s wall"
fi

if part repro; then
echo "== repro"
"$tp" repro float_motion/cuda-block/cb1080_d1/8b/420/default >"$logs/repro-cuda-block.txt" 2>&1
rc=$?
tail -12 "$logs/repro-cuda-block.txt"
row "repro cuda-block cb1080_d1" "rc=$rc" "$(grep -E 'equal;|first divergence|every exposed' "$logs/repro-cuda-block.txt" | tail -1)"
for cell in float_motion/cuda/cb1080_d1/8b/420/default motion/cuda/cb1080_d1/8b/420/default motion/cuda/pan576/8b/420/five_frame; do
  log="$logs/repro-${cell//\//_}-repeat.txt"
  "$tp" repro "$cell" --repeat 20 >"$log" 2>&1
  rc=$?
  tail -3 "$log"
  row "repro $cell --repeat 20" "rc=$rc" "$(grep -E 'equal bit for bit|first divergence' "$log" | tail -1); $(grep -E 'repeat' "$log" | tail -1)"
done

fi

if part libvmaf; then
driver="$here/bin/twinproof-libvmaf-driver"
if [[ ! -x $driver ]]; then
  row "libvmaf" "absent" "the bundle carries no libvmaf driver (LIBVMAF_DRIVER=... scripts/gpu-bundle.sh)"
else
  echo "== libvmaf: $("$driver" --version)"
  lv=("$tp" --libvmaf-driver "$driver")
  # libvmaf.json: every oracle vector with its option sets (scored and refused); libvmaf-sweep.json:
  # every bit depth and chroma format of the sweep's vectors, 1080p and 4K included.
  for matrix in libvmaf libvmaf-sweep; do
    for twin in libvmaf-cuda libvmaf; do
      name=$matrix-$twin
      start=$(date +%s.%N)
      "${lv[@]}" gate --matrix "$here/ci/matrices/$matrix.json" --filter "*/$twin/*" "${absent[@]}" --quiet \
        --report-dir "$logs/gate-$name" >"$logs/gate-$name.txt" 2>&1
      rc=$?
      secs=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
      tail -3 "$logs/gate-$name.txt"
      row "gate $matrix.json $twin" "rc=$rc" "$(grep -E '^gate: [0-9]+ cells of' "$logs/gate-$name.txt" | tail -1) | ${secs}s wall"
      "$tp" calibrate "$logs/gate-$name" --margin 0 --calibration "$here/ci/calibration.json" \
        --output "$logs/calibrate-$name.json" >"$logs/calibrate-$name.txt" 2>&1
      row "calibrate gate-$name" "rc=$?" "$(grep -E "^ +(TIGHTER|LOOSER|NEW|same|NONE) " "$logs/calibrate-$name.txt" | tr '\n' ';' | cut -c1-300)"
    done
  done
  for cell in motion/libvmaf-cuda/cb1080_d1/8b/420/default vif/libvmaf-cuda/pan576~noise4/8b/420/default; do
    start=$(date +%s.%N)
    name=repeat-libvmaf-cuda-${cell%%/*}
    "${lv[@]}" gate --matrix "$here/ci/matrices/libvmaf.json" --filter "$cell" --repeat 30 --concurrent 5 \
      --report-dir "$logs/$name" >"$logs/$name.txt" 2>&1
    rc=$?
    secs=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
    tail -3 "$logs/$name.txt"
    row "$cell --repeat 30 --concurrent 5" "rc=$rc" "$(grep -E '^gate: [0-9]+ cells of' "$logs/$name.txt" | tail -1) | ${secs}s wall"
  done
  # The first failing cell (one with a verdict rather than an error, when there is one).
  failing=$(python3 -c "
import json, sys
records = [json.loads(l) for l in open(sys.argv[1])]
for wanted in (('fail',), ('error', 'timeout')):
    hit = [r['id'] for r in records if r['status'] in wanted and r['twin'] == 'libvmaf-cuda']
    if hit:
        print(hit[0]); break
" "$logs/gate-libvmaf-libvmaf-cuda/results.jsonl" 2>/dev/null)
  if [[ -n $failing ]]; then
    "${lv[@]}" repro "$failing" --matrix "$here/ci/matrices/libvmaf.json" >"$logs/repro-libvmaf-cuda.txt" 2>&1
    rc=$?
    tail -8 "$logs/repro-libvmaf-cuda.txt"
    row "repro $failing" "rc=$rc" "$(grep -E 'equal;|first divergence|every exposed|mismatch|both refuse' "$logs/repro-libvmaf-cuda.txt" | tail -1 | cut -c1-300)"
  else
    row "repro libvmaf-cuda" "-" "no failing cell to replay"
  fi
fi
fi

part bench && echo "== bench"
# Every feature of the registry, 8 and 10 bit.
for feature in $("$tp" features --json | python3 -c 'import json, sys; print(" ".join(f["name"] for f in json.load(sys.stdin)))'); do
  for depth in 8 10; do
    part bench || break
    log="$logs/bench-$feature-${depth}b.txt"
    "$tp" bench --feature "$feature" --bitdepth "$depth" --sizes 576x324,1920x1080,3840x2160 --frames 32 --reps 5 \
      --json "$logs/bench-$feature-${depth}b.json" >"$log" 2>&1
    rc=$?
    cat "$log"
    row "bench --feature $feature --bitdepth $depth" "rc=$rc" "see bench-$feature-${depth}b.txt"
  done
done

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
for f in sorted(logs.glob("goldens-*.json")):
    feature, backend = f.stem[len("goldens-"):].split("-", 1)  # feature names hold no '-'
    doc = json.loads(f.read_text())
    cases = doc["cases"]
    scored = [c for c in cases if c["kind"] == "scored"]
    present = [c for c in scored if c["status"] != "ABSENT"]
    if not present:
        continue
    zero = [c for c in present if c["status"] == "PASS" and c["max_ulp"] == 0]
    refusals = [c for c in cases if c["kind"] == "refusal"]
    ok_ref = [c for c in refusals if c["status"] == "PASS"]
    print(f"\n{feature}/{backend} ({doc['tolerance']}): scored cases held {len(present)} of {len(scored)}, "
          f"0 ULP on {len(zero)}, max ULP {max((c.get('max_ulp', 0) for c in present), default=0)}; refusals {len(ok_ref)}/{len(refusals)}")
    if doc["tolerance"] != "exact":  # a places twin: how close each case came
        print(f"  {'case':<32} {'status':<6} {'max |diff|':>12}")
        for c in present:
            print(f"  {c['id']:<32} {c['status']:<6} {c['max_abs_diff']:>12.3e}")
PY
