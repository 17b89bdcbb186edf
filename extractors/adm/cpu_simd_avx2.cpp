// adm's cpu-simd kernels for AVX2 (compiled for it alone): 8 lanes a vector.
#include <immintrin.h>

#include <cstring>
#include <utility>

#include "extractors/adm/cpu_simd.hpp"

namespace twinproof::adm {
namespace {

constexpr int N = 8;

struct IsaTag {};  // this file's copies of the shared arithmetic (host_device.hpp says why)
#include "extractors/adm/cpu_simd_kernels.inc"

}  // namespace

void dwt_rows_avx2(const ScaleInput& in, int begin, int end, ScaleBands& out, DwtScratch& t) {
  simd_dwt_rows(in, begin, end, out, t);
}
void decouple_rows_avx2(const SimdScale& s, int begin, int end, ScaleBands& b) { simd_decouple_rows(s, begin, end, b); }
void csf_rows_avx2(const SimdScale& s, int begin, int end, const ScaleBands& b, ScaleMasks& m) {
  simd_csf_rows(s, begin, end, b, m);
}
void sum_rows_avx2(const SimdScale& s, int begin, int end, const ScaleBands& b, const ScaleMasks& m, ScaleSums* rows) {
  simd_sum_rows(s, begin, end, b, m, rows);
}

}  // namespace twinproof::adm
