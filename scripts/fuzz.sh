#!/usr/bin/env bash
# Fuzzes every parser of outside data: builds the libFuzzer targets (preset fuzz: clang, ASan,
# UBSan) and runs each for SECONDS (default 60) from its seed corpus in tests/fuzz/seeds.
# A crash, a leak, a sanitizer report, an uncaught exception or a timeout fails the run; the
# input that caused it is kept under build/fuzz/findings/<target>/ (add it to the bad-input
# corpus or the seeds once fixed). Prints the executions of each target.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j"$(nproc)" >/dev/null
targets=(fuzz_y4m fuzz_raw fuzz_matrix fuzz_calibration fuzz_golden fuzz_results fuzz_bundle fuzz_score_files fuzz_twins fuzz_bench)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for target in "${targets[@]}"; do
  findings="build/fuzz/findings/$target"
  mkdir -p "$work/$target" "$findings"
  log="$work/$target.log"
  if build/fuzz/tests/fuzz/"$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
       -print_final_stats=1 -artifact_prefix="$findings/" "$work/$target" "tests/fuzz/seeds/$target" >"$log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    corpus=$(ls "$work/$target" | wc -l)
    echo "fuzz: $target: $runs executions in ${seconds}s, no finding (corpus grew to $corpus inputs)"
  else
    status=1
    echo "fuzz: $target: FINDING (input kept in $findings/):"
    grep -E "ERROR|SUMMARY|uncaught|what\(\)|#[0-9]+ 0x" "$log" | head -30
  fi
done
exit $status
