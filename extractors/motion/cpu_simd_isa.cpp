// Integer motion's cpu-simd kernel, compiled once per ISA (extractors/simd_lanes.hpp:
// row_sums_avx2 with -mavx2, row_sums_avx512 for AVX-512 F, CD, BW, DQ and VL).
#include <immintrin.h>

#include "extractors/motion/arithmetic.hpp"
#include "extractors/motion/cpu_simd.hpp"
#include "extractors/simd_lanes.hpp"

namespace twinproof::motion {
namespace {

using V = simd::IsaInt32;

}  // namespace

#include "extractors/motion/cpu_simd_kernels.inc"

void TWINPROOF_ISA_NAME(row_sums)(const SadJob& job, SimdScratch<std::int32_t>& scratch) { fused_row_sums(job, scratch); }

}  // namespace twinproof::motion
