#!/usr/bin/env bash
# Fuzzes every parser of outside data: builds the libFuzzer targets (preset fuzz: clang, ASan,
# UBSan) and runs each for SECONDS (default 60) from its seed corpus in tests/fuzz/seeds.
# A crash, a leak, a sanitizer report, an uncaught exception or a timeout fails the run; the
# input that caused it is kept under build/fuzz/findings/<target>/ (add it to the bad-input
# corpus or the seeds once fixed). Prints the executions of each target. Targets run side by side,
# one per core.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j"$(nproc)" >/dev/null
targets=(fuzz_y4m fuzz_raw fuzz_matrix fuzz_calibration fuzz_golden fuzz_results fuzz_bundle fuzz_score_files fuzz_twins fuzz_bench fuzz_model)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One target per core at a time, each for the full SECONDS (libFuzzer runs one process per target).
fuzz_one() {
  local target=$1 findings="build/fuzz/findings/$1"
  mkdir -p "$work/$target" "$findings"
  local rc=0
  build/fuzz/tests/fuzz/"$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -print_final_stats=1 -artifact_prefix="$findings/" "$work/$target" "tests/fuzz/seeds/$target" >"$work/$target.log" 2>&1 || rc=$?
  echo "$rc" >"$work/$target.rc"
}
jobs_max=$(nproc)
for target in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= jobs_max)); do wait -n || true; done
  fuzz_one "$target" &
done
wait
status=0
for target in "${targets[@]}"; do
  log="$work/$target.log"
  if [[ $(cat "$work/$target.rc") == 0 ]]; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    corpus=$(ls "$work/$target" | wc -l)
    echo "fuzz: $target: $runs executions in ${seconds}s, no finding (corpus grew to $corpus inputs)"
  else
    status=1
    echo "fuzz: $target: FINDING (input kept in build/fuzz/findings/$target/):"
    grep -E "ERROR|SUMMARY|uncaught|what\(\)|#[0-9]+ 0x" "$log" | head -30
  fi
done
exit $status
