// psnr's cpu-simd kernel for AVX2 (compiled with -mavx2 alone).
#include <immintrin.h>

#include "extractors/psnr/cpu_simd.hpp"
#include "extractors/simd_lanes.hpp"

namespace twinproof::psnr {
namespace {

struct V : simd::Avx2Int32 {
  struct acc {
    __m256i lo, hi;  // 4 + 4 64-bit lanes
  };
  static acc zero_acc() { return {_mm256_setzero_si256(), _mm256_setzero_si256()}; }
  // The 8 squares (unsigned 32-bit) added into 64-bit lanes.
  static acc add_squares(acc a, reg sq) {
    a.lo = _mm256_add_epi64(a.lo, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(sq)));
    a.hi = _mm256_add_epi64(a.hi, _mm256_cvtepu32_epi64(_mm256_extracti128_si256(sq, 1)));
    return a;
  }
  static std::uint64_t sum(acc a) {
    alignas(32) std::uint64_t lane[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lane), _mm256_add_epi64(a.lo, a.hi));
    return lane[0] + lane[1] + lane[2] + lane[3];
  }
};

#include "extractors/psnr/cpu_simd_kernels.inc"

}  // namespace

void rows_avx2(const PlaneJob& job) { simd_rows(job); }

}  // namespace twinproof::psnr
