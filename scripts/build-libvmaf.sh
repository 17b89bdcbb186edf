#!/usr/bin/env bash
# Builds a libvmaf, its `vmaf` tool and twinproof's libvmaf driver from a source checkout, for the
# exec twins `vmaf`, `libvmaf` and `libvmaf-cuda` (ci/twins/). SRC is a checkout of Netflix/vmaf or
# a fork (the folder holding libvmaf/); OUT receives bin/vmaf and bin/twinproof-libvmaf-driver, the
# latter linked statically against the libvmaf it built, so the two always belong together.
#
#   scripts/build-libvmaf.sh SRC OUT
#   scripts/build-libvmaf.sh SRC OUT --cuda NV_CODEC_HEADERS [--cuda-arch sm_90]
#   twinproof --vmaf OUT/bin/vmaf --libvmaf-driver OUT/bin/twinproof-libvmaf-driver gate --matrix ci/matrices/libvmaf.json
#
# Tested with upstream Netflix/vmaf at f85a8536 (2026), and for --cuda with nvcc 13.0 and
# FFmpeg/nv-codec-headers at f2fb9b3. Needs meson, ninja, nasm and a C/C++ compiler (Debian: meson
# ninja-build nasm g++); --cuda also needs the CUDA toolkit (nvcc, bin2c) at /usr/local/cuda or on
# PATH. The build uses libvmaf's own meson files, with the float features on (float_motion is one);
# nothing is downloaded.
#
# --cuda: libvmaf's CUDA code reaches the driver API through ffnvcodec's loader headers (it never
# links libcuda: it opens it at run time). Debian 12's libffmpeg-nvenc-dev is too old for it, and
# the public nv-codec-headers lack seven entry points libvmaf calls, so the script copies the
# headers from the given checkout under OUT and declares those seven there (OUT/ffnvcodec; the
# checkout is not touched). libvmaf's nvcc steps name include folders relative to the build folder
# (../src), so the CUDA build happens in a copy of SRC/libvmaf under OUT with its build folder at
# OUT/vmaf/libvmaf/build. --cuda-arch sm_NN compiles the device code for that one architecture (plus
# its PTX) instead of libvmaf's list of six, which is most of the build time.
set -euo pipefail
usage() {
  echo "usage: scripts/build-libvmaf.sh SRC OUT [--cuda NV_CODEC_HEADERS [--cuda-arch sm_NN]]" >&2
  echo "  SRC: a Netflix/vmaf checkout (the folder holding libvmaf/); NV_CODEC_HEADERS: a FFmpeg/nv-codec-headers checkout" >&2
  exit 2
}
[[ $# -ge 2 && -d ${1:-}/libvmaf ]] || usage
here=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$1" && pwd)
mkdir -p "$2/bin"
out=$(cd "$2" && pwd)
shift 2
nvcodec="" arch=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --cuda) [[ $# -ge 2 && -d $2/include/ffnvcodec ]] || { echo "build-libvmaf.sh: --cuda needs a nv-codec-headers checkout (a folder holding include/ffnvcodec)" >&2; exit 2; }
            nvcodec=$(cd "$2" && pwd); shift 2 ;;
    --cuda-arch) [[ $# -ge 2 && $2 =~ ^sm_[0-9]+$ ]] || { echo "build-libvmaf.sh: --cuda-arch takes sm_NN (e.g. sm_90), not '${2:-}'" >&2; exit 2; }
                 arch=${2#sm_}; shift 2 ;;
    *) usage ;;
  esac
done
[[ -z $arch || -n $nvcodec ]] || { echo "build-libvmaf.sh: --cuda-arch is for --cuda builds" >&2; exit 2; }
for tool in meson ninja nasm cc; do
  command -v "$tool" >/dev/null || { echo "build-libvmaf.sh: $tool is missing (Debian: apt-get install meson ninja-build nasm g++)" >&2; exit 2; }
done

# The seven driver entry points libvmaf's CUDA code calls that nv-codec-headers does not declare,
# as "name|parameters": a typedef, a member of CudaFunctions and a load each, unless the headers
# already have them.
missing_entry_points=(
  "cuStreamCreateWithPriority|CUstream *phStream, unsigned int flags, int priority"
  "cuCtxGetStreamPriorityRange|int *leastPriority, int *greatestPriority"
  "cuMemHostAlloc|void **pp, size_t bytesize, unsigned int Flags"
  "cuMemFreeHost|void *p"
  "cuCtxSynchronize|void"
  "cuLaunchHostFunc|CUstream hStream, CUhostFn *fn, void *userData"
  "cuMemFreeAsync|CUdeviceptr dptr, CUstream hStream"
)
write_ffnvcodec_shim() {
  local inc="$out/ffnvcodec/include/ffnvcodec"
  rm -rf "$out/ffnvcodec"
  mkdir -p "$inc"
  cp "$nvcodec"/include/ffnvcodec/*.h "$inc/"
  local cuda_h="$inc/dynlink_cuda.h" loader_h="$inc/dynlink_loader.h" entry name params
  grep -q "tcuStreamCreate(" "$cuda_h" && grep -q "tcuStreamCreate \*cuStreamCreate;" "$loader_h" ||
    { echo "build-libvmaf.sh: $nvcodec: unexpected ffnvcodec headers (no cuStreamCreate to anchor the shim)" >&2; exit 2; }
  grep -q "CUhostFn" "$cuda_h" ||
    sed -i '/tcuStreamCreate(/i typedef void CUDAAPI CUhostFn(void *userData);  /* twinproof shim */' "$cuda_h"
  for entry in "${missing_entry_points[@]}"; do
    name=${entry%%|*} params=${entry#*|}
    grep -q "t$name\b" "$cuda_h" && continue
    sed -i "/tcuStreamCreate(/a typedef CUresult CUDAAPI t$name($params);  /* twinproof shim */" "$cuda_h"
    sed -i "/tcuStreamCreate \*cuStreamCreate;/a \    t$name *$name;  /* twinproof shim */" "$loader_h"
    sed -i "/LOAD_SYMBOL(cuStreamCreate, /a \    LOAD_SYMBOL($name, t$name, \"$name\");  /* twinproof shim */" "$loader_h"
  done
}

if [[ -z $nvcodec ]]; then
  libvmaf_src="$src/libvmaf"
  build="$out/build"
  setup_args=()
else
  export PATH="$PATH:/usr/local/cuda/bin"
  for tool in nvcc bin2c; do
    command -v "$tool" >/dev/null || { echo "build-libvmaf.sh: --cuda: $tool is missing (the CUDA toolkit, /usr/local/cuda/bin)" >&2; exit 2; }
  done
  write_ffnvcodec_shim
  # A copy of the sources libvmaf's build reads (libvmaf/ and the models it embeds, ../model;
  # libvmaf's own build folder, if any, left behind), refreshed when SRC changes.
  mkdir -p "$out/vmaf/libvmaf" "$out/vmaf/model"
  (cd "$src/libvmaf" && tar --exclude=./build -cf - .) | (cd "$out/vmaf/libvmaf" && tar -xf -)
  (cd "$src/model" && tar -cf - .) | (cd "$out/vmaf/model" && tar -xf -)
  libvmaf_src="$out/vmaf/libvmaf"
  build="$libvmaf_src/build"
  if [[ -n $arch ]]; then
    # libvmaf lists its gencodes in src/meson.build; keep only the one asked for, in the copy.
    sed -i -E "s/'-gencode=arch=compute_[0-9]+,code=(sm|compute)_[0-9]+'/'-gencode=arch=compute_$arch,code=[sm_$arch,compute_$arch]'/" \
      "$libvmaf_src/src/meson.build"
  fi
  setup_args=(-Denable_cuda=true -Denable_nvcc=true "-Dc_args=-I$out/ffnvcodec/include")
  # libvmaf's nvcc steps take no include flags from meson's options; nvcc reads these itself.
  export NVCC_PREPEND_FLAGS="-I$out/ffnvcodec/include"
fi
if [[ ! -f $build/build.ninja ]]; then
  meson setup "$build" "$libvmaf_src" --buildtype release -Denable_float=true -Ddefault_library=static \
    -Denable_tests=false -Denable_docs=false "${setup_args[@]}" >"$out/meson-setup.log" ||
    { tail -20 "$out/meson-setup.log" >&2; exit 1; }
fi
ninja -C "$build" >"$out/ninja.log" || { tail -30 "$out/ninja.log" >&2; exit 1; }
cp "$build/tools/vmaf" "$out/bin/vmaf"
# The driver: the project's C source against the headers and the static library just built,
# linked by the C++ driver (libvmaf has C++ parts) with libstdc++ and libgcc static, so that the
# binary runs on a host without this machine's libraries (a GPU host). With CUDA it opens libcuda
# at run time (dlopen), as libvmaf does.
cuda_flags=()
[[ -z $nvcodec ]] || cuda_flags=(-DTWINPROOF_DRIVER_CUDA "-I$out/ffnvcodec/include")
cc -std=c11 -O2 -Wall -Wextra -I"$libvmaf_src/include" -I"$build/include" "${cuda_flags[@]}" \
  -c "$here/harness/exec/libvmaf_driver.c" -o "$out/libvmaf_driver.o"
c++ "$out/libvmaf_driver.o" "$build/src/libvmaf.a" -static-libstdc++ -static-libgcc -lm -lpthread -ldl \
  -o "$out/bin/twinproof-libvmaf-driver"
echo "build-libvmaf.sh: $("$out/bin/twinproof-libvmaf-driver" --version)"
echo "build-libvmaf.sh: $out/bin/vmaf and $out/bin/twinproof-libvmaf-driver"
