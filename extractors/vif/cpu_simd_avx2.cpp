// vif's cpu-simd kernels for AVX2 (compiled with -mavx2 alone): 8 columns a vector.
#include <immintrin.h>

#include "extractors/simd_lanes.hpp"
#include "extractors/vif/cpu_simd.hpp"

namespace twinproof::vif {
namespace {

struct V : simd::Avx2Int32 {
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

struct IsaTag {};

#include "extractors/vif/cpu_simd_kernels.inc"

}  // namespace

void statistic_rows_avx2(const ScalePictures& p, const VerticalShift& vs, int begin, int end, ScaleSums* rows, RowScratch& t,
                         const std::uint16_t* log2t, double gain_limit) {
  simd_statistic_rows(p, vs, begin, end, rows, t, log2t, gain_limit);
}
void subsample_rows_avx2(const ScalePictures& p, const VerticalShift& vs, int begin, int end, std::uint16_t* ref_out,
                         std::uint16_t* dist_out, std::ptrdiff_t out_stride, RowScratch& t) {
  simd_subsample_rows(p, vs, begin, end, ref_out, dist_out, out_stride, t);
}

}  // namespace twinproof::vif
