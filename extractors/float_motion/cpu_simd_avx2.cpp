// cpu-simd kernels for AVX2 (compiled with -mavx2 alone: no FMA instructions are even available).
#include <immintrin.h>

#include "extractors/float_motion/cpu_simd.hpp"
#include "extractors/simd_lanes.hpp"

namespace twinproof::float_motion {
namespace {

using Vec = simd::Avx2Float;

// Transposes the 8x8 block held in rows r[0..7] in place: r[c] then holds column c.
inline void transpose8(__m256 r[8]) {
  const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
  const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
  const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
  const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
  const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
  const __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
  const __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
  const __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
  r[0] = _mm256_permute2f128_ps(u0, u4, 0x20);
  r[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
  r[2] = _mm256_permute2f128_ps(u2, u6, 0x20);
  r[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
  r[4] = _mm256_permute2f128_ps(u0, u4, 0x31);
  r[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
  r[6] = _mm256_permute2f128_ps(u2, u6, 0x31);
  r[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}

// Row SADs of `rows` consecutive rows (out[k] for row k), 8 rows per vector: lane k walks row k
// strictly left to right; an 8x8 block of |A - B| is transposed so that each add is one column.
}  // namespace

void row_sums_avx2(const float* a, std::size_t a_stride, const float* b, std::size_t b_stride, int w, int rows, float* out) {
  const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));  // |x| is exact
  int i0 = 0;
  for (; i0 + 8 <= rows; i0 += 8) {
    __m256 acc = _mm256_setzero_ps();
    int j = 0;
    for (; j + 8 <= w; j += 8) {
      __m256 d[8];
      for (int k = 0; k < 8; ++k) {
        const std::size_t i = static_cast<std::size_t>(i0 + k);
        d[k] =
            _mm256_and_ps(_mm256_sub_ps(_mm256_loadu_ps(a + i * a_stride + j), _mm256_loadu_ps(b + i * b_stride + j)), abs_mask);
      }
      transpose8(d);
      for (int c = 0; c < 8; ++c) acc = _mm256_add_ps(acc, d[c]);  // column j + c of every row
    }
    alignas(32) float s[8];
    _mm256_store_ps(s, acc);
    for (int k = 0; k < 8; ++k) {  // the last columns, still in order
      const float* ra = a + static_cast<std::size_t>(i0 + k) * a_stride;
      const float* rb = b + static_cast<std::size_t>(i0 + k) * b_stride;
      for (int jj = j; jj < w; ++jj) s[k] += fabsf(ra[jj] - rb[jj]);
      out[i0 + k] = s[k];
    }
  }
  for (; i0 < rows; ++i0)
    out[i0] = row_sad(a + static_cast<std::size_t>(i0) * a_stride, b + static_cast<std::size_t>(i0) * b_stride, w);
}

}  // namespace twinproof::float_motion

#include "extractors/float_motion/cpu_simd_kernels.inc"

namespace twinproof::float_motion {
void fused_batch_avx2(const SimdBatchJob& job, SimdScratch<float>& scratch) { fused_batch_dispatch(job, scratch); }
}  // namespace twinproof::float_motion
