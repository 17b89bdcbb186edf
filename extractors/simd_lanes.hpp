// The lane-wise operations every feature's cpu-simd kernels build on, for the ISA the including
// file is compiled for (`*_avx2.cpp`: -mavx2; `*_avx512.cpp`: AVX-512 F, CD, BW, DQ and VL). A
// feature's vector type derives from one of these and adds what only its arithmetic needs. Each
// operation is the one intrinsic it names, so a kernel's operations, and its bits, do not depend
// on which type spells them.
// Included only by those files: the types live in an unnamed namespace, so that each file has its
// own copies compiled for its ISA. Shared inline functions would let the linker keep an AVX-512
// copy for an AVX2 file's calls, which a CPU without AVX-512 cannot run.
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace twinproof::simd {
namespace {

#if defined(__AVX2__)
// 8 lanes of 32-bit integers.
struct Avx2Int32 {
  static constexpr int lanes = 8;
  using reg = __m256i;
  static reg zero() { return _mm256_setzero_si256(); }
  static reg set1(std::int32_t x) { return _mm256_set1_epi32(x); }
  static reg load(const std::int32_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static void store(std::int32_t* p, reg v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
  static reg add(reg a, reg b) { return _mm256_add_epi32(a, b); }
  static reg sub(reg a, reg b) { return _mm256_sub_epi32(a, b); }
  static reg mullo(reg a, reg b) { return _mm256_mullo_epi32(a, b); }
  static reg and_(reg a, reg b) { return _mm256_and_si256(a, b); }
  static reg srai(reg a, int n) { return _mm256_srai_epi32(a, n); }
  static reg abs(reg a) { return _mm256_abs_epi32(a); }
  // 8 samples, each widened to 32 bits.
  static reg widen(const std::uint8_t* p) { return _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))); }
  static reg widen(const std::uint16_t* p) { return _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))); }
};

// 8 lanes of floats.
struct Avx2Float {
  static constexpr int lanes = 8;
  using reg = __m256;
  static reg zero() { return _mm256_setzero_ps(); }
  static reg set1(float f) { return _mm256_set1_ps(f); }
  static reg load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, reg v) { _mm256_storeu_ps(p, v); }
  static reg add(reg a, reg b) { return _mm256_add_ps(a, b); }
  static reg sub(reg a, reg b) { return _mm256_sub_ps(a, b); }
  static reg mul(reg a, reg b) { return _mm256_mul_ps(a, b); }
  static reg div(reg a, reg b) { return _mm256_div_ps(a, b); }
  // 8 samples as floats (exact: every sample is below 2^24).
  static reg convert(const std::uint8_t* p) { return _mm256_cvtepi32_ps(Avx2Int32::widen(p)); }
  static reg convert(const std::uint16_t* p) { return _mm256_cvtepi32_ps(Avx2Int32::widen(p)); }
};
#endif

#if defined(__AVX512F__)
// 16 lanes of 32-bit integers.
struct Avx512Int32 {
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
  static reg abs(reg a) { return _mm512_abs_epi32(a); }
  // 16 samples, each widened to 32 bits.
  static reg widen(const std::uint8_t* p) { return _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))); }
  static reg widen(const std::uint16_t* p) {
    return _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
};

// 16 lanes of floats.
struct Avx512Float {
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
  // 16 samples as floats (exact: every sample is below 2^24).
  static reg convert(const std::uint8_t* p) { return _mm512_cvtepi32_ps(Avx512Int32::widen(p)); }
  static reg convert(const std::uint16_t* p) { return _mm512_cvtepi32_ps(Avx512Int32::widen(p)); }
};
#endif

}  // namespace
}  // namespace twinproof::simd
