// float_moment's kernels. A row's samples and squares are whole multiples of their units
// (arithmetic.hpp), added as 64-bit integers: the same bits in any order, so threads and their
// reduction may take any. A frame's sum is its rows' total times the unit while the total is below
// 2^53 units, where the reference's sequential double is exact too (CONTRACT.md); above it one
// thread adds the frame's terms to doubles in the reference's order.
#include "extractors/float_moment/arithmetic.hpp"
#include "extractors/float_moment/kernels.hpp"

namespace twinproof::float_moment::kernels {
namespace {

constexpr int kThreads = 256;
constexpr unsigned long long kExactUnits = 1ull << 53;

template <class Sample>
__device__ unsigned long long square_units(Sample s, int bitdepth) {
  const unsigned sq = static_cast<unsigned>(s) * static_cast<unsigned>(s);
  if (bitdepth <= 12) return sq;
  // 16 bits: the reference's fp32 square, in units of 2^-16: s^2 rounded to 24 bits.
  return static_cast<unsigned long long>(__uint2float_rn(sq));
}

template <class Sample>
__global__ void __launch_bounds__(kThreads) row_units_kernel(const LumaBatch batch, unsigned long long* __restrict__ units) {
  __shared__ unsigned long long partial[4][kThreads];
  const int y = blockIdx.x, f = blockIdx.y;
  const Sample* r = static_cast<const Sample*>(batch.ref[f]) + static_cast<std::size_t>(y) * batch.pitch;
  const Sample* d = static_cast<const Sample*>(batch.dist[f]) + static_cast<std::size_t>(y) * batch.pitch;
  unsigned long long s[4] = {0, 0, 0, 0};
  for (int x = threadIdx.x; x < batch.w; x += kThreads) {
    s[0] += r[x];
    s[1] += d[x];
    s[2] += square_units(r[x], batch.bitdepth);
    s[3] += square_units(d[x], batch.bitdepth);
  }
  for (int k = 0; k < 4; ++k) partial[k][threadIdx.x] = s[k];
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      for (int k = 0; k < 4; ++k) partial[k][threadIdx.x] += partial[k][threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x < 4) units[(static_cast<std::size_t>(f) * batch.h + y) * 4 + threadIdx.x] = partial[threadIdx.x][0];
}

template <class Sample>
__global__ void frame_sums_kernel(const LumaBatch batch, const unsigned long long* __restrict__ units,
                                  double* __restrict__ after_row, double* __restrict__ sums) {
  const int f = blockIdx.x;  // one thread a frame: 4h integer adds, or the sequential pass
  const unsigned long long* rows = units + static_cast<std::size_t>(f) * batch.h * 4;
  double* running = after_row + static_cast<std::size_t>(f) * batch.h * 4;
  unsigned long long total[4] = {0, 0, 0, 0};
  for (int y = 0; y < batch.h; ++y)
    for (int k = 0; k < 4; ++k) total[k] += rows[4 * y + k];
  if (total[2] < kExactUnits && total[3] < kExactUnits) {
    // Powers of two: the product of an integer below 2^53 and the unit is exact.
    const double sample_unit = ldexp(1.0, sample_unit_log2(batch.bitdepth));
    const double square_unit = ldexp(1.0, square_unit_log2(batch.bitdepth));
    const double unit[4] = {sample_unit, sample_unit, square_unit, square_unit};
    unsigned long long sum[4] = {0, 0, 0, 0};
    for (int y = 0; y < batch.h; ++y)
      for (int k = 0; k < 4; ++k) running[4 * y + k] = static_cast<double>(sum[k] += rows[4 * y + k]) * unit[k];
    for (int k = 0; k < 4; ++k) sums[4 * f + k] = static_cast<double>(total[k]) * unit[k];
    return;
  }
  double acc[4] = {0, 0, 0, 0};
  for (int y = 0; y < batch.h; ++y) {
    const Sample* r = static_cast<const Sample*>(batch.ref[f]) + static_cast<std::size_t>(y) * batch.pitch;
    const Sample* d = static_cast<const Sample*>(batch.dist[f]) + static_cast<std::size_t>(y) * batch.pitch;
    for (int x = 0; x < batch.w; ++x) {
      const float rv = to_float(r[x], batch.bitdepth), dv = to_float(d[x], batch.bitdepth);
      acc[0] += static_cast<double>(rv);
      acc[1] += static_cast<double>(dv);
      acc[2] += static_cast<double>(square(rv));
      acc[3] += static_cast<double>(square(dv));
    }
    for (int k = 0; k < 4; ++k) running[4 * y + k] = acc[k];
  }
  for (int k = 0; k < 4; ++k) sums[4 * f + k] = acc[k];
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

cudaError_t frame_sums(const LumaBatch& batch, const unsigned long long* units, double* after_row, double* sums,
                       cudaStream_t stream) {
  if (!cuda::well_formed(batch)) return cudaErrorInvalidValue;
  if (!cuda::has_work(batch)) return cudaSuccess;
  if (batch.bitdepth == 8) frame_sums_kernel<unsigned char><<<batch.count, 1, 0, stream>>>(batch, units, after_row, sums);
  else frame_sums_kernel<unsigned short><<<batch.count, 1, 0, stream>>>(batch, units, after_row, sums);
  return cudaGetLastError();
}

}  // namespace twinproof::float_moment::kernels
