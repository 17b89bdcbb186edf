#!/usr/bin/env bash
# The AddressSanitizer + UBSan build (preset asan, host code only) running the unit tests and
# the bad-input corpus: any sanitizer report fails a test.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset asan >/dev/null
cmake --build --preset asan -j"$(nproc)" >/dev/null
ctest --preset asan
