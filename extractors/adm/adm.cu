// adm's CUDA kernels (extractors/adm/CONTRACT.md): the contract's own per-sample arithmetic
// (extractors/adm/arithmetic.hpp) over every frame of a launch. Integer arithmetic throughout,
// but for the angle test's float and double operations (rounded, never fused: -fmad=false) and
// the truncation of the enhanced coefficient. A scale takes three launches: the wavelet, then per
// tile of the scored rect the decoupling, CSF and masking in shared memory (a ring sample two tiles
// share is decoupled by each, to the same bits), each row's sums per tile in 64-bit integers (any
// order gives the same bits), and last each row's total, shifted as the contract shifts it, added
// into its frame's.
#include <type_traits>

#include "extractors/adm/kernels.hpp"

namespace twinproof::adm::kernels {
namespace {

constexpr int kThreads = 128;  // threads of a dwt or decoupled-bands block (one sample each)

__device__ __forceinline__ std::int32_t* array(const Arrays& a, int f, int k) {
  return a.base + a.frame_stride * static_cast<std::size_t>(f) + a.elems * static_cast<std::size_t>(k);
}

// One output sample (i, m) of both passes: the four input columns' vertical passes, then the
// horizontal pass of each. Scale 0 (Narrow) in 32-bit arithmetic, the later scales in 64.
template <class Sample, bool Narrow>
__global__ void dwt_kernel(Input in, int in_w, int in_h, DwtShifts d, Arrays bands, int w) {
  const int m = static_cast<int>(blockIdx.x) * kThreads + static_cast<int>(threadIdx.x);
  const int i = static_cast<int>(blockIdx.y);
  const int f = static_cast<int>(blockIdx.z) >> 1, p = static_cast<int>(blockIdx.z) & 1;
  if (m >= w) return;
  const Sample* base = static_cast<const Sample*>(p == 0 ? in.ref[f] : in.dist[f]);
  const Sample* rows[4];
  for (int k = 0; k < 4; ++k) rows[k] = base + static_cast<std::size_t>(dwt_tap(i, k, in_h)) * in.pitch;
  using Wide = std::conditional_t<Narrow, std::int32_t, std::int64_t>;
  Wide lo[4], hi[4];
  for (int c = 0; c < 4; ++c) {
    const int x = dwt_tap(m, c, in_w);
    if constexpr (Narrow) {
      std::uint32_t s[4];
      for (int k = 0; k < 4; ++k) s[k] = static_cast<std::uint32_t>(rows[k][x]);
      lo[c] = dwt_vertical_scale0(s, true, d);
      hi[c] = dwt_vertical_scale0(s, false, d);
    } else {
      std::int64_t s[4];
      for (int k = 0; k < 4; ++k) s[k] = rows[k][x];
      lo[c] = dwt_vertical(s, true, d);
      hi[c] = dwt_vertical(s, false, d);
    }
  }
  auto horizontal = [&](const Wide(&v)[4], bool low) {
    if constexpr (Narrow) return dwt_horizontal_scale0(v, low, d);
    else return dwt_horizontal(v, low, d);
  };
  const std::size_t o = static_cast<std::size_t>(i) * w + m;
  array(bands, f, p * 4 + 0)[o] = horizontal(lo, true);   // a
  array(bands, f, p * 4 + 1)[o] = horizontal(hi, true);   // h
  array(bands, f, p * 4 + 2)[o] = horizontal(lo, false);  // v
  array(bands, f, p * 4 + 3)[o] = horizontal(hi, false);  // d
}

// The band index a tile's ring or sample h (0 .. n + 1) stands for, the tile holding scored
// indices first .. first + n - 1: ring entries are the neighbours the reference reads there, so
// the mirror at the band's edges (before(), after()) is the reference's.
__device__ __forceinline__ int ring_index(int h, int first, int n, int size) {
  return h == 0 ? before(first) : (h == n + 1 ? after(first + n - 1, size) : first + h - 1);
}

constexpr int kMaskThreads = 32 * kTileRows;  // a warp per tile row
constexpr int kRingRows = kTileRows + 2, kRingCols = kTileCols + 2;

// A tile's masking inputs. Mask 0 is the impairment's (it masks the restored bands: DLM), mask 1
// the restored bands' (it masks the impairment: AIM). Shares cover the ring; CSF values and the
// masked bands the tile alone.
struct MaskTile {
  std::int32_t share[2][kAngles][kRingRows][kRingCols];
  std::int32_t csf[2][kAngles][kTileRows][kTileCols];
  std::int32_t masked[2][kAngles][kTileRows][kTileCols];  // restored (DLM's), impairment (AIM's)
};

__device__ __forceinline__ unsigned long long warp_total(unsigned long long v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

__global__ void __launch_bounds__(kMaskThreads) masked_sums_kernel(Arrays bands, ScaleParams p, unsigned long long* partials) {
  __shared__ MaskTile t;
  const ScaleGeometry& g = p.geometry;
  const int f = static_cast<int>(blockIdx.z);
  const int i0 = g.scored.top + static_cast<int>(blockIdx.y) * kTileRows;
  const int j0 = g.scored.left + static_cast<int>(blockIdx.x) * kTileCols;
  const int nr = min(kTileRows, g.scored.bottom - i0), nc = min(kTileCols, g.scored.right - j0);
  const bool scale0 = p.scale == 0;
  // 1. Decoupling and CSF of the tile and its ring, one sample a thread.
  for (int e = static_cast<int>(threadIdx.x); e < (nr + 2) * (nc + 2); e += kMaskThreads) {
    const int hr = e / (nc + 2), hc = e % (nc + 2);
    const std::size_t o = static_cast<std::size_t>(ring_index(hr, i0, nr, g.h)) * g.w + ring_index(hc, j0, nc, g.w);
    std::int32_t ref[kAngles], dist[kAngles];
    for (int k = 0; k < kAngles; ++k) {
      ref[k] = array(bands, f, 1 + k)[o];
      dist[k] = array(bands, f, 4 + 1 + k)[o];
    }
    const Decoupled dc = adm::decouple(ref, dist, scale0, p.gain_limit, p.cos_1deg_sq, p.lookup);
    const bool inside = hr >= 1 && hr <= nr && hc >= 1 && hc <= nc;
    for (int k = 0; k < kAngles; ++k) {
      const CsfValue from_impairment = csf_value(dc.a[k], k, scale0, p.weights);
      t.share[0][k][hr][hc] = from_impairment.flt;
      if (inside) {
        t.csf[0][k][hr - 1][hc - 1] = from_impairment.csf;
        t.masked[0][k][hr - 1][hc - 1] = dc.r[k];
        t.masked[1][k][hr - 1][hc - 1] = dc.a[k];
      }
      if (p.skip_aim) continue;
      const CsfValue from_restored = csf_value(dc.r[k], k, scale0, p.weights);
      t.share[1][k][hr][hc] = from_restored.flt;
      if (inside) t.csf[1][k][hr - 1][hc - 1] = from_restored.csf;
    }
  }
  __syncthreads();
  // 2. A warp per tile row: each lane's columns, then the row's total of each sum.
  const int lane = static_cast<int>(threadIdx.x) & 31, r = static_cast<int>(threadIdx.x) >> 5;
  if (r >= nr) return;  // a whole warp
  const int masks = p.skip_aim ? 1 : 2;
  unsigned long long acc[kSums] = {};
  for (int c = lane; c < nc; c += 32) {
    for (int which = 0; which < masks; ++which) {
      const std::int32_t threshold = masking_threshold([&](int k, int di, int dj) { return t.share[which][k][r + di][c + dj]; },
                                                       [&](int k) { return t.csf[which][k][r][c]; }, scale0);
      for (int k = 0; k < kAngles; ++k)
        acc[which * kAngles + k] +=
            static_cast<unsigned long long>(masked_cube(t.masked[which][k][r][c], threshold, k, scale0, p.weights, p.shifts));
    }
    const std::size_t o = static_cast<std::size_t>(i0 + r) * g.w + (j0 + c);
    for (int k = 0; k < kAngles; ++k) acc[2 * kAngles + k] += denominator_cube(array(bands, f, 1 + k)[o], scale0, p.shifts);
  }
  const int tiles = static_cast<int>(gridDim.x), rows = g.scored.bottom - g.scored.top;
  unsigned long long* out =
      partials + ((static_cast<std::size_t>(f) * rows + (i0 - g.scored.top + r)) * tiles + blockIdx.x) * kSums;
  for (int k = 0; k < kSums; ++k) {
    const unsigned long long v = warp_total(acc[k]);
    if (lane == 0) out[k] = v;
  }
}

constexpr int kRowThreads = 256;  // threads of a row_sums block (one frame)

__global__ void row_sums_kernel(const unsigned long long* partials, ScaleParams p, int tiles, unsigned long long* sums,
                                int frame_stride, unsigned long long* rows_out) {
  const int f = static_cast<int>(blockIdx.x);
  const int rows = p.geometry.scored.bottom - p.geometry.scored.top;
  unsigned long long acc[kSums] = {};
  for (int y = static_cast<int>(threadIdx.x); y < rows; y += kRowThreads) {
    const unsigned long long* in = partials + (static_cast<std::size_t>(f) * rows + y) * tiles * kSums;
    unsigned long long total[kSums] = {};
    for (int x = 0; x < tiles; ++x)
      for (int k = 0; k < kSums; ++k) total[k] += in[x * kSums + k];
    std::int64_t dlm[kAngles], aim[kAngles];
    std::uint64_t den[kAngles];
    for (int k = 0; k < kAngles; ++k) {
      dlm[k] = static_cast<std::int64_t>(total[k]);
      aim[k] = static_cast<std::int64_t>(total[kAngles + k]);
      den[k] = total[2 * kAngles + k];
    }
    const ScaleSums row = rounded_row(dlm, aim, den, p.shifts);
    for (int k = 0; k < kAngles; ++k) {
      acc[k] += static_cast<unsigned long long>(row.dlm[k]);
      acc[kAngles + k] += static_cast<unsigned long long>(row.aim[k]);
      acc[2 * kAngles + k] += row.den[k];
    }
    if (rows_out != nullptr && f == 0)
      for (int k = 0; k < kAngles; ++k) {
        rows_out[static_cast<std::size_t>(y) * kSums + k] = static_cast<unsigned long long>(row.dlm[k]);
        rows_out[static_cast<std::size_t>(y) * kSums + kAngles + k] = static_cast<unsigned long long>(row.aim[k]);
        rows_out[static_cast<std::size_t>(y) * kSums + 2 * kAngles + k] = row.den[k];
      }
  }
  __shared__ unsigned long long partial[kRowThreads / 32][kSums];
  const int lane = static_cast<int>(threadIdx.x) & 31, warp = static_cast<int>(threadIdx.x) >> 5;
  for (int k = 0; k < kSums; ++k) {
    const unsigned long long v = warp_total(acc[k]);
    if (lane == 0) partial[warp][k] = v;
  }
  __syncthreads();
  if (threadIdx.x >= kSums) return;
  const int k = static_cast<int>(threadIdx.x);
  unsigned long long total = 0;
  for (int w = 0; w < kRowThreads / 32; ++w) total += partial[w][k];
  sums[static_cast<std::size_t>(f) * frame_stride + k] = total;
}

__global__ void decoupled_bands_kernel(Arrays bands, Arrays decoupled, ScaleParams p) {
  const Rect& wr = p.geometry.written;
  const int j = wr.left + static_cast<int>(blockIdx.x) * kThreads + static_cast<int>(threadIdx.x);
  const int i = wr.top + static_cast<int>(blockIdx.y);
  const int f = static_cast<int>(blockIdx.z);
  if (j >= wr.right) return;
  const std::size_t o = static_cast<std::size_t>(i) * p.geometry.w + j;
  std::int32_t ref[kAngles], dist[kAngles];
  for (int k = 0; k < kAngles; ++k) {
    ref[k] = array(bands, f, 1 + k)[o];
    dist[k] = array(bands, f, 4 + 1 + k)[o];
  }
  const Decoupled dc = adm::decouple(ref, dist, p.scale == 0, p.gain_limit, p.cos_1deg_sq, p.lookup);
  for (int k = 0; k < kAngles; ++k) {
    array(decoupled, f, kRestored + k)[o] = dc.r[k];
    array(decoupled, f, kImpairment + k)[o] = dc.a[k];
  }
}

}  // namespace

cudaError_t dwt(const Input& in, int in_w, int in_h, int scale, int bpc, const Arrays& bands, cudaStream_t stream) {
  const int w = (in_w + 1) / 2, h = (in_h + 1) / 2;
  const dim3 grid((w + kThreads - 1) / kThreads, h, 2 * in.frames);
  const DwtShifts d = dwt_shifts(scale, bpc);
  // Scale 0 reads the 8- or 16-bit samples, the later scales the previous 32-bit low-pass bands.
  if (scale > 0) dwt_kernel<std::int32_t, false><<<grid, kThreads, 0, stream>>>(in, in_w, in_h, d, bands, w);
  else if (in.sample_bytes == 1) dwt_kernel<std::uint8_t, true><<<grid, kThreads, 0, stream>>>(in, in_w, in_h, d, bands, w);
  else dwt_kernel<std::uint16_t, true><<<grid, kThreads, 0, stream>>>(in, in_w, in_h, d, bands, w);
  return cudaGetLastError();
}

cudaError_t masked_sums(const Arrays& bands, const ScaleParams& p, unsigned long long* partials, cudaStream_t stream) {
  const Rect& sc = p.geometry.scored;
  const dim3 grid(tile_columns(p.geometry), (sc.bottom - sc.top + kTileRows - 1) / kTileRows, bands.frames);
  masked_sums_kernel<<<grid, kMaskThreads, 0, stream>>>(bands, p, partials);
  return cudaGetLastError();
}

cudaError_t row_sums(const unsigned long long* partials, const ScaleParams& p, int frames, unsigned long long* sums,
                     int frame_stride, unsigned long long* rows, cudaStream_t stream) {
  row_sums_kernel<<<frames, kRowThreads, 0, stream>>>(partials, p, tile_columns(p.geometry), sums, frame_stride, rows);
  return cudaGetLastError();
}

cudaError_t decoupled_bands(const Arrays& bands, const Arrays& decoupled, const ScaleParams& p, cudaStream_t stream) {
  const Rect& wr = p.geometry.written;
  const dim3 grid((wr.right - wr.left + kThreads - 1) / kThreads, wr.bottom - wr.top, decoupled.frames);
  decoupled_bands_kernel<<<grid, kThreads, 0, stream>>>(bands, decoupled, p);
  return cudaGetLastError();
}

}  // namespace twinproof::adm::kernels
