#!/usr/bin/env bash
# Builds a libvmaf, its `vmaf` tool and twinproof's libvmaf driver from a source checkout, for the
# exec twins `vmaf` and `libvmaf` (ci/twins/). SRC is a checkout of Netflix/vmaf or a fork (the
# folder holding libvmaf/); OUT receives bin/vmaf and bin/twinproof-libvmaf-driver, the latter
# linked statically against the libvmaf it built, so the two always belong together.
#
#   scripts/build-libvmaf.sh SRC OUT
#   twinproof --vmaf OUT/bin/vmaf --libvmaf-driver OUT/bin/twinproof-libvmaf-driver gate --matrix ci/matrices/libvmaf.json
#
# Tested with upstream Netflix/vmaf at f85a8536 (2026). Needs meson, ninja, nasm and a C/C++
# compiler (Debian: meson ninja-build nasm g++). The build uses libvmaf's own meson files, with
# the float features on (float_motion is one); nothing is downloaded. CUDA builds of libvmaf are
# not made by this script yet.
set -euo pipefail
if [[ $# -ne 2 || ! -d ${1:-}/libvmaf ]]; then
  echo "usage: scripts/build-libvmaf.sh SRC OUT   (SRC: a Netflix/vmaf checkout, the folder holding libvmaf/)" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$1" && pwd)
mkdir -p "$2/bin"
out=$(cd "$2" && pwd)
for tool in meson ninja nasm cc; do
  command -v "$tool" >/dev/null || { echo "build-libvmaf.sh: $tool is missing (Debian: apt-get install meson ninja-build nasm g++)" >&2; exit 2; }
done
build="$out/build"
if [[ ! -f $build/build.ninja ]]; then
  meson setup "$build" "$src/libvmaf" --buildtype release -Denable_float=true -Ddefault_library=static \
    -Denable_tests=false -Denable_docs=false >"$out/meson-setup.log"
fi
ninja -C "$build" >"$out/ninja.log"
cp "$build/tools/vmaf" "$out/bin/vmaf"
# The driver: the project's C source against the headers and the static library just built.
cc -std=c11 -O2 -Wall -Wextra -I"$src/libvmaf/include" -I"$build/include" \
  "$here/harness/exec/libvmaf_driver.c" "$build/src/libvmaf.a" -lm -lpthread -lstdc++ \
  -o "$out/bin/twinproof-libvmaf-driver"
echo "build-libvmaf.sh: $("$out/bin/twinproof-libvmaf-driver" --version)"
echo "build-libvmaf.sh: $out/bin/vmaf and $out/bin/twinproof-libvmaf-driver"
