// psnr's row kernel: one block per row; each thread adds the squared errors of its columns (a
// stride of the block's width) in 64 bits, then the block adds its threads' sums in shared
// memory. Every value is an exact integer: |e| <= 65535, so e * e fits 32 bits unsigned, and
// 64-bit sums of them never wrap for rows of up to 2^32 samples.
#include "kernels/psnr/kernels.hpp"

namespace twinproof::psnr::kernels {
namespace {

constexpr int kThreads = 256;

template <class Sample>
__global__ void row_sse_kernel(const Sample* __restrict__ ref, const Sample* __restrict__ dist, int w,
                               unsigned long long* __restrict__ rows_out) {
  __shared__ unsigned long long partial[kThreads];
  const int y = blockIdx.x;
  const Sample* r = ref + static_cast<std::size_t>(y) * w;
  const Sample* d = dist + static_cast<std::size_t>(y) * w;
  unsigned long long s = 0;
  for (int x = threadIdx.x; x < w; x += kThreads) {
    const int e = static_cast<int>(r[x]) - static_cast<int>(d[x]);
    const unsigned magnitude = static_cast<unsigned>(e < 0 ? -e : e);
    s += static_cast<unsigned long long>(magnitude * magnitude);
  }
  partial[threadIdx.x] = s;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) rows_out[y] = partial[0];
}

}  // namespace

cudaError_t row_sse(const void* ref, const void* dist, int w, int h, int bytes, unsigned long long* rows_out, cudaStream_t stream) {
  if (h <= 0) return cudaSuccess;
  if (bytes == 1)
    row_sse_kernel<<<h, kThreads, 0, stream>>>(static_cast<const unsigned char*>(ref), static_cast<const unsigned char*>(dist), w, rows_out);
  else
    row_sse_kernel<<<h, kThreads, 0, stream>>>(static_cast<const unsigned short*>(ref), static_cast<const unsigned short*>(dist), w,
                                               rows_out);
  return cudaGetLastError();
}

}  // namespace twinproof::psnr::kernels
