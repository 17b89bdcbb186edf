// vif's cpu-simd kernels for AVX-512 (compiled for AVX-512 F, CD, BW, DQ and VL): 16 columns a vector.
#include <immintrin.h>

#include "extractors/simd_lanes.hpp"
#include "extractors/vif/cpu_simd.hpp"

namespace twinproof::vif {
namespace {

struct V : simd::Avx512Int32 {
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

struct IsaTag {};

#include "extractors/vif/cpu_simd_kernels.inc"

}  // namespace

void statistic_rows_avx512(const ScalePictures& p, const VerticalShift& vs, int begin, int end, ScaleSums* rows, RowScratch& t,
                           const std::uint16_t* log2t, double gain_limit) {
  simd_statistic_rows(p, vs, begin, end, rows, t, log2t, gain_limit);
}
void subsample_rows_avx512(const ScalePictures& p, const VerticalShift& vs, int begin, int end, std::uint16_t* ref_out,
                           std::uint16_t* dist_out, std::ptrdiff_t out_stride, RowScratch& t) {
  simd_subsample_rows(p, vs, begin, end, ref_out, dist_out, out_stride, t);
}

}  // namespace twinproof::vif
