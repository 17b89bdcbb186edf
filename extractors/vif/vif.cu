// vif's kernels: every value is the contract's integer (extractors/vif/CONTRACT.md), and each
// pixel's few double operations are the same IEEE operations in the same order as on the host
// (-fmad=false: no contraction; division and conversions correctly rounded or truncated as C++
// does). A pixel's contribution is computed once, by one thread, from the same integers as the
// reference; only the order in which the 64-bit integer sums add contributions differs, and
// integer addition is associative.
//
// statistics: a block takes a 64x32 tile of one frame's scale. The vertical pass makes, for every
// column the tile's horizontal pass reads (the tile's and the filter's halo, mirrored at the
// picture's edges), the five values of each row (the two means, the two squares and the product,
// each rounded as the contract says) into shared memory: a thread takes 4 rows of a column at a
// time, reading the samples they need once from global memory into registers. The horizontal
// pass gives each thread two runs of 4 adjacent pixels; a run reads each of its five windows
// from shared memory in 16-byte vectors and computes its pixels' statistics. Each half warp's row
// sums go to the row stage when it is captured; the block's sums go atomically into one of kBins
// copies of its frame's sums.
//
// subsample: a block makes a 32x8 tile of the next scale's pictures: the vertical pass at the even
// source rows over the columns the tile reads, into shared memory, then the horizontal pass at the
// even columns.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "extractors/vif/arithmetic.hpp"
#include "extractors/vif/kernels.hpp"

namespace twinproof::vif::kernels {
namespace {

constexpr int kWarps = 8;  // a block is 32 x kWarps threads
constexpr int kThreads = 32 * kWarps;
constexpr int kStatW = 64, kStatH = 32;            // a statistics block's tile of pixels
constexpr int kItemRows = 4;                       // rows of one column a thread's vertical work item makes
constexpr int kRun = 4;                            // adjacent pixels of one row a thread's horizontal pass makes
constexpr int kSubTileW = 32, kSubTileH = kWarps;  // a subsample block's tile of output pixels

struct Taps {
  std::uint16_t f[kScales][17];
};
constexpr bool symmetric_taps() {
  for (int s = 0; s < kScales; ++s)
    for (int k = 0; k < kFilterWidth[s]; ++k)
      if (kFilter[s][k] != kFilter[s][kFilterWidth[s] - 1 - k]) return false;
  return true;
}
static_assert(symmetric_taps(), "the horizontal pass adds mirrored taps' samples first");
constexpr Taps taps_of_contract() {
  Taps t{};
  for (int s = 0; s < kScales; ++s)
    for (int k = 0; k < kFilterWidth[s]; ++k) t.f[s][k] = kFilter[s][k];
  return t;
}
__constant__ Taps c_taps = taps_of_contract();

// mirror() for indices a partial tile may reach beyond what any pixel reads: clamped into the
// picture so that the load stays inside it (such values are never used).
__device__ __forceinline__ int tile_index(int i, int n) {
  const int m = mirror(i, n);
  return m < 0 ? 0 : (m >= n ? n - 1 : m);
}

__device__ __forceinline__ long long warp_sum(long long v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// Within each half warp (lanes 0-15 and 16-31 apart).
__device__ __forceinline__ long long half_warp_sum(long long v) {
#pragma unroll
  for (int off = 8; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

__device__ __forceinline__ void half_warp_sums(ScaleSums& s) {
  s.num_log = half_warp_sum(s.num_log);
  s.den_log = half_warp_sum(s.den_log);
  s.num_non_log = half_warp_sum(s.num_non_log);
  s.den_non_log = half_warp_sum(s.den_non_log);
}

__device__ __forceinline__ void warp_sums(ScaleSums& s) {
  s.num_log = warp_sum(s.num_log);
  s.den_log = warp_sum(s.den_log);
  s.num_non_log = warp_sum(s.num_non_log);
  s.den_non_log = warp_sum(s.den_non_log);
}

__device__ __forceinline__ void add_to(unsigned long long* at, const ScaleSums& s) {
  atomicAdd(at + 0, static_cast<unsigned long long>(s.num_log));
  atomicAdd(at + 1, static_cast<unsigned long long>(s.den_log));
  atomicAdd(at + 2, static_cast<unsigned long long>(s.num_non_log));
  atomicAdd(at + 3, static_cast<unsigned long long>(s.den_non_log));
}

// A statistics block's geometry at scale S: the vertical pass makes in_w columns of kStatH rows
// (the tile's columns and the horizontal filter's halo), stored `stride` words apart (whole
// 16-byte vectors), in work items of kItemRows rows of one column; the horizontal pass reads a
// window of `window` words for each run of kRun outputs.
template <int S>
struct StatGeometry {
  static constexpr int fw = kFilterWidth[S], half = fw / 2;
  static constexpr int in_w = kStatW + 2 * half;
  static constexpr int stride = (in_w + 3) / 4 * 4;
  static constexpr int window = (kRun + fw - 1 + 3) / 4 * 4;
  static constexpr int items = in_w * (kStatH / kItemRows);
  static constexpr std::size_t shared_bytes = sizeof(std::uint32_t) * 5 * kStatH * stride;
  static_assert(kStatW - kRun + window <= stride, "the last run's window stays inside its row");
};

// The vertical pass of one work item: kItemRows rows of column c (picture column x), from the
// kItemRows + fw - 1 samples of each picture it reads, kept in registers.
template <int S, class Sample>
__device__ __forceinline__ void vertical_item(const Sample* ref, const Sample* dist, std::size_t pitch, int x, int first_row,
                                              int h, const VerticalShift& vs, std::uint32_t* vert, int row0, int c) {
  using G = StatGeometry<S>;
  constexpr int n = kItemRows + G::fw - 1;
  // At 8 bits every sum of scale 0 stays below 2^32 (65536 * 255 * 255): 32-bit accumulators.
  using Wide = std::conditional_t<S == 0 && sizeof(Sample) == 1, std::uint32_t, std::uint64_t>;
  std::uint32_t a[n], b[n];
  if (first_row >= 0 && first_row + n <= h) {  // no row to mirror: one pointer step a row
    const Sample* r = ref + static_cast<std::size_t>(first_row) * pitch + x;
    const Sample* d = dist + static_cast<std::size_t>(first_row) * pitch + x;
#pragma unroll
    for (int j = 0; j < n; ++j) {
      a[j] = r[j * pitch];
      b[j] = d[j * pitch];
    }
  } else {
#pragma unroll
    for (int j = 0; j < n; ++j) {
      const std::size_t at = static_cast<std::size_t>(tile_index(first_row + j, h)) * pitch + x;
      a[j] = ref[at];
      b[j] = dist[at];
    }
  }
#pragma unroll
  for (int o = 0; o < kItemRows; ++o) {
    std::uint32_t mu1 = 0, mu2 = 0;
    Wide xx = 0, yy = 0, xy = 0;
#pragma unroll
    for (int k = 0; k < G::fw; ++k) {
      const std::uint32_t fa = c_taps.f[S][k] * a[o + k], fb = c_taps.f[S][k] * b[o + k];
      mu1 += fa;
      mu2 += fb;
      xx += Wide{fa} * a[o + k];
      yy += Wide{fb} * b[o + k];
      xy += Wide{fa} * b[o + k];
    }
    std::uint32_t* at = vert + (row0 + o) * G::stride + c;
    constexpr int plane = kStatH * G::stride;
    at[0 * plane] = (mu1 + vs.mu_round) >> vs.mu_shift;
    at[1 * plane] = (mu2 + vs.mu_round) >> vs.mu_shift;
    at[2 * plane] = static_cast<std::uint32_t>((std::uint64_t{xx} + vs.sq_round) >> vs.sq_shift);
    at[3 * plane] = static_cast<std::uint32_t>((std::uint64_t{yy} + vs.sq_round) >> vs.sq_shift);
    at[4 * plane] = static_cast<std::uint32_t>((std::uint64_t{xy} + vs.sq_round) >> vs.sq_shift);
  }
}

// One channel's window of a run, from shared memory in 16-byte vectors.
template <int Words>
__device__ __forceinline__ void load_window(const std::uint32_t* from, std::uint32_t (&w)[Words]) {
#pragma unroll
  for (int k = 0; k < Words; k += 4) {
    const uint4 v = *reinterpret_cast<const uint4*>(from + k);
    w[k] = v.x;
    w[k + 1] = v.y;
    w[k + 2] = v.z;
    w[k + 3] = v.w;
  }
}

// The horizontal pass and the statistics of a run of kRun pixels of tile row r starting at
// tile column c0; returns their sums.
template <int S>
__device__ __forceinline__ ScaleSums horizontal_run(const std::uint32_t* vert, int r, int c0, int valid,
                                                    const std::uint16_t* log2t, double gain_limit) {
  using G = StatGeometry<S>;
  constexpr int plane = kStatH * G::stride;
  std::uint32_t mu[2][kRun];
  std::uint64_t sq[3][kRun];
  std::uint32_t w[G::window];
#pragma unroll
  for (int q = 0; q < 2; ++q) {
    load_window(vert + q * plane + r * G::stride + c0, w);
#pragma unroll
    for (int o = 0; o < kRun; ++o) {
      // The filter is symmetric: the two samples a tap weighs alike are added first (the means
      // are below 2^16, so no sum leaves 32 bits, and integer sums are exact in any order).
      std::uint32_t sum = c_taps.f[S][G::half] * w[o + G::half];
#pragma unroll
      for (int k = 0; k < G::half; ++k) sum += c_taps.f[S][k] * (w[o + k] + w[o + G::fw - 1 - k]);
      mu[q][o] = sum;
    }
  }
#pragma unroll
  for (int q = 0; q < 3; ++q) {
    load_window(vert + (2 + q) * plane + r * G::stride + c0, w);
#pragma unroll
    for (int o = 0; o < kRun; ++o) {
      std::uint64_t sum = 0;
#pragma unroll
      for (int k = 0; k < G::fw; ++k) sum += c_taps.f[S][k] * std::uint64_t{w[o + k]};
      sq[q][o] = sum;
    }
  }
  ScaleSums s{};
#pragma unroll
  for (int o = 0; o < kRun; ++o)
    if (o < valid) add_pixel(s, mu[0][o], mu[1][o], sq[0][o], sq[1][o], sq[2][o], log2t, gain_limit);
  return s;
}

// Three blocks an SM (at most 80 registers a thread, none spilled; the shared memory of four).
template <int S, class Sample>
__global__ void __launch_bounds__(kThreads, 3)
    statistics_kernel(const __grid_constant__ Pictures in, int w, int h, int bpc, const std::uint16_t* __restrict__ log2t,
                      double gain_limit, const __grid_constant__ Sums out) {
  using G = StatGeometry<S>;
  extern __shared__ uint4 shared_words[];
  auto* vert = reinterpret_cast<std::uint32_t*>(shared_words);  // [5][kStatH][stride]: mu1, mu2, xx, yy, xy
  __shared__ long long warp_total[kWarps][4];

  const int frame = static_cast<int>(blockIdx.z);
  const int x0 = static_cast<int>(blockIdx.x) * kStatW, y0 = static_cast<int>(blockIdx.y) * kStatH;
  const int tid = static_cast<int>(threadIdx.x);

  const VerticalShift vs = vertical_shift(S, bpc);
  for (int i = tid; i < G::items; i += kThreads) {
    const int c = i % G::in_w, row0 = i / G::in_w * kItemRows;
    vertical_item<S>(static_cast<const Sample*>(in.ref[frame]), static_cast<const Sample*>(in.dist[frame]),
                     static_cast<std::size_t>(in.pitch), tile_index(x0 - G::half + c, w), y0 + row0 - G::half, h, vs, vert, row0,
                     c);
  }
  __syncthreads();

  // Thread t takes runs (rows t / kRunsPerRow and that + kStatH / 2, columns kRun * (t % kRunsPerRow)):
  // the 16 threads of a half warp share a row.
  constexpr int kRunsPerRow = kStatW / kRun;
  static_assert(kRunsPerRow == 16 && kThreads / kRunsPerRow * 2 == kStatH);
  const int c0 = kRun * (tid % kRunsPerRow);
  const int valid = min(kRun, w - x0 - c0);
  ScaleSums total{};
#pragma unroll
  for (int half_tile = 0; half_tile < 2; ++half_tile) {
    const int r = tid / kRunsPerRow + half_tile * (kStatH / 2);
    const int y = y0 + r;
    ScaleSums run{};
    if (y < h && valid > 0) run = horizontal_run<S>(vert, r, c0, valid, log2t, gain_limit);
    if (out.rows != nullptr) {
      ScaleSums row = run;
      half_warp_sums(row);
      if (tid % kRunsPerRow == 0 && y < h) add_to(out.rows + 4 * static_cast<std::size_t>(y), row);
    }
    total += run;
  }
  warp_sums(total);
  const int warp = tid / 32;
  if (tid % 32 == 0) {
    warp_total[warp][0] = total.num_log;
    warp_total[warp][1] = total.den_log;
    warp_total[warp][2] = total.num_non_log;
    warp_total[warp][3] = total.den_non_log;
  }
  __syncthreads();
  if (tid == 0) {
    ScaleSums block{};
    for (int k = 0; k < kWarps; ++k) block += ScaleSums{warp_total[k][0], warp_total[k][1], warp_total[k][2], warp_total[k][3]};
    const unsigned bin = (blockIdx.y * gridDim.x + blockIdx.x) % kBins;
    add_to(out.sums + static_cast<std::size_t>(frame) * out.frame_stride + 4 * bin, block);
  }
}

template <int Next, class Sample>
__device__ __forceinline__ void subsample_tile(const Pictures& in, int w, int h, int bpc, std::uint16_t* const* ref_out,
                                               std::uint16_t* const* dist_out) {
  constexpr int fw = kFilterWidth[Next], half = fw / 2;
  constexpr int cols = 2 * kSubTileW + 2 * half;  // source columns the tile's horizontal pass reads
  __shared__ std::uint16_t vref[kSubTileH][cols], vdist[kSubTileH][cols];

  const int frame = static_cast<int>(blockIdx.z);
  const auto* ref = static_cast<const Sample*>(in.ref[frame]);
  const auto* dist = static_cast<const Sample*>(in.dist[frame]);
  const int ow = w / 2, oh = h / 2;
  const int j0 = static_cast<int>(blockIdx.x) * kSubTileW, i0 = static_cast<int>(blockIdx.y) * kSubTileH;
  const int tid = static_cast<int>(threadIdx.y) * 32 + static_cast<int>(threadIdx.x);

  const VerticalShift vs = subsample_shift(Next, bpc);
  for (int i = tid; i < kSubTileH * cols; i += kThreads) {
    const int r = i / cols, c = i % cols;
    if (i0 + r >= oh) continue;
    const int src = 2 * (i0 + r);
    const int x = tile_index(2 * j0 - half + c, w);
    std::uint32_t a = 0, b = 0;
#pragma unroll
    for (int k = 0; k < fw; ++k) {
      const std::size_t at = static_cast<std::size_t>(mirror(src - half + k, h)) * in.pitch + x;
      a += c_taps.f[Next][k] * std::uint32_t{ref[at]};
      b += c_taps.f[Next][k] * std::uint32_t{dist[at]};
    }
    vref[r][c] = static_cast<std::uint16_t>((a + vs.mu_round) >> vs.mu_shift);
    vdist[r][c] = static_cast<std::uint16_t>((b + vs.mu_round) >> vs.mu_shift);
  }
  __syncthreads();

  const int r = static_cast<int>(threadIdx.y), jo = j0 + static_cast<int>(threadIdx.x);
  if (i0 + r >= oh || jo >= ow) return;
  std::uint32_t a = 0, b = 0;
#pragma unroll
  for (int k = 0; k < fw; ++k) {
    a += c_taps.f[Next][k] * std::uint32_t{vref[r][2 * threadIdx.x + k]};
    b += c_taps.f[Next][k] * std::uint32_t{vdist[r][2 * threadIdx.x + k]};
  }
  const std::size_t at = static_cast<std::size_t>(i0 + r) * ow + jo;
  ref_out[frame][at] = static_cast<std::uint16_t>((a + 32768u) >> 16);
  dist_out[frame][at] = static_cast<std::uint16_t>((b + 32768u) >> 16);
}

template <int S, class Sample>
cudaError_t launch_statistics(const Pictures& in, int w, int h, int bpc, const std::uint16_t* log2t, double gain_limit,
                              const Sums& out, cudaStream_t stream) {
  using G = StatGeometry<S>;
  // Scale 0's tile needs more than the 48 KiB a block gets without asking (for the current device).
  cudaError_t e = cudaFuncSetAttribute(statistics_kernel<S, Sample>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(G::shared_bytes));
  if (e != cudaSuccess) return e;
  const dim3 grid((w + kStatW - 1) / kStatW, (h + kStatH - 1) / kStatH, in.frames);
  statistics_kernel<S, Sample><<<grid, kThreads, G::shared_bytes, stream>>>(in, w, h, bpc, log2t, gain_limit, out);
  return cudaGetLastError();
}

// The output pointers live in the kernel's parameters: an array of kMaxFrames each.
struct OutPointers {
  std::uint16_t* ref[kMaxFrames];
  std::uint16_t* dist[kMaxFrames];
};

template <int Next, class Sample>
__global__ void __launch_bounds__(kThreads)
    subsample_entry(const __grid_constant__ Pictures in, int w, int h, int bpc, const __grid_constant__ OutPointers out);

template <int Next, class Sample>
cudaError_t launch_subsample(const Pictures& in, int w, int h, int bpc, const OutPointers& out, cudaStream_t stream) {
  const int ow = w / 2, oh = h / 2;
  const dim3 grid((ow + kSubTileW - 1) / kSubTileW, (oh + kSubTileH - 1) / kSubTileH, in.frames);
  subsample_entry<Next, Sample><<<grid, dim3(32, kWarps), 0, stream>>>(in, w, h, bpc, out);
  return cudaGetLastError();
}

template <int Next, class Sample>
__global__ void __launch_bounds__(kThreads)
    subsample_entry(const __grid_constant__ Pictures in, int w, int h, int bpc, const __grid_constant__ OutPointers out) {
  subsample_tile<Next, Sample>(in, w, h, bpc, out.ref, out.dist);
}

}  // namespace

cudaError_t statistics(const Pictures& in, int w, int h, int scale, int bpc, bool wide, const std::uint16_t* log2t,
                       double gain_limit, const Sums& out, cudaStream_t stream) {
  if (in.frames < 1 || in.frames > kMaxFrames || w < 1 || h < 1) return cudaErrorInvalidValue;
  // Scale 0 reads the clip's samples; later scales the 16-bit pictures subsample made.
  using u8 = std::uint8_t;
  using u16 = std::uint16_t;
  switch (scale) {
    case 0:
      return wide ? launch_statistics<0, u16>(in, w, h, bpc, log2t, gain_limit, out, stream)
                  : launch_statistics<0, u8>(in, w, h, bpc, log2t, gain_limit, out, stream);
    case 1: return launch_statistics<1, u16>(in, w, h, bpc, log2t, gain_limit, out, stream);
    case 2: return launch_statistics<2, u16>(in, w, h, bpc, log2t, gain_limit, out, stream);
    case 3: return launch_statistics<3, u16>(in, w, h, bpc, log2t, gain_limit, out, stream);
    default: return cudaErrorInvalidValue;
  }
}

cudaError_t subsample(const Pictures& in, int w, int h, int next, int bpc, bool wide, std::uint16_t* const ref_out[kMaxFrames],
                      std::uint16_t* const dist_out[kMaxFrames], cudaStream_t stream) {
  if (in.frames < 1 || in.frames > kMaxFrames || w < 2 || h < 2) return cudaErrorInvalidValue;
  OutPointers out{};
  for (int f = 0; f < in.frames; ++f) {
    out.ref[f] = ref_out[f];
    out.dist[f] = dist_out[f];
  }
  // Scale 1 reads the clip's samples; later scales read the 16-bit pictures made before them.
  switch (next) {
    case 1:
      return wide ? launch_subsample<1, std::uint16_t>(in, w, h, bpc, out, stream)
                  : launch_subsample<1, std::uint8_t>(in, w, h, bpc, out, stream);
    case 2: return launch_subsample<2, std::uint16_t>(in, w, h, bpc, out, stream);
    case 3: return launch_subsample<3, std::uint16_t>(in, w, h, bpc, out, stream);
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace twinproof::vif::kernels
