// vif's cpu-simd kernels, compiled once per ISA (extractors/simd_lanes.hpp): 8 columns a vector
// with -mavx2 (the *_avx2 entry points), 16 for AVX-512 F, CD, BW, DQ and VL (*_avx512).
#include <immintrin.h>

#include "extractors/simd_lanes.hpp"
#include "extractors/vif/cpu_simd.hpp"

namespace twinproof::vif {
namespace {

using V = simd::IsaWide;

struct IsaTag {};

#include "extractors/vif/cpu_simd_kernels.inc"

}  // namespace

void TWINPROOF_ISA_NAME(statistic_rows)(const ScalePictures& p, const VerticalShift& vs, int begin, int end, ScaleSums* rows,
                                        RowScratch& t, const std::uint16_t* log2t, double gain_limit) {
  simd_statistic_rows(p, vs, begin, end, rows, t, log2t, gain_limit);
}
void TWINPROOF_ISA_NAME(subsample_rows)(const ScalePictures& p, const VerticalShift& vs, int begin, int end,
                                        std::uint16_t* ref_out, std::uint16_t* dist_out, std::ptrdiff_t out_stride,
                                        RowScratch& t) {
  simd_subsample_rows(p, vs, begin, end, ref_out, dist_out, out_stride, t);
}

}  // namespace twinproof::vif
