// adm's cpu-simd kernels, compiled once per ISA (extractors/simd_lanes.hpp): 8 lanes a vector with
// -mavx2 (the *_avx2 entry points), 16 for AVX-512 F, CD, BW, DQ and VL (*_avx512).
#include <immintrin.h>

#include <cstring>
#include <utility>

#include "extractors/adm/cpu_simd.hpp"
#include "extractors/simd_lanes.hpp"

namespace twinproof::adm {
namespace {

constexpr int N = simd::IsaInt32::lanes;

struct IsaTag {};  // this file's copies of the shared arithmetic (host_device.hpp says why)
#include "extractors/adm/cpu_simd_kernels.inc"

}  // namespace

void TWINPROOF_ISA_NAME(dwt_rows)(const ScaleInput& in, int begin, int end, ScaleBands& out, DwtScratch& t) {
  simd_dwt_rows(in, begin, end, out, t);
}
void TWINPROOF_ISA_NAME(decouple_rows)(const SimdScale& s, int begin, int end, ScaleBands& b) {
  simd_decouple_rows(s, begin, end, b);
}
void TWINPROOF_ISA_NAME(csf_rows)(const SimdScale& s, int begin, int end, const ScaleBands& b, ScaleMasks& m) {
  simd_csf_rows(s, begin, end, b, m);
}
void TWINPROOF_ISA_NAME(sum_rows)(const SimdScale& s, int begin, int end, const ScaleBands& b, const ScaleMasks& m,
                                  ScaleSums* rows) {
  simd_sum_rows(s, begin, end, b, m, rows);
}

}  // namespace twinproof::adm
