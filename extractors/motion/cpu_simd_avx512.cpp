// Integer motion's cpu-simd kernel for AVX-512F (compiled for AVX-512 F, CD, BW, DQ and VL).
#include <immintrin.h>

#include "extractors/motion/arithmetic.hpp"
#include "extractors/motion/cpu_simd.hpp"
#include "extractors/simd_lanes.hpp"

namespace twinproof::motion {
namespace {

struct V : simd::Avx512Int32 {
  static reg srav(reg a, int n) { return _mm512_sra_epi32(a, _mm_cvtsi32_si128(n)); }
  static std::uint32_t sum_u32(reg v) {
    alignas(64) std::uint32_t lane[lanes];
    _mm512_store_si512(lane, v);
    std::uint32_t s = 0;
    for (std::uint32_t x : lane) s += x;
    return s;
  }
};

}  // namespace

#include "extractors/motion/cpu_simd_kernels.inc"

void row_sums_avx512(const SadJob& job, SimdScratch<std::int32_t>& scratch) { fused_row_sums(job, scratch); }

}  // namespace twinproof::motion
