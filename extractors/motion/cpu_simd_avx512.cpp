// Integer motion's cpu-simd kernel for AVX-512F (compiled for AVX-512 F, CD, BW, DQ and VL).
#include <immintrin.h>

#include "extractors/motion/arithmetic.hpp"
#include "extractors/motion/cpu_simd.hpp"

namespace twinproof::motion {
namespace {

struct V {
  static constexpr int lanes = 16;
  using reg = __m512i;
  static reg zero() { return _mm512_setzero_si512(); }
  static reg set1(std::int32_t x) { return _mm512_set1_epi32(x); }
  static reg load(const std::int32_t* p) { return _mm512_loadu_si512(p); }
  static void store(std::int32_t* p, reg v) { _mm512_storeu_si512(p, v); }
  static reg add(reg a, reg b) { return _mm512_add_epi32(a, b); }
  static reg sub(reg a, reg b) { return _mm512_sub_epi32(a, b); }
  static reg mullo(reg a, reg b) { return _mm512_mullo_epi32(a, b); }
  static reg and_(reg a, reg b) { return _mm512_and_si512(a, b); }
  static reg srai(reg a, int n) { return _mm512_srai_epi32(a, n); }
  static reg srav(reg a, int n) { return _mm512_sra_epi32(a, _mm_cvtsi32_si128(n)); }
  static reg abs(reg a) { return _mm512_abs_epi32(a); }
  static reg from_u16(const std::uint16_t* p) {
    return _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
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
