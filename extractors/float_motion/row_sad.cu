// Row SAD: one thread walks one row left to right in one fp32 accumulator (arithmetic.hpp's
// row_sad), exactly the CPU reference's order. No block, warp, atomic or fp64 reduction: the
// host adds the h row sums with score_from_row_sums.
#include "extractors/float_motion/kernels.hpp"

namespace twinproof::float_motion::kernels {
namespace {

__global__ void row_sad_kernel(const float* __restrict__ a, const float* __restrict__ b, int w, int h, float* __restrict__ rows) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= h) return;
  const std::size_t off = static_cast<std::size_t>(i) * w;
  rows[i] = float_motion::row_sad(a + off, b + off, w);  // arithmetic.hpp, not the launcher
}

}  // namespace

cudaError_t row_sad(const float* a, const float* b, int w, int h, float* rows, cudaStream_t stream) {
  constexpr int kThreads = 128;
  row_sad_kernel<<<(h + kThreads - 1) / kThreads, kThreads, 0, stream>>>(a, b, w, h, rows);
  return cudaGetLastError();
}

}  // namespace twinproof::float_motion::kernels
