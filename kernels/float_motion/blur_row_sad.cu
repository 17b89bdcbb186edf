// The fast exact kernel of `cuda`: a batch of consecutive frames is blurred tile by tile in
// shared memory and each pair's row sums are accumulated as the tiles go by, left to right.
//
// Exactness: each blurred sample is arithmetic.hpp's tap_sum over the same mirrored samples as
// the reference (vertical, then horizontal), and each row's SAD is ONE thread adding |A - B| in
// column order, carried in a register from tile to tile. Nothing is reassociated: no block, warp,
// atomic or fp64 reduction. Speed comes from elsewhere: every frame of the batch is blurred once
// (pairs share frames), blurred planes never go through device memory unless asked for, and the
// bands of rows, the frames of the batch and the planes all run in parallel.
#include "kernels/float_motion/kernels.hpp"

namespace twinproof::float_motion::kernels {
namespace {

constexpr int kHalo = 2;                   // largest blur radius
constexpr int kCols = 64;                  // threads along x: the tile plus both halos
constexpr int kTile = kCols - 2 * kHalo;   // output columns per tile
constexpr int kTileStride = kTile + 1;     // odd row stride: row-walking threads hit distinct banks

// Three blocks per multiprocessor where 2048 threads fit (sm_80, sm_90; 32 registers a thread,
// a few bytes spilled): with 6-row bands a 2160-row plane is 360 blocks, one wave on an H200's
// 132 SMs, where 8-row bands at two blocks per SM took 2.05 waves (measured 2.55x -> 2.12x the
// memory floor). Chips with 1536 threads per SM (sm_86, sm_87, sm_89) hold two.
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890)
constexpr int kBlocksPerSm = 2;
#else
constexpr int kBlocksPerSm = 3;
#endif

template <class Sample, int N>
__global__ void __launch_bounds__(kCols* kMaxBatchFrames, kBlocksPerSm)
    blur_row_sad_kernel(const Sample* __restrict__ prev, const Sample* __restrict__ batch, int frames, int bitdepth,
                        int w, int h, Taps taps, float* __restrict__ row_sums, float* __restrict__ blurred) {
  constexpr int r = N / 2;
  __shared__ float tmp[kMaxBatchFrames][kBandRows][kCols];
  __shared__ float out[kMaxBatchFrames][kBandRows][kTileStride];

  const int c = threadIdx.x;  // column of the tile, halo included
  const int f = threadIdx.y;  // frame slot: 0 = the frame before the batch (when prev != nullptr)
  const int y0 = blockIdx.x * kBandRows;
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  const int first = prev != nullptr ? 0 : 1;  // slot of the earliest frame present
  const Sample* src = f == 0 ? prev : batch + static_cast<std::size_t>(f - 1) * plane;
  const bool frame_active = f >= first && f < frames + 1;

  // Row walkers: thread t < pairs * kBandRows owns row (y0 + t % kBandRows) of pair t / kBandRows.
  const int t = threadIdx.y * kCols + threadIdx.x;
  const int pairs = frames + 1 - first - 1;
  const int walk_pair = t / kBandRows, walk_row = t % kBandRows;
  const bool walker = walk_pair < pairs && y0 + walk_row < h;
  float acc = 0.0f;

  // The samples of this thread's column over the band and its halo, loaded one tile ahead so
  // that the global loads of tile k+1 are in flight while tile k is blurred and walked.
  constexpr int kRows = kBandRows + 2 * r;
  Sample next[kRows];
  const auto load_column = [&](int x0) {
    if (!frame_active) return;
    const int gx = mirror(min(max(x0 - kHalo + c, -r), w - 1 + r), w);
#pragma unroll
    for (int k = 0; k < kRows; ++k) next[k] = src[static_cast<std::size_t>(mirror(min(y0 - r + k, h - 1 + r), h)) * w + gx];
  };
  load_column(0);
  for (int x0 = 0; x0 < w; x0 += kTile) {
    // A: vertical pass for this thread's column over the band's rows, from mirrored samples.
    if (frame_active) {
      float v[kRows];
#pragma unroll
      for (int k = 0; k < kRows; ++k) v[k] = to_float(next[k], bitdepth);
      if (x0 + kTile < w) load_column(x0 + kTile);
#pragma unroll
      for (int i = 0; i < kBandRows; ++i) tmp[f][i][c] = tap_sum<N>(taps.f, [&](int k) { return v[i + k]; });
    }
    __syncthreads();
    // B: horizontal pass for the tile's columns.
    const int x = x0 + c - kHalo;
    if (frame_active && c >= kHalo && c < kHalo + kTile && x < w) {
#pragma unroll
      for (int i = 0; i < kBandRows; ++i) {
        const float b = tap_sum<N>(taps.f, [&](int k) { return tmp[f][i][c - r + k]; });
        out[f][i][c - kHalo] = b;
        if (blurred != nullptr && f >= 1 && y0 + i < h)
          blurred[static_cast<std::size_t>(f - 1) * plane + static_cast<std::size_t>(y0 + i) * w + x] = b;
      }
    }
    __syncthreads();
    // C: each walker adds its row's |A - B| for the tile's columns, left to right.
    if (walker) {
      const float* pa = out[first + walk_pair][walk_row];  // the earlier frame of the pair
      const float* pb = out[first + walk_pair + 1][walk_row];
      if (x0 + kTile <= w) {
#pragma unroll
        for (int j = 0; j < kTile; ++j) acc += fabsf(pa[j] - pb[j]);  // a full tile: loads run ahead of the adds
      } else {
        for (int j = 0; j < w - x0; ++j) acc += fabsf(pa[j] - pb[j]);
      }
    }
    // The next tile's pass A writes only tmp; its first barrier orders pass C before pass B.
  }
  if (walker) row_sums[static_cast<std::size_t>(walk_pair) * h + y0 + walk_row] = acc;
}

template <int N>
cudaError_t launch(const std::uint8_t* prev, const std::uint8_t* batch, int frames, int bytes_per_sample, int bitdepth,
                   int w, int h, const Taps& taps, float* row_sums, float* blurred, cudaStream_t stream) {
  const dim3 block(kCols, frames + 1), grid((h + kBandRows - 1) / kBandRows);
  if (bytes_per_sample == 1)
    blur_row_sad_kernel<std::uint8_t, N><<<grid, block, 0, stream>>>(prev, batch, frames, bitdepth, w, h, taps, row_sums, blurred);
  else
    blur_row_sad_kernel<std::uint16_t, N><<<grid, block, 0, stream>>>(
        reinterpret_cast<const std::uint16_t*>(prev), reinterpret_cast<const std::uint16_t*>(batch), frames, bitdepth, w, h,
        taps, row_sums, blurred);
  return cudaGetLastError();
}

}  // namespace

cudaError_t blur_row_sad(const std::uint8_t* prev, const std::uint8_t* batch, int frames, int bytes_per_sample, int bitdepth,
                         int w, int h, const Taps& taps, float* row_sums, float* blurred, cudaStream_t stream) {
  if (frames < 1 || frames > kMaxBatchFrames - 1) return cudaErrorInvalidValue;
  return taps.count == 3 ? launch<3>(prev, batch, frames, bytes_per_sample, bitdepth, w, h, taps, row_sums, blurred, stream)
                         : launch<5>(prev, batch, frames, bytes_per_sample, bitdepth, w, h, taps, row_sums, blurred, stream);
}

}  // namespace twinproof::float_motion::kernels
