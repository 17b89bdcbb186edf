// psnr's cpu-simd kernel for AVX-512 (compiled for AVX-512 F, CD, BW, DQ and VL).
#include <immintrin.h>

#include "extractors/psnr/cpu_simd.hpp"
#include "extractors/simd_lanes.hpp"

namespace twinproof::psnr {
namespace {

struct V : simd::Avx512Int32 {
  struct acc {
    __m512i lo, hi;  // 8 + 8 64-bit lanes
  };
  static acc zero_acc() { return {_mm512_setzero_si512(), _mm512_setzero_si512()}; }
  // The 16 squares (unsigned 32-bit) added into 64-bit lanes.
  static acc add_squares(acc a, reg sq) {
    a.lo = _mm512_add_epi64(a.lo, _mm512_cvtepu32_epi64(_mm512_castsi512_si256(sq)));
    a.hi = _mm512_add_epi64(a.hi, _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(sq, 1)));
    return a;
  }
  static std::uint64_t sum(acc a) { return static_cast<std::uint64_t>(_mm512_reduce_add_epi64(_mm512_add_epi64(a.lo, a.hi))); }
};

#include "extractors/psnr/cpu_simd_kernels.inc"

}  // namespace

void rows_avx512(const PlaneJob& job) { simd_rows(job); }

}  // namespace twinproof::psnr
