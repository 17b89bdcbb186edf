// Integer motion's cpu-simd kernel for AVX2 (compiled with -mavx2 alone).
#include <immintrin.h>

#include "extractors/motion/arithmetic.hpp"
#include "extractors/motion/cpu_simd.hpp"
#include "extractors/simd_lanes.hpp"

namespace twinproof::motion {
namespace {

struct V : simd::Avx2Int32 {
  static reg srav(reg a, int n) { return _mm256_sra_epi32(a, _mm_cvtsi32_si128(n)); }
  static std::uint32_t sum_u32(reg v) {
    alignas(32) std::uint32_t lane[lanes];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lane), v);
    std::uint32_t s = 0;
    for (std::uint32_t x : lane) s += x;
    return s;
  }
};

}  // namespace

#include "extractors/motion/cpu_simd_kernels.inc"

void row_sums_avx2(const SadJob& job, SimdScratch<std::int32_t>& scratch) { fused_row_sums(job, scratch); }

}  // namespace twinproof::motion
