// The lane-wise operations every feature's cpu-simd kernels build on, for the ISA the including
// file is compiled for (`*_isa.cpp`: once per ISA; `*_avx2.cpp`: -mavx2; `*_avx512.cpp`: AVX-512
// F, CD, BW, DQ and VL). A
// feature's vector type derives from one of these and adds what only its arithmetic needs. Each
// operation is the one intrinsic it names, so a kernel's operations, and its bits, do not depend
// on which type spells them.
// Included only by those files: the types live in an unnamed namespace, so that each file has its
// own copies compiled for its ISA. Shared inline functions would let the linker keep an AVX-512
// copy for an AVX2 file's calls, which a CPU without AVX-512 cannot run.
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <utility>

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
  // A shift of every lane by a count known at run time; the lanes added (wrapping, unsigned).
  static reg srav(reg a, int n) { return _mm256_sra_epi32(a, _mm_cvtsi32_si128(n)); }
  static std::uint32_t sum_u32(reg v) {
    alignas(32) std::uint32_t lane[lanes];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lane), v);
    std::uint32_t s = 0;
    for (std::uint32_t x : lane) s += x;
    return s;
  }
  // 64-bit sums of unsigned 32-bit lanes (integer sums: any order of adds is the same value).
  struct acc64 {
    __m256i lo, hi;  // 4 + 4 64-bit lanes
  };
  static acc64 zero_acc64() { return {_mm256_setzero_si256(), _mm256_setzero_si256()}; }
  // The 8 lanes, as unsigned 32-bit values, added into 64-bit lanes.
  static acc64 add_u32_lanes(acc64 a, reg sq) {
    a.lo = _mm256_add_epi64(a.lo, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(sq)));
    a.hi = _mm256_add_epi64(a.hi, _mm256_cvtepu32_epi64(_mm256_extracti128_si256(sq, 1)));
    return a;
  }
  static std::uint64_t sum_u64(acc64 a) {
    alignas(32) std::uint64_t lane[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lane), _mm256_add_epi64(a.lo, a.hi));
    return lane[0] + lane[1] + lane[2] + lane[3];
  }
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

// 32-bit lanes with their 64-bit companions: full 32x32 products accumulated in 64-bit lanes
// (even and odd 32-bit lanes apart), narrowed back by a rounding shift; and per-pixel steps in
// 64-bit integer lanes (q) and doubles (d). Its load, store and set1 read unsigned samples.
struct Avx2Wide : Avx2Int32 {
  // 64-bit values of the 8 lanes: those of the even 32-bit lanes and those of the odd ones.
  struct wide {
    __m256i even, odd;
  };
  static wide zero_wide() { return {zero(), zero()}; }
  static reg set1(std::uint32_t x) { return _mm256_set1_epi32(static_cast<int>(x)); }
  static reg load(const std::uint8_t* p) { return Avx2Int32::widen(p); }
  static reg load(const std::uint16_t* p) { return Avx2Int32::widen(p); }
  static reg load(const std::uint32_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static void store(void* p, reg v) { _mm256_storeu_si256(static_cast<__m256i*>(p), v); }
  static reg srl(reg a, int n) { return _mm256_srl_epi32(a, _mm_cvtsi32_si128(n)); }
  // acc += a * b, each lane's full 64-bit product.
  static wide mac(wide acc, reg a, reg b) {
    acc.even = _mm256_add_epi64(acc.even, _mm256_mul_epu32(a, b));
    acc.odd = _mm256_add_epi64(acc.odd, _mm256_mul_epu32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32)));
    return acc;
  }
  // acc += c * b for a constant c (set1: the same value in both halves of each 64-bit lane).
  static wide mac_const(wide acc, reg c, reg b) {
    acc.even = _mm256_add_epi64(acc.even, _mm256_mul_epu32(c, b));
    acc.odd = _mm256_add_epi64(acc.odd, _mm256_mul_epu32(c, _mm256_srli_epi64(b, 32)));
    return acc;
  }
  // (w + round) >> n per lane, each result below 2^32, back in 32-bit lanes.
  static reg narrow(wide w, std::uint64_t round, int n) {
    const __m256i r = _mm256_set1_epi64x(static_cast<long long>(round));
    const __m128i c = _mm_cvtsi32_si128(n);
    const __m256i even = _mm256_srl_epi64(_mm256_add_epi64(w.even, r), c);
    const __m256i odd = _mm256_srl_epi64(_mm256_add_epi64(w.odd, r), c);
    return _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
  }

  // ---- Per-pixel steps, 4 pixels at once: 64-bit integer lanes (q) and doubles (d) ----
  static constexpr int dlanes = 4;
  using q = __m256i;
  using d = __m256d;
  using qmask = __m256i;  // all ones where true
  static q widen(const std::int32_t* p) { return _mm256_cvtepi32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))); }
  static d to_double(const std::int32_t* p) { return _mm256_cvtepi32_pd(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))); }
  static q q1(long long x) { return _mm256_set1_epi64x(x); }
  static q add64(q a, q b) { return _mm256_add_epi64(a, b); }
  static q sub64(q a, q b) { return _mm256_sub_epi64(a, b); }
  static qmask gt(q a, q b) { return _mm256_cmpgt_epi64(a, b); }
  static qmask both(qmask a, qmask b) { return _mm256_and_si256(a, b); }
  static q select(qmask m, q a, q b) { return _mm256_blendv_epi8(b, a, m); }  // a where m, else b
  static int count(qmask m) { return __builtin_popcount(static_cast<unsigned>(_mm256_movemask_pd(_mm256_castsi256_pd(m)))); }
  static long long total(q a) {
    alignas(32) long long lane[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lane), a);
    return lane[0] + lane[1] + lane[2] + lane[3];
  }
  static d d1(double x) { return _mm256_set1_pd(x); }
  static d dadd(d a, d b) { return _mm256_add_pd(a, b); }
  static d dsub(d a, d b) { return _mm256_sub_pd(a, b); }
  static d dmul(d a, d b) { return _mm256_mul_pd(a, b); }
  static d ddiv(d a, d b) { return _mm256_div_pd(a, b); }
  static d dmin(d a, d b) { return _mm256_min_pd(a, b); }  // a when a < b, else b
  static d trunc(d a) { return _mm256_round_pd(a, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); }
  // max((int32) trunc(a), 0) as a double.
  static d trunc_i32_at_least_0(d a) { return _mm256_cvtepi32_pd(_mm_max_epi32(_mm256_cvttpd_epi32(a), _mm_setzero_si128())); }
  static q bits(d a) { return _mm256_castpd_si256(a); }
  static q srl64(q a, int n) { return _mm256_srli_epi64(a, n); }
  static q sll64(q a, int n) { return _mm256_slli_epi64(a, n); }
  static q band(q a, q b) { return _mm256_and_si256(a, b); }
  static q bor(q a, q b) { return _mm256_or_si256(a, b); }
  // table[index] for each lane's index (below 65536; the table has one entry more to read).
  static q lookup(const std::uint16_t* table, q index) {
    const __m128i words = _mm256_i64gather_epi32(reinterpret_cast<const int*>(table), index, 2);
    return _mm256_cvtepu32_epi64(_mm_and_si128(words, _mm_set1_epi32(0xffff)));
  }
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
  // A shift of every lane by a count known at run time; the lanes added (wrapping, unsigned).
  static reg srav(reg a, int n) { return _mm512_sra_epi32(a, _mm_cvtsi32_si128(n)); }
  static std::uint32_t sum_u32(reg v) {
    alignas(64) std::uint32_t lane[lanes];
    _mm512_store_si512(lane, v);
    std::uint32_t s = 0;
    for (std::uint32_t x : lane) s += x;
    return s;
  }
  // 64-bit sums of unsigned 32-bit lanes (integer sums: any order of adds is the same value).
  struct acc64 {
    __m512i lo, hi;  // 8 + 8 64-bit lanes
  };
  static acc64 zero_acc64() { return {_mm512_setzero_si512(), _mm512_setzero_si512()}; }
  // The 16 lanes, as unsigned 32-bit values, added into 64-bit lanes.
  static acc64 add_u32_lanes(acc64 a, reg sq) {
    a.lo = _mm512_add_epi64(a.lo, _mm512_cvtepu32_epi64(_mm512_castsi512_si256(sq)));
    a.hi = _mm512_add_epi64(a.hi, _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(sq, 1)));
    return a;
  }
  static std::uint64_t sum_u64(acc64 a) {
    return static_cast<std::uint64_t>(_mm512_reduce_add_epi64(_mm512_add_epi64(a.lo, a.hi)));
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

// 32-bit lanes with their 64-bit companions: full 32x32 products accumulated in 64-bit lanes
// (even and odd 32-bit lanes apart), narrowed back by a rounding shift; and per-pixel steps in
// 64-bit integer lanes (q) and doubles (d). Its load, store and set1 read unsigned samples.
struct Avx512Wide : Avx512Int32 {
  // 64-bit values of the 16 lanes: those of the even 32-bit lanes and those of the odd ones.
  struct wide {
    __m512i even, odd;
  };
  static wide zero_wide() { return {zero(), zero()}; }
  static reg set1(std::uint32_t x) { return _mm512_set1_epi32(static_cast<int>(x)); }
  static reg load(const std::uint8_t* p) { return Avx512Int32::widen(p); }
  static reg load(const std::uint16_t* p) { return Avx512Int32::widen(p); }
  static reg load(const std::uint32_t* p) { return _mm512_loadu_si512(p); }
  static void store(void* p, reg v) { _mm512_storeu_si512(p, v); }
  static reg srl(reg a, int n) { return _mm512_srl_epi32(a, _mm_cvtsi32_si128(n)); }
  // acc += a * b, each lane's full 64-bit product.
  static wide mac(wide acc, reg a, reg b) {
    acc.even = _mm512_add_epi64(acc.even, _mm512_mul_epu32(a, b));
    acc.odd = _mm512_add_epi64(acc.odd, _mm512_mul_epu32(_mm512_srli_epi64(a, 32), _mm512_srli_epi64(b, 32)));
    return acc;
  }
  // acc += c * b for a constant c (set1: the same value in both halves of each 64-bit lane).
  static wide mac_const(wide acc, reg c, reg b) {
    acc.even = _mm512_add_epi64(acc.even, _mm512_mul_epu32(c, b));
    acc.odd = _mm512_add_epi64(acc.odd, _mm512_mul_epu32(c, _mm512_srli_epi64(b, 32)));
    return acc;
  }
  // (w + round) >> n per lane, each result below 2^32, back in 32-bit lanes.
  static reg narrow(wide w, std::uint64_t round, int n) {
    const __m512i r = _mm512_set1_epi64(static_cast<long long>(round));
    const __m128i c = _mm_cvtsi32_si128(n);
    const __m512i even = _mm512_srl_epi64(_mm512_add_epi64(w.even, r), c);
    const __m512i odd = _mm512_srl_epi64(_mm512_add_epi64(w.odd, r), c);
    return _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64(odd, 32));
  }

  // ---- Per-pixel steps, 8 pixels at once: 64-bit integer lanes (q) and doubles (d) ----
  static constexpr int dlanes = 8;
  using q = __m512i;
  using d = __m512d;
  using qmask = __mmask8;
  static q widen(const std::int32_t* p) { return _mm512_cvtepi32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))); }
  static d to_double(const std::int32_t* p) {
    return _mm512_cvtepi32_pd(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
  static q q1(long long x) { return _mm512_set1_epi64(x); }
  static q add64(q a, q b) { return _mm512_add_epi64(a, b); }
  static q sub64(q a, q b) { return _mm512_sub_epi64(a, b); }
  static qmask gt(q a, q b) { return _mm512_cmpgt_epi64_mask(a, b); }
  static qmask both(qmask a, qmask b) { return static_cast<qmask>(a & b); }
  static q select(qmask m, q a, q b) { return _mm512_mask_blend_epi64(m, b, a); }  // a where m, else b
  static int count(qmask m) { return __builtin_popcount(static_cast<unsigned>(m)); }
  static long long total(q a) { return _mm512_reduce_add_epi64(a); }
  static d d1(double x) { return _mm512_set1_pd(x); }
  static d dadd(d a, d b) { return _mm512_add_pd(a, b); }
  static d dsub(d a, d b) { return _mm512_sub_pd(a, b); }
  static d dmul(d a, d b) { return _mm512_mul_pd(a, b); }
  static d ddiv(d a, d b) { return _mm512_div_pd(a, b); }
  static d dmin(d a, d b) { return _mm512_min_pd(a, b); }  // a when a < b, else b
  static d trunc(d a) { return _mm512_roundscale_pd(a, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); }
  // max((int32) trunc(a), 0) as a double.
  static d trunc_i32_at_least_0(d a) {
    return _mm512_cvtepi32_pd(_mm256_max_epi32(_mm512_cvttpd_epi32(a), _mm256_setzero_si256()));
  }
  static q bits(d a) { return _mm512_castpd_si512(a); }
  static q srl64(q a, int n) { return _mm512_srli_epi64(a, static_cast<unsigned>(n)); }
  static q sll64(q a, int n) { return _mm512_slli_epi64(a, static_cast<unsigned>(n)); }
  static q band(q a, q b) { return _mm512_and_si512(a, b); }
  static q bor(q a, q b) { return _mm512_or_si512(a, b); }
  // table[index] for each lane's index (below 65536; the table has one entry more to read).
  static q lookup(const std::uint16_t* table, q index) {
    const __m256i words = _mm512_i64gather_epi32(index, table, 2);
    return _mm512_and_si512(_mm512_cvtepi32_epi64(words), _mm512_set1_epi64(0xffff));
  }
};
#endif

// The lane types of the ISA a `*_isa.cpp` source is compiled for: extractors/CMakeLists.txt
// compiles each such source once per ISA, with TWINPROOF_ISA_AVX2 (-mavx2) and with
// TWINPROOF_ISA_AVX512 (F, CD, BW, DQ, VL), so that a kernel is written once whatever its lane
// width. TWINPROOF_ISA_NAME(rows) names an entry point: rows_avx2, rows_avx512.
#if defined(TWINPROOF_ISA_AVX512)
using IsaInt32 = Avx512Int32;
using IsaFloat = Avx512Float;
using IsaWide = Avx512Wide;
#define TWINPROOF_ISA_NAME(name) name##_avx512
#elif defined(TWINPROOF_ISA_AVX2)
using IsaInt32 = Avx2Int32;
using IsaFloat = Avx2Float;
using IsaWide = Avx2Wide;
#define TWINPROOF_ISA_NAME(name) name##_avx2
#endif

// The exact sum over a row of (ref[x] - dist[x])^2 with V an Int32 type: samples widened to 32-bit
// lanes, each difference squared in 32 bits (|e| <= 65535, so e * e < 2^32 as unsigned), the
// squares added in 64-bit lanes. Integer sums: the row's total is the same in any order.
template <class V, class Sample>
std::uint64_t row_squared_error(const Sample* ref, const Sample* dist, int w) {
  typename V::acc64 acc = V::zero_acc64();
  int x = 0;
  for (; x + V::lanes <= w; x += V::lanes) {
    const typename V::reg e = V::sub(V::widen(ref + x), V::widen(dist + x));
    acc = V::add_u32_lanes(acc, V::mullo(e, e));
  }
  std::uint64_t tail = 0;
  for (; x < w; ++x) {
    const std::int64_t e = std::int64_t(ref[x]) - std::int64_t(dist[x]);
    tail += static_cast<std::uint64_t>(e * e);
  }
  return V::sum_u64(acc) + tail;
}

// A row's sum of samples and sum of squared samples with V an Int32 type, both exact: samples
// widened to 32-bit lanes, squared in 32 bits (below 2^32 as unsigned for samples below 2^16),
// both added in 64-bit lanes.
template <class V, class Sample>
std::pair<std::uint64_t, std::uint64_t> row_sum_and_squares(const Sample* p, int w) {
  typename V::acc64 sum = V::zero_acc64(), squares = V::zero_acc64();
  int x = 0;
  for (; x + V::lanes <= w; x += V::lanes) {
    const typename V::reg v = V::widen(p + x);
    sum = V::add_u32_lanes(sum, v);
    squares = V::add_u32_lanes(squares, V::mullo(v, v));
  }
  std::uint64_t tail_sum = 0, tail_squares = 0;
  for (; x < w; ++x) {
    tail_sum += p[x];
    tail_squares += static_cast<std::uint64_t>(p[x]) * p[x];
  }
  return {V::sum_u64(sum) + tail_sum, V::sum_u64(squares) + tail_squares};
}

}  // namespace
}  // namespace twinproof::simd
