// float_psnr's kernels. A row's terms are whole multiples of the term unit (arithmetic.hpp), added
// as 64-bit integers: the same bits in any order, so threads and their reduction may take any.
// A frame's noise is its rows' total times the unit while that total is below 2^53 units, where
// the reference's sequential double is exact too (CONTRACT.md); above it one thread adds the
// frame's terms to a double in the reference's order, as the contract writes it.
#include "extractors/float_psnr/arithmetic.hpp"
#include "extractors/float_psnr/kernels.hpp"

namespace twinproof::float_psnr::kernels {
namespace {

constexpr int kThreads = 256;
constexpr unsigned long long kExactUnits = 1ull << 53;

template <class Sample>
__device__ unsigned long long term_units(Sample r, Sample d, int bitdepth) {
  if (bitdepth <= 12) {
    const long long diff = static_cast<long long>(r) - static_cast<long long>(d);
    return static_cast<unsigned long long>(diff * diff);
  }
  // 16 bits: the reference's fp32 square, counted in units of 2^-16 (exact: a whole multiple).
  const float t = squared_difference(to_float(r, bitdepth), to_float(d, bitdepth));
  return static_cast<unsigned long long>(static_cast<double>(t) * 65536.0);
}

template <class Sample>
__global__ void __launch_bounds__(kThreads) row_units_kernel(const LumaBatch batch, unsigned long long* __restrict__ units) {
  __shared__ unsigned long long partial[kThreads];
  const int y = blockIdx.x, f = blockIdx.y;
  const Sample* r = static_cast<const Sample*>(batch.ref[f]) + static_cast<std::size_t>(y) * batch.pitch;
  const Sample* d = static_cast<const Sample*>(batch.dist[f]) + static_cast<std::size_t>(y) * batch.pitch;
  unsigned long long s = 0;
  for (int x = threadIdx.x; x < batch.w; x += kThreads) s += term_units(r[x], d[x], batch.bitdepth);
  partial[threadIdx.x] = s;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) units[static_cast<std::size_t>(f) * batch.h + y] = partial[0];
}

template <class Sample>
__global__ void frame_noise_kernel(const LumaBatch batch, const unsigned long long* __restrict__ units,
                                   double* __restrict__ after_row, double* __restrict__ noise) {
  const int f = blockIdx.x;  // one thread a frame: h integer adds, or the sequential pass
  const unsigned long long* rows = units + static_cast<std::size_t>(f) * batch.h;
  double* running = after_row + static_cast<std::size_t>(f) * batch.h;
  unsigned long long total = 0;
  for (int y = 0; y < batch.h; ++y) total += rows[y];
  if (total < kExactUnits) {
    // A power of two: the product of an integer below 2^53 and the unit is exact.
    const double unit = ldexp(1.0, term_unit_log2(batch.bitdepth));
    unsigned long long sum = 0;
    for (int y = 0; y < batch.h; ++y) running[y] = static_cast<double>(sum += rows[y]) * unit;
    noise[f] = static_cast<double>(total) * unit;
    return;
  }
  double acc = 0;
  for (int y = 0; y < batch.h; ++y) {
    const Sample* r = static_cast<const Sample*>(batch.ref[f]) + static_cast<std::size_t>(y) * batch.pitch;
    const Sample* d = static_cast<const Sample*>(batch.dist[f]) + static_cast<std::size_t>(y) * batch.pitch;
    for (int x = 0; x < batch.w; ++x)
      acc += static_cast<double>(squared_difference(to_float(r[x], batch.bitdepth), to_float(d[x], batch.bitdepth)));
    running[y] = acc;
  }
  noise[f] = acc;
}

}  // namespace

cudaError_t row_units(const LumaBatch& batch, unsigned long long* units, cudaStream_t stream) {
  if (!cuda::well_formed(batch)) return cudaErrorInvalidValue;
  if (!cuda::has_work(batch)) return cudaSuccess;
  const dim3 grid(static_cast<unsigned>(batch.h), static_cast<unsigned>(batch.count));
  if (batch.bitdepth == 8) row_units_kernel<unsigned char><<<grid, kThreads, 0, stream>>>(batch, units);
  else row_units_kernel<unsigned short><<<grid, kThreads, 0, stream>>>(batch, units);
  return cudaGetLastError();
}

cudaError_t frame_noise(const LumaBatch& batch, const unsigned long long* units, double* after_row, double* noise,
                        cudaStream_t stream) {
  if (!cuda::well_formed(batch)) return cudaErrorInvalidValue;
  if (!cuda::has_work(batch)) return cudaSuccess;
  if (batch.bitdepth == 8) frame_noise_kernel<unsigned char><<<batch.count, 1, 0, stream>>>(batch, units, after_row, noise);
  else frame_noise_kernel<unsigned short><<<batch.count, 1, 0, stream>>>(batch, units, after_row, noise);
  return cudaGetLastError();
}

}  // namespace twinproof::float_psnr::kernels
