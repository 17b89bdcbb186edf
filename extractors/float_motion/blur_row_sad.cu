// The fast exact kernel of `cuda`: consecutive frames are blurred tile by tile in shared memory
// and each pair's row sums are accumulated as the tiles go by, left to right.
//
// Exactness: each blurred sample is the reference's tap sum over the same mirrored samples
// (vertical, then horizontal; arithmetic.hpp's tap_sum_from_first and biased_to_float say why
// their shortcuts give the same numbers), and each row's SAD is ONE thread adding |A - B| in
// column order, carried in a register from tile to tile. Nothing is reassociated: no block,
// warp, atomic or fp64 reduction.
//
// Speed comes from elsewhere:
//  - every frame is blurred once (pairs share frames); blurred planes stay in shared memory
//    unless they are asked for;
//  - a block holds one band of rows of a group of frames; the bands and the groups run in
//    parallel, and small planes take more groups a launch so that they fill the chip;
//  - the warps of a block have two jobs. Six blur warps load 4 samples a thread with one load a
//    row, convert them with a byte permute and a subtraction, slide the vertical pass down the
//    band in registers and take the horizontal pass from shared memory 4 columns at a time.
//    Two walker warps, one thread per pair and row, add up a blurred tile's |A - B| while the
//    blur warps make the next tile's vertical pass. Every barrier is block-wide and met by every
//    thread at the same place (compute-sanitizer's racecheck follows nothing finer).
#include "extractors/float_motion/kernels.hpp"

#include <algorithm>
#include <type_traits>

namespace twinproof::float_motion::kernels {
namespace {

constexpr int kHalo = 4;           // columns loaded each side of a tile (radius <= 2)
constexpr int kTile = 64;          // output columns per tile
constexpr int kQuads = kTile / 4;  // output quads per tile row
constexpr int kTmpQuads = kQuads + 2 * kHalo / 4;
constexpr int kTmpStride = 4 * kTmpQuads;  // floats per row of the vertical pass's tile
constexpr int kOutStride = kTile + 4;      // walkers on 8 consecutive rows: 8 distinct bank quads
constexpr int kSlots = kGroupFrames + 1;   // the frame before the group, then its new frames
constexpr int kBlurThreads = 6 * 32;
constexpr int kWalkers = kGroupFrames * kBandRows;
constexpr int kThreads = kBlurThreads + kWalkers;
static_assert(kWalkers % 32 == 0, "walkers fill whole warps");

// Three blocks per multiprocessor: at most 85 registers a thread (80 used), 40 KB of shared
// memory a block.
constexpr int kBlocksPerSm = 3;

template <bool kFromZero, int N, class V>
__device__ __forceinline__ float blur_tap_sum(const float* f, V v) {
  if constexpr (kFromZero) return tap_sum<N>(f, v);
  else return tap_sum_from_first<N>(f, v);
}

// Four adjacent samples of a row as loaded: 4 bytes in one word, or 4 halfwords in two.
template <class Sample>
using Quad = std::conditional_t<sizeof(Sample) == 1, unsigned, uint2>;
__device__ __forceinline__ unsigned pack_quad(const std::uint8_t* row, const int (&col)[4]) {
  return row[col[0]] | row[col[1]] << 8 | row[col[2]] << 16 | static_cast<unsigned>(row[col[3]]) << 24;
}
__device__ __forceinline__ uint2 pack_quad(const std::uint16_t* row, const int (&col)[4]) {
  return make_uint2(row[col[0]] | static_cast<unsigned>(row[col[1]]) << 16, row[col[2]] | static_cast<unsigned>(row[col[3]])
                                                                                              << 16);
}
// Sample j of a quad as the fp32 number 2^23 + sample: one byte permute.
__device__ __forceinline__ float biased(unsigned quad, int j) {
  return __uint_as_float(__byte_perm(quad, kBiasedSampleBits, 0x7650 + j));
}
__device__ __forceinline__ float biased(uint2 quad, int j) {
  return __uint_as_float(__byte_perm(j < 2 ? quad.x : quad.y, kBiasedSampleBits, j % 2 == 0 ? 0x7610 : 0x7632));
}

struct Shared {
  float vertical[kSlots][kBandRows][kTmpStride];  // the tile's vertical pass, halo columns included
  float blurred[kSlots][kBandRows][kOutStride];   // the tile's blurred rows, for the walkers
};

template <class Sample, int N, bool kFromZero>
__global__ void __launch_bounds__(kThreads, kBlocksPerSm)
    blur_row_sad_kernel(const Sample* __restrict__ prev, const Sample* __restrict__ batch, int frames, int bitdepth, int w, int h,
                        Taps taps, float* __restrict__ row_sums, float* __restrict__ blurred) {
  constexpr int r = N / 2;
  constexpr int kRows = kBandRows + 2 * r;  // rows the vertical pass reads for one band
  __shared__ __align__(16) Shared sh;

  const int y0 = blockIdx.x * kBandRows;
  const int g0 = blockIdx.y * kGroupFrames;  // batch index of the group's first new frame
  const int fresh = min(kGroupFrames, frames - g0);
  const int first = blockIdx.y == 0 && prev == nullptr ? 1 : 0;  // slot of the earliest frame present
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  const int tiles = (w + kTile - 1) / kTile;

  const bool blur_warp = threadIdx.x < kBlurThreads;

  // ---- blur warps' state ------------------------------------------------------------------------
  const int t = threadIdx.x;
  const int depth = sizeof(Sample) == 1 ? 8 : bitdepth;  // a constant for 8-bit samples
  const int horizontal_items = (fresh + 1 - first) * kBandRows * kQuads;
  // Vertical pass: thread t takes 4 columns of one frame down the band, the same quad of every
  // tile. Its samples for the next tile are loaded while this tile's horizontal pass runs.
  const int slot_v = first + t / kTmpQuads, q_v = t % kTmpQuads;
  const bool vertical_item = blur_warp && slot_v <= fresh;
  const Sample* src = slot_v == 0 ? (blockIdx.y == 0 ? prev : batch + static_cast<std::size_t>(g0 - 1) * plane)
                                  : batch + static_cast<std::size_t>(g0 + slot_v - 1) * plane;
  int row_at[kRows];  // mirrored rows of the band and its halo, every tile alike
#pragma unroll
  for (int k = 0; k < kRows; ++k) row_at[k] = mirror(min(y0 - r + k, h - 1 + r), h);
  Quad<Sample> quads[kRows];
  const auto fetch = [&](int x0) {
    const int x = x0 - kHalo + 4 * q_v;
    if (w % 4 == 0 && x >= 0 && x + 4 <= w) {  // one aligned load a row
#pragma unroll
      for (int k = 0; k < kRows; ++k) quads[k] = *reinterpret_cast<const Quad<Sample>*>(src + std::size_t(row_at[k]) * w + x);
    } else {
      int col[4];
#pragma unroll
      for (int j = 0; j < 4; ++j) col[j] = mirror(min(max(x + j, -r), w - 1 + r), w);
#pragma unroll
      for (int k = 0; k < kRows; ++k) quads[k] = pack_quad(src + std::size_t(row_at[k]) * w, col);
    }
  };

  // ---- walker warps' state: thread (pair, row) adds its row's |A - B| left to right ------------
  const int walker = threadIdx.x - kBlurThreads;
  const int pair_slot = first + walker / kBandRows, pair_row = walker % kBandRows;  // the pair (slot, slot + 1)
  const bool walks = !blur_warp && pair_slot + 1 <= fresh && y0 + pair_row < h;
  float acc = 0.0f;
  const auto walk = [&](int tile) {
    if (!walks) return;
    const int x0 = tile * kTile;
    const float* a = sh.blurred[pair_slot][pair_row];  // the earlier frame of the pair
    const float* b = sh.blurred[pair_slot + 1][pair_row];
    if (x0 + kTile <= w) {
#pragma unroll 4
      for (int q = 0; q < kQuads; ++q) {
        const float4 va = *reinterpret_cast<const float4*>(a + 4 * q), vb = *reinterpret_cast<const float4*>(b + 4 * q);
        acc += fabsf(va.x - vb.x);
        acc += fabsf(va.y - vb.y);
        acc += fabsf(va.z - vb.z);
        acc += fabsf(va.w - vb.w);
      }
    } else {
      for (int j = 0; j < w - x0; ++j) acc += fabsf(a[j] - b[j]);
    }
  };

  // Per tile: the vertical pass of tile k beside the walk of tile k - 1; barrier; the horizontal
  // pass of tile k (the walk is done with the blurred tile); barrier (the vertical tile is read,
  // the blurred tile is the walkers').
  if (vertical_item) fetch(0);
  for (int tile = 0; tile < tiles; ++tile) {
    if (blur_warp) {
      const int x0 = tile * kTile;
      if (vertical_item) {
        float window[N][4];  // the last N rows converted, oldest first
#pragma unroll
        for (int k = 0; k < kRows; ++k) {
          const int newest = k < N ? k : N - 1;
          if (k >= N) {
#pragma unroll
            for (int i = 0; i < N - 1; ++i)
#pragma unroll
              for (int j = 0; j < 4; ++j) window[i][j] = window[i + 1][j];
          }
#pragma unroll
          for (int j = 0; j < 4; ++j) window[newest][j] = biased_to_float(biased(quads[k], j), depth);
          if (k >= N - 1) {
            float4 v;
            v.x = blur_tap_sum<kFromZero, N>(taps.f, [&](int i) { return window[i][0]; });
            v.y = blur_tap_sum<kFromZero, N>(taps.f, [&](int i) { return window[i][1]; });
            v.z = blur_tap_sum<kFromZero, N>(taps.f, [&](int i) { return window[i][2]; });
            v.w = blur_tap_sum<kFromZero, N>(taps.f, [&](int i) { return window[i][3]; });
            *reinterpret_cast<float4*>(&sh.vertical[slot_v][k - (N - 1)][4 * q_v]) = v;
          }
        }
        if (tile + 1 < tiles) fetch(x0 + kTile);
      }
    } else if (tile > 0) {
      walk(tile - 1);
    }
    __syncthreads();
    if (blur_warp) {
      const int x0 = tile * kTile;
      // Horizontal pass: a thread takes 4 columns of one row of one frame.
      for (int item = t; item < horizontal_items; item += kBlurThreads) {
        const int q = item % kQuads, i = (item / kQuads) % kBandRows, slot = first + item / (kQuads * kBandRows);
        if (y0 + i >= h) continue;
        const float* in = &sh.vertical[slot][i][4 * q];  // columns x0 + 4q - 4 .. x0 + 4q + 7
        const float4 a = *reinterpret_cast<const float4*>(in), b = *reinterpret_cast<const float4*>(in + 4),
                     c = *reinterpret_cast<const float4*>(in + 8);
        const float v[12] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, c.x, c.y, c.z, c.w};
        float o[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) o[j] = blur_tap_sum<kFromZero, N>(taps.f, [&](int k) { return v[kHalo + j - r + k]; });
        *reinterpret_cast<float4*>(&sh.blurred[slot][i][4 * q]) = make_float4(o[0], o[1], o[2], o[3]);
        if (blurred != nullptr && slot >= 1) {
          float* dst = blurred + static_cast<std::size_t>(g0 + slot - 1) * plane + static_cast<std::size_t>(y0 + i) * w;
#pragma unroll
          for (int j = 0; j < 4; ++j)
            if (x0 + 4 * q + j < w) dst[x0 + 4 * q + j] = o[j];
        }
      }
    }
    __syncthreads();
  }
  walk(tiles - 1);
  // The later frame of the pair is batch[g0 + slot]; without `prev` pairs start one frame in.
  if (walks) row_sums[static_cast<std::size_t>(g0 + pair_slot - (prev == nullptr ? 1 : 0)) * h + y0 + pair_row] = acc;
}

template <class Sample, int N, bool kFromZero>
cudaError_t launch(const Sample* prev, const Sample* batch, int frames, int bitdepth, int w, int h, const Taps& taps,
                   float* row_sums, float* blurred, cudaStream_t stream) {
  const dim3 grid((h + kBandRows - 1) / kBandRows, (frames + kGroupFrames - 1) / kGroupFrames);
  blur_row_sad_kernel<Sample, N, kFromZero>
      <<<grid, kThreads, 0, stream>>>(prev, batch, frames, bitdepth, w, h, taps, row_sums, blurred);
  return cudaGetLastError();
}

template <class Sample>
cudaError_t launch_for_taps(const Sample* prev, const Sample* batch, int frames, int bitdepth, int w, int h, const Taps& taps,
                            float* row_sums, float* blurred, cudaStream_t stream) {
  if (taps.count == 3) return launch<Sample, 3, false>(prev, batch, frames, bitdepth, w, h, taps, row_sums, blurred, stream);
  if (first_tap_positive(taps))
    return launch<Sample, 5, false>(prev, batch, frames, bitdepth, w, h, taps, row_sums, blurred, stream);
  return launch<Sample, 5, true>(prev, batch, frames, bitdepth, w, h, taps, row_sums, blurred, stream);
}

}  // namespace

cudaError_t blur_row_sad(const std::uint8_t* prev, const std::uint8_t* batch, int frames, int bytes_per_sample, int bitdepth,
                         int w, int h, const Taps& taps, float* row_sums, float* blurred, cudaStream_t stream) {
  if (frames < 1 || frames > kMaxBatchFrames || (taps.count == 3 && !first_tap_positive(taps))) return cudaErrorInvalidValue;
  if (bytes_per_sample == 1) return launch_for_taps(prev, batch, frames, bitdepth, w, h, taps, row_sums, blurred, stream);
  return launch_for_taps(reinterpret_cast<const std::uint16_t*>(prev), reinterpret_cast<const std::uint16_t*>(batch), frames,
                         bitdepth, w, h, taps, row_sums, blurred, stream);
}

cudaError_t blur_row_sad_batch(int h, int bytes_per_sample, int* frames) {
  const auto occupancy = [](auto kernel, int* per_sm) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(per_sm, kernel, kThreads, 0);
  };
  int device = 0, sms = 0, per_sm = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (e == cudaSuccess)
    e = bytes_per_sample == 1 ? occupancy(blur_row_sad_kernel<std::uint8_t, 5, false>, &per_sm)
                              : occupancy(blur_row_sad_kernel<std::uint16_t, 5, false>, &per_sm);
  if (e != cudaSuccess) return e;
  // Two blocks for every one the device holds at once: with one, the multiprocessors that hold
  // an extra block set the pace (measured on an H200 at 3840x2160: 1.63x the memory floor with
  // 8 frames a launch, 1.29x with 16, 1.19x with 24).
  const int bands = (h + kBandRows - 1) / kBandRows;
  const int wanted = 2 * sms * std::max(per_sm, 1);
  *frames = std::clamp((wanted + bands - 1) / bands, 1, kMaxBatchFrames / kGroupFrames) * kGroupFrames;
  return cudaSuccess;
}

}  // namespace twinproof::float_motion::kernels
