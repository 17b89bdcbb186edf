// Integer motion's fused kernel: per tile of 124 x 32 outputs, one thread per column computes the
// vertical pass of the difference P - C down its column (the column's 36 differences loaded at
// once into registers, a five-row window sliding down them) into shared memory, then each warp walks whole rows: four outputs per lane from two
// aligned 16-byte loads of the vertical row, |X| summed per row by one warp reduction and added
// to the row's sum with one atomic per warp. Integer arithmetic only; every value is the contract's
// exact integer:
//  - the taps are symmetric, so a pass is g0*(x0+x4) + g1*(x1+x3) + g2*x2: three products;
//  - the vertical pass of 8- to 12-bit differences fits int32 (|a| <= 65536 * 4095 < 2^31);
//    for 16-bit differences and the horizontal pass (|b| up to 65535 * 65536) the taps are split
//    into bytes (taps_round16), which keeps every partial sum in int32;
//  - row sums are unsigned 32-bit sums, order-free, as the contract keeps them.
#include "extractors/motion/arithmetic.hpp"
#include "kernels/motion/kernels.hpp"

namespace twinproof::motion::kernels {
namespace {

constexpr int kTileCols = 124;            // outputs per tile row
constexpr int kCols = kTileCols + 4;      // vertical-pass columns: two of halo on each side
constexpr int kTileRows = 32;
constexpr int kThreads = kCols;           // one thread per vertical column
constexpr int kWarps = kThreads / 32;
constexpr int kGroups = kTileCols / 4;    // four outputs per lane: 31 lanes of a warp

constexpr int g0 = 3571, g1 = 16004, g2 = 26386;

__device__ __forceinline__ int iabs(int x) { return x < 0 ? -x : x; }

// floor((g (x) x + 2^15) / 2^16) for five values |x| < 2^16, exact in int32 although the sum
// reaches 65535 * 65536: each tap is split into bytes, g = 256*gh + gl, so the sum is 256*H + L
// with H = gh (x) x and L = gl (x) x (|H| < 2^25, |L| < 2^26), and with L + 2^15 = 256*q + r,
// 0 <= r < 256, floor((256*(H + q) + r) / 2^16) = floor((H + q) / 2^8): r cannot carry.
__device__ __forceinline__ int taps_round16(int x0, int x1, int x2, int x3, int x4) {
  constexpr int gh0 = g0 >> 8, gl0 = g0 & 255, gh1 = g1 >> 8, gl1 = g1 & 255, gh2 = g2 >> 8, gl2 = g2 & 255;
  const int s0 = x0 + x4, s1 = x1 + x3;
  const int hi = gh0 * s0 + gh1 * s1 + gh2 * x2;
  const int lo = gl0 * s0 + gl1 * s1 + gl2 * x2;
  return (hi + ((lo + 32768) >> 8)) >> 8;
}

// The vertical pass of five differences at this depth.
template <int Bitdepth>
__device__ __forceinline__ int vertical(int d0, int d1, int d2, int d3, int d4) {
  if constexpr (Bitdepth == 16) {
    return taps_round16(d0, d1, d2, d3, d4);  // add 2^15, shift 16
  } else {
    constexpr int add = Bitdepth == 8 ? 128 : 1 << (Bitdepth - 1);
    constexpr int shift = Bitdepth == 8 ? 8 : Bitdepth;
    const int a = g0 * (d0 + d4) + g1 * (d1 + d3) + g2 * d2;  // |a| <= 65536 * 4095 < 2^31
    return (a + add) >> shift;
  }
}

template <class T, int Bitdepth>
__global__ void __launch_bounds__(kThreads) integer_motion_pair_kernel(const T* __restrict__ frames, std::size_t frame_elems,
                                                                     PairSlots slots, int w, int h,
                                                                     std::uint32_t* __restrict__ row_sums) {
  __shared__ __align__(16) int vrow[kTileRows][kCols];
  const int pair = blockIdx.z;
  const T* __restrict__ P = frames + frame_elems * slots.earlier[pair];
  const T* __restrict__ C = frames + frame_elems * slots.later[pair];
  const int j0 = blockIdx.x * kTileCols, i0 = blockIdx.y * kTileRows;
  const int rows = min(kTileRows, h - i0);

  // 1. The vertical pass: thread c owns picture column j0 - 2 + c. Every difference the column
  //    needs is loaded first (independent loads, one memory latency per block, not one per row),
  //    then the five-row window slides down it in registers.
  const int c = threadIdx.x;
  const int gj = j0 - 2 + c;
  if (gj >= -2 && gj <= w + 1) {
    const int j = mirror(gj, w);
    int d[kTileRows + 4];
    if (i0 >= 2 && i0 + kTileRows + 2 <= h) {
      // An inner tile: rows i0 - 2 .. i0 + 33, no mirroring; one offset stepped by w.
      const T* __restrict__ p = P + static_cast<std::size_t>(i0 - 2) * w + j;
      const T* __restrict__ q = C + static_cast<std::size_t>(i0 - 2) * w + j;
#pragma unroll
      for (int k = 0; k < kTileRows + 4; ++k) d[k] = static_cast<int>(p[k * w]) - static_cast<int>(q[k * w]);
    } else {
#pragma unroll
      for (int k = 0; k < kTileRows + 4; ++k) {
        d[k] = 0;
        if (k < rows + 4) {  // rows of the picture this tile's outputs read: mirror(i0 - 2 + k)
          const std::size_t at = static_cast<std::size_t>(mirror(i0 - 2 + k, h)) * w + j;
          d[k] = static_cast<int>(P[at]) - static_cast<int>(C[at]);  // earlier minus later
        }
      }
    }
#pragma unroll
    for (int r = 0; r < kTileRows; ++r)
      if (r < rows) vrow[r][c] = vertical<Bitdepth>(d[r], d[r + 1], d[r + 2], d[r + 3], d[r + 4]);
  }
  __syncthreads();

  // 2. The horizontal pass: warp w walks rows w, w + kWarps, ...; lane l has outputs 4l..4l+3
  //    of the tile, which read vertical columns 4l .. 4l+7.
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int col = j0 + 4 * lane;
  const int valid = lane < kGroups ? max(0, min(4, w - col)) : 0;
#pragma unroll
  for (int r = warp; r < kTileRows; r += kWarps) {
    if (r >= rows) break;
    unsigned sum = 0;
    if (valid > 0) {
      const int4 a = *reinterpret_cast<const int4*>(&vrow[r][4 * lane]);
      const int4 b = *reinterpret_cast<const int4*>(&vrow[r][4 * lane + 4]);
      const int v[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
      if (valid == 4) {  // every lane of an inner tile: no per-output test
#pragma unroll
        for (int k = 0; k < 4; ++k) sum += static_cast<unsigned>(iabs(taps_round16(v[k], v[k + 1], v[k + 2], v[k + 3], v[k + 4])));
      } else {
#pragma unroll
        for (int k = 0; k < 4; ++k)
          if (k < valid) sum += static_cast<unsigned>(iabs(taps_round16(v[k], v[k + 1], v[k + 2], v[k + 3], v[k + 4])));
      }
    }
    sum = __reduce_add_sync(0xffffffffu, sum);  // one warp-wide integer reduction (sm_80 and later)
    if (lane == 0) atomicAdd(&row_sums[static_cast<std::size_t>(pair) * h + i0 + r], sum);
  }
}

template <class T, int Bitdepth>
void launch(const void* frames, std::size_t frame_elems, int w, int h, const PairSlots& slots, int pairs, std::uint32_t* rows,
            cudaStream_t s) {
  const dim3 grid((w + kTileCols - 1) / kTileCols, (h + kTileRows - 1) / kTileRows, pairs);
  integer_motion_pair_kernel<T, Bitdepth><<<grid, kThreads, 0, s>>>(static_cast<const T*>(frames), frame_elems, slots, w, h, rows);
}

}  // namespace

cudaError_t pair_row_sums(const void* frames, std::size_t frame_elems, int bytes_per_sample, int bitdepth, int w, int h,
                          const PairSlots& slots, int pairs, std::uint32_t* row_sums, cudaStream_t stream) {
  if (pairs <= 0) return cudaSuccess;
  if (pairs > kMaxPairs || w < kMinExtent || h < kMinExtent) return cudaErrorInvalidValue;
  switch (bitdepth) {
    case 8: launch<std::uint8_t, 8>(frames, frame_elems, w, h, slots, pairs, row_sums, stream); break;
    case 10: launch<std::uint16_t, 10>(frames, frame_elems, w, h, slots, pairs, row_sums, stream); break;
    case 12: launch<std::uint16_t, 12>(frames, frame_elems, w, h, slots, pairs, row_sums, stream); break;
    case 16: launch<std::uint16_t, 16>(frames, frame_elems, w, h, slots, pairs, row_sums, stream); break;
    default: return cudaErrorInvalidValue;
  }
  (void)bytes_per_sample;
  return cudaGetLastError();
}

}  // namespace twinproof::motion::kernels
