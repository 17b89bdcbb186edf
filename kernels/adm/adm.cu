// adm's CUDA kernels (extractors/adm/CONTRACT.md): the contract's own per-sample arithmetic
// (extractors/adm/arithmetic.hpp) over every frame of a launch. Integer arithmetic throughout,
// but for the angle test's float and double operations (rounded, never fused: -fmad=false) and
// the truncation of the enhanced coefficient; each row's sums are reduced in 64-bit integers
// (any order gives the same bits), shifted as the contract shifts them, and added atomically.
#include "kernels/adm/kernels.hpp"

namespace twinproof::adm::kernels {
namespace {

constexpr int kThreads = 128;     // threads of a dwt or decouple block (one sample each)
constexpr int kRowThreads = 256;  // threads of a sums block (one scored row)
constexpr int kSums = 9;          // a row's sums: DLM h, v, d, AIM h, v, d, denominator h, v, d

__device__ __forceinline__ std::int32_t* array(const Arrays& a, int f, int k) {
  return a.base + a.frame_stride * static_cast<std::size_t>(f) + a.elems * static_cast<std::size_t>(k);
}

// One output sample (i, m) of both passes: the four input columns' vertical passes, then the
// horizontal pass of each.
template <class Sample>
__global__ void dwt_kernel(Input in, int in_w, int in_h, DwtShifts d, Arrays bands, int w) {
  const int m = static_cast<int>(blockIdx.x) * kThreads + static_cast<int>(threadIdx.x);
  const int i = static_cast<int>(blockIdx.y);
  const int f = static_cast<int>(blockIdx.z) >> 1, p = static_cast<int>(blockIdx.z) & 1;
  if (m >= w) return;
  const Sample* base = static_cast<const Sample*>(p == 0 ? in.ref[f] : in.dist[f]);
  const Sample* rows[4];
  for (int k = 0; k < 4; ++k) rows[k] = base + static_cast<std::size_t>(dwt_tap(i, k, in_h)) * in.pitch;
  std::int64_t lo[4], hi[4];
  for (int c = 0; c < 4; ++c) {
    const int x = dwt_tap(m, c, in_w);
    std::int64_t s[4];
    for (int k = 0; k < 4; ++k) s[k] = rows[k][x];
    lo[c] = dwt_vertical(s, true, d);
    hi[c] = dwt_vertical(s, false, d);
  }
  const std::size_t o = static_cast<std::size_t>(i) * w + m;
  array(bands, f, p * 4 + 0)[o] = dwt_horizontal(lo, true, d);   // a
  array(bands, f, p * 4 + 1)[o] = dwt_horizontal(hi, true, d);   // h
  array(bands, f, p * 4 + 2)[o] = dwt_horizontal(lo, false, d);  // v
  array(bands, f, p * 4 + 3)[o] = dwt_horizontal(hi, false, d);  // d
}

__global__ void decouple_kernel(Arrays bands, Arrays work, ScaleParams p) {
  const Rect& wr = p.geometry.written;
  const int j = wr.left + static_cast<int>(blockIdx.x) * kThreads + static_cast<int>(threadIdx.x);
  const int i = wr.top + static_cast<int>(blockIdx.y);
  const int f = static_cast<int>(blockIdx.z);
  if (j >= wr.right) return;
  const bool scale0 = p.scale == 0;
  const std::size_t o = static_cast<std::size_t>(i) * p.geometry.w + j;
  std::int32_t ref[kAngles], dist[kAngles];
  for (int k = 0; k < kAngles; ++k) {
    ref[k] = array(bands, f, 1 + k)[o];
    dist[k] = array(bands, f, 4 + 1 + k)[o];
  }
  const Decoupled dc = adm::decouple(ref, dist, scale0, p.gain_limit, p.cos_1deg_sq, p.lookup);
  for (int k = 0; k < kAngles; ++k) {
    array(work, f, kRestored + k)[o] = dc.r[k];
    array(work, f, kImpairment + k)[o] = dc.a[k];
    const CsfValue from_impairment = csf_value(dc.a[k], k, scale0, p.weights);
    array(work, f, kCsf + k)[o] = from_impairment.csf;
    array(work, f, kShare + k)[o] = from_impairment.flt;
    if (p.skip_aim) continue;
    const CsfValue from_restored = csf_value(dc.r[k], k, scale0, p.weights);
    array(work, f, kCsf + kAngles + k)[o] = from_restored.csf;
    array(work, f, kShare + kAngles + k)[o] = from_restored.flt;
  }
}

__device__ __forceinline__ unsigned long long warp_total(unsigned long long v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// One scored row of one frame: each thread's columns, then the block's total of each sum.
__global__ void sums_kernel(Arrays bands, Arrays work, ScaleParams p, unsigned long long* sums, int frame_stride,
                            unsigned long long* rows) {
  const ScaleGeometry& g = p.geometry;
  const SumShifts& sh = p.shifts;
  const int i = g.scored.top + static_cast<int>(blockIdx.x);
  const int f = static_cast<int>(blockIdx.y);
  const bool scale0 = p.scale == 0;
  const int masks = p.skip_aim ? 1 : 2;
  const std::size_t row3[3] = {static_cast<std::size_t>(before(i)) * g.w, static_cast<std::size_t>(i) * g.w,
                               static_cast<std::size_t>(after(i, g.h)) * g.w};
  unsigned long long acc[kSums] = {};
  for (int j = g.scored.left + static_cast<int>(threadIdx.x); j < g.scored.right; j += kRowThreads) {
    const int col3[3] = {before(j), j, after(j, g.w)};
    const std::size_t o = row3[1] + static_cast<std::size_t>(j);
    for (int which = 0; which < masks; ++which) {
      std::int64_t threshold = 0;
      for (int k = 0; k < kAngles; ++k) {
        const std::int32_t* share = array(work, f, kShare + which * kAngles + k);
        for (int di = 0; di < 3; ++di)
          for (int dj = 0; dj < 3; ++dj)
            if (di != 1 || dj != 1) threshold += share[row3[di] + static_cast<std::size_t>(col3[dj])];
        threshold += centre_share(array(work, f, kCsf + which * kAngles + k)[o], scale0);
      }
      // DLM masks the restored bands by the impairment; AIM the impairment by the restored bands.
      const int x = which == 0 ? kRestored : kImpairment;
      for (int k = 0; k < kAngles; ++k)
        acc[which * kAngles + k] +=
            static_cast<unsigned long long>(masked_cube(array(work, f, x + k)[o], wrap32(threshold), k, scale0, p.weights, sh));
    }
    for (int k = 0; k < kAngles; ++k) acc[6 + k] += denominator_cube(array(bands, f, 1 + k)[o], scale0, sh);
  }
  __shared__ unsigned long long partial[kRowThreads / 32][kSums];
  const int lane = static_cast<int>(threadIdx.x) & 31, warp = static_cast<int>(threadIdx.x) >> 5;
  for (int k = 0; k < kSums; ++k) {
    const unsigned long long t = warp_total(acc[k]);
    if (lane == 0) partial[warp][k] = t;
  }
  __syncthreads();
  if (threadIdx.x >= kSums) return;
  const int k = static_cast<int>(threadIdx.x);
  unsigned long long total = 0;
  for (int w = 0; w < kRowThreads / 32; ++w) total += partial[w][k];
  unsigned long long shifted;
  if (k < 6) {
    shifted = static_cast<unsigned long long>((static_cast<std::int64_t>(total) + sh.row_round) >> sh.row_shift);
  } else {
    shifted = (total + static_cast<unsigned long long>(sh.den_row_round)) >> sh.den_row_shift;
  }
  atomicAdd(sums + static_cast<std::size_t>(f) * frame_stride + k, shifted);
  if (rows != nullptr) rows[static_cast<std::size_t>(blockIdx.x) * kSums + k] = shifted;
}

}  // namespace

cudaError_t dwt(const Input& in, int in_w, int in_h, int scale, int bpc, const Arrays& bands, cudaStream_t stream) {
  const int w = (in_w + 1) / 2, h = (in_h + 1) / 2;
  const dim3 grid((w + kThreads - 1) / kThreads, h, 2 * in.frames);
  const DwtShifts d = dwt_shifts(scale, bpc);
  switch (in.sample_bytes) {
    case 1: dwt_kernel<std::uint8_t><<<grid, kThreads, 0, stream>>>(in, in_w, in_h, d, bands, w); break;
    case 2: dwt_kernel<std::uint16_t><<<grid, kThreads, 0, stream>>>(in, in_w, in_h, d, bands, w); break;
    default: dwt_kernel<std::int32_t><<<grid, kThreads, 0, stream>>>(in, in_w, in_h, d, bands, w); break;
  }
  return cudaGetLastError();
}

cudaError_t decouple(const Arrays& bands, const Arrays& work, const ScaleParams& p, cudaStream_t stream) {
  const Rect& wr = p.geometry.written;
  const dim3 grid((wr.right - wr.left + kThreads - 1) / kThreads, wr.bottom - wr.top, work.frames);
  decouple_kernel<<<grid, kThreads, 0, stream>>>(bands, work, p);
  return cudaGetLastError();
}

cudaError_t sums(const Arrays& bands, const Arrays& work, const ScaleParams& p, unsigned long long* sums, int frame_stride,
                 unsigned long long* rows, cudaStream_t stream) {
  const Rect& sc = p.geometry.scored;
  const dim3 grid(sc.bottom - sc.top, work.frames);
  sums_kernel<<<grid, kRowThreads, 0, stream>>>(bands, work, p, sums, frame_stride, rows);
  return cudaGetLastError();
}

}  // namespace twinproof::adm::kernels
