// psnr's cpu-simd kernel, compiled once per ISA (extractors/simd_lanes.hpp: rows_avx2 with
// -mavx2, rows_avx512 for AVX-512 F, CD, BW, DQ and VL): each row's squared error by
// simd::row_squared_error, exact integer sums, so the row's total is the reference's in any order.
#include <immintrin.h>

#include "extractors/psnr/cpu_simd.hpp"
#include "extractors/simd_lanes.hpp"

namespace twinproof::psnr {

void TWINPROOF_ISA_NAME(rows)(const PlaneJob& job) {
  using V = simd::IsaInt32;
  for (int y = job.first_row; y < job.end_row; ++y) {
    const std::uint8_t* r = job.ref + job.ref_stride * y;
    const std::uint8_t* d = job.dist + job.dist_stride * y;
    job.row_sse[y] = job.wide ? simd::row_squared_error<V>(reinterpret_cast<const std::uint16_t*>(r),
                                                           reinterpret_cast<const std::uint16_t*>(d), job.w)
                              : simd::row_squared_error<V>(r, d, job.w);
  }
}

}  // namespace twinproof::psnr
