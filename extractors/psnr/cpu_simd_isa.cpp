// psnr's cpu-simd kernel, compiled once per ISA (extractors/simd_lanes.hpp: rows_avx2 with
// -mavx2, rows_avx512 for AVX-512 F, CD, BW, DQ and VL).
#include <immintrin.h>

#include "extractors/psnr/cpu_simd.hpp"
#include "extractors/simd_lanes.hpp"

namespace twinproof::psnr {
namespace {

using V = simd::IsaInt32;

#include "extractors/psnr/cpu_simd_kernels.inc"

}  // namespace

void TWINPROOF_ISA_NAME(rows)(const PlaneJob& job) { simd_rows(job); }

}  // namespace twinproof::psnr
