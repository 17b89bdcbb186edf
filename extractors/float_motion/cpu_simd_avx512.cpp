// cpu-simd kernels for AVX-512 (compiled for AVX-512 F, CD, BW, DQ and VL): the blur 16 samples at a time. The
// row SADs keep the AVX2 8-lane walk (cpu_simd_avx2.cpp). -ffp-contract=off keeps every
// multiply and add separate although AVX-512F has fused forms.
#include <immintrin.h>

#include "extractors/float_motion/cpu_simd.hpp"

namespace twinproof::float_motion {
namespace {

struct Vec {
  static constexpr int lanes = 16;
  using reg = __m512;
  static reg zero() { return _mm512_setzero_ps(); }
  static reg set1(float f) { return _mm512_set1_ps(f); }
  static reg load(const float* p) { return _mm512_loadu_ps(p); }
  static void store(float* p, reg v) { _mm512_storeu_ps(p, v); }
  static reg add(reg a, reg b) { return _mm512_add_ps(a, b); }
  static reg sub(reg a, reg b) { return _mm512_sub_ps(a, b); }
  static reg mul(reg a, reg b) { return _mm512_mul_ps(a, b); }
  static reg div(reg a, reg b) { return _mm512_div_ps(a, b); }
  static reg from_u8(const std::uint8_t* p) {
    return _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
  }
  static reg from_u16(const std::uint16_t* p) {
    return _mm512_cvtepi32_ps(_mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))));
  }
};

}  // namespace
}  // namespace twinproof::float_motion

#include "extractors/float_motion/cpu_simd_kernels.inc"

namespace twinproof::float_motion {
void fused_batch_avx512(const SimdBatchJob& job, SimdScratch<float>& scratch) { fused_batch_dispatch(job, scratch); }
}  // namespace twinproof::float_motion
