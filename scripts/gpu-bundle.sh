#!/usr/bin/env bash
# Builds a self-contained folder for a bare GPU host (glibc 2.36+, an NVIDIA driver, nothing
# else): twinproof and its tests linked statically (libstdc++, cudart, OpenSSL, libyuv), sm_90
# machine code plus PTX, compressed with xz (gpu-check.sh unpacks them; by hand: xz -dk bin/*.xz);
# the data (manifest, goldens, ci tables), the two small real clips compressed with xz with the
# real-codec pairs of the smaller, and gpu-check.sh.
# Usage: scripts/gpu-bundle.sh [OUT_DIR] (default .bundle)
# LIBVMAF_DRIVER=PATH adds a libvmaf driver (scripts/build-libvmaf.sh OUT --cuda ...) for
# gpu-check.sh's libvmaf part.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.bundle}
limit_mib=60

cmake --preset gpu-bundle >/dev/null
cmake --build --preset gpu-bundle -j "$(nproc)" --target twinproof twinproof-tests >/dev/null
build=build/gpu-bundle

rm -rf "$out"
mkdir -p "$out/bin" "$out/cache/vectors"
cp "$build/harness/twinproof" "$build/tests/twinproof-tests" "$out/bin/"
strip --strip-debug "$out/bin/twinproof" "$out/bin/twinproof-tests"
cp -r vectors goldens "$out/"
[[ -d ci ]] && cp -r ci "$out/"
cp scripts/gpu-check.sh "$out/"
[[ -z ${LIBVMAF_DRIVER:-} ]] || cp "$LIBVMAF_DRIVER" "$out/bin/twinproof-libvmaf-driver"
# Only glibc may remain dynamic.
for bin in "$out"/bin/*; do
  if ldd "$bin" | grep -vE 'linux-vdso|ld-linux|lib(c|m|dl|rt|pthread)\.so' | grep -q '=>'; then
    echo "gpu-bundle: $bin links more than glibc:" >&2
    ldd "$bin" >&2
    exit 1
  fi
done
# The programs travel compressed (about a third of their size); gpu-check.sh unpacks them.
xz -T"$(nproc)" -6 "$out"/bin/*
# Recipe vectors are generated there; of the decoded clips only the two small ones travel.
cache=${TWINPROOF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/twinproof}
for id in bbb640_t240 city720_f48; do
  src="$cache/vectors/$id.yuv"
  if [[ ! -f $src ]]; then
    echo "gpu-bundle: $src is missing; run: twinproof vectors fetch $id" >&2
    exit 1
  fi
  xz -T"$(nproc)" -9 -c "$src" >"$out/cache/vectors/$id.yuv.xz"
done
# The real-codec pairs of the small 640x360 clip (the device host has no ffmpeg to encode them).
for src in "$cache/vectors/bbb640_t240~"*.yuv; do
  [[ -f $src ]] || { echo "gpu-bundle: no encoded pair of bbb640_t240 in $cache/vectors; run: twinproof vectors fetch" >&2; exit 1; }
  xz -T"$(nproc)" -9 -c "$src" >"$out/cache/vectors/$(basename "$src").xz"
done
# The device call carries bytes (at most 64 MiB), not disk blocks: count what the files hold.
bytes=$(du -sb "$out" | cut -f1)
echo "gpu-bundle: $out is $((bytes >> 20)) MiB ($bytes bytes)"
if ((bytes >= limit_mib << 20)); then
  echo "gpu-bundle: larger than ${limit_mib} MiB" >&2
  exit 1
fi
