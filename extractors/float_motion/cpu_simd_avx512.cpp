// cpu-simd kernels for AVX-512 (compiled for AVX-512 F, CD, BW, DQ and VL): the blur 16 samples at a time. The
// row SADs keep the AVX2 8-lane walk (cpu_simd_avx2.cpp). -ffp-contract=off keeps every
// multiply and add separate although AVX-512F has fused forms.
#include <immintrin.h>

#include "extractors/float_motion/cpu_simd.hpp"
#include "extractors/simd_lanes.hpp"

namespace twinproof::float_motion {
namespace {

using Vec = simd::Avx512Float;

}  // namespace
}  // namespace twinproof::float_motion

#include "extractors/float_motion/cpu_simd_kernels.inc"

namespace twinproof::float_motion {
void fused_batch_avx512(const SimdBatchJob& job, SimdScratch<float>& scratch) { fused_batch_dispatch(job, scratch); }
}  // namespace twinproof::float_motion
