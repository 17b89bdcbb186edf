#!/usr/bin/env bash
# Configures and builds one preset (default: ci). Prints the build folder last.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-ci}
cmake --preset "$preset" >&2
cmake --build --preset "$preset" -j "$(nproc)" >&2
echo "build/$preset"
