// The blur of extractors/float_motion/CONTRACT.md on the device: sample conversion, vertical pass, horizontal
// pass, each a separate kernel with one thread per output sample. Every sum is arithmetic.hpp's
// tap_sum in tap order; built with -fmad=false, so each product and sum is its own rounding.
#include "extractors/float_motion/kernels.hpp"

namespace twinproof::float_motion::kernels {
namespace {

constexpr int kTileX = 32, kTileY = 8;

dim3 grid_for(int w, int h) { return dim3((w + kTileX - 1) / kTileX, (h + kTileY - 1) / kTileY); }

template <class Sample>
__global__ void convert_kernel(const Sample* __restrict__ samples, int bitdepth, int w, int h, float* __restrict__ out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const std::size_t i = static_cast<std::size_t>(y) * w + x;
  out[i] = to_float(samples[i], bitdepth);
}

template <int N>
__global__ void blur_vertical_kernel(const float* __restrict__ in, int w, int h, Taps taps, float* __restrict__ tmp) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  constexpr int r = N / 2;
  tmp[static_cast<std::size_t>(y) * w + x] =
      tap_sum<N>(taps.f, [&](int k) { return in[static_cast<std::size_t>(mirror(y - r + k, h)) * w + x]; });
}

template <int N>
__global__ void blur_horizontal_kernel(const float* __restrict__ tmp, int w, int h, Taps taps, float* __restrict__ out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  constexpr int r = N / 2;
  const float* row = tmp + static_cast<std::size_t>(y) * w;
  out[static_cast<std::size_t>(y) * w + x] = tap_sum<N>(taps.f, [&](int k) { return row[mirror(x - r + k, w)]; });
}

}  // namespace

cudaError_t convert(const std::uint8_t* samples, int bytes_per_sample, int bitdepth, int w, int h, float* out,
                    cudaStream_t stream) {
  const dim3 block(kTileX, kTileY);
  if (bytes_per_sample == 1) convert_kernel<std::uint8_t><<<grid_for(w, h), block, 0, stream>>>(samples, bitdepth, w, h, out);
  else
    convert_kernel<std::uint16_t>
        <<<grid_for(w, h), block, 0, stream>>>(reinterpret_cast<const std::uint16_t*>(samples), bitdepth, w, h, out);
  return cudaGetLastError();
}

cudaError_t blur_vertical(const float* in, int w, int h, const Taps& taps, float* tmp, cudaStream_t stream) {
  const dim3 block(kTileX, kTileY);
  if (taps.count == 3) blur_vertical_kernel<3><<<grid_for(w, h), block, 0, stream>>>(in, w, h, taps, tmp);
  else blur_vertical_kernel<5><<<grid_for(w, h), block, 0, stream>>>(in, w, h, taps, tmp);
  return cudaGetLastError();
}

cudaError_t blur_horizontal(const float* tmp, int w, int h, const Taps& taps, float* out, cudaStream_t stream) {
  const dim3 block(kTileX, kTileY);
  if (taps.count == 3) blur_horizontal_kernel<3><<<grid_for(w, h), block, 0, stream>>>(tmp, w, h, taps, out);
  else blur_horizontal_kernel<5><<<grid_for(w, h), block, 0, stream>>>(tmp, w, h, taps, out);
  return cudaGetLastError();
}

}  // namespace twinproof::float_motion::kernels
