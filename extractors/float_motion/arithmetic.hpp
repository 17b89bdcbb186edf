// float_motion's arithmetic, written once for every backend (host C++ and CUDA device code).
// Each function is extractors/float_motion/CONTRACT.md taken literally: every fp32 operation is one IEEE
// binary32 operation in the order written. Callers build with -ffp-contract=off (host) and
// -fmad=false (device); nothing here may be reordered for speed.
#pragma once

#include <cmath>
#include <span>

#include "extractors/host_device.hpp"

namespace twinproof::float_motion {

// ---- Blur taps ---------------------------------------------------------------------------------
struct Taps {
  float f[5];
  int count;   // 3 or 5
  int radius;  // 1 or 2
};

// Filter size 3 -> the 3-tap filter; 1 -> the 5-tap identity; every other size -> the 5-tap filter.
TP_HD Taps taps_for(int filter_size) {
  if (filter_size == 3) return {{0.166378498f, 0.667243004f, 0.166378498f, 0.0f, 0.0f}, 3, 1};
  if (filter_size == 1) return {{0.0f, 0.0f, 1.0f, 0.0f, 0.0f}, 5, 2};
  return {{0.054488685f, 0.244201342f, 0.402619947f, 0.244201342f, 0.054488685f}, 5, 2};
}

// Smallest legal plane extent (both axes) for a filter: radius + 1, so that a mirrored index
// always lands inside the plane.
TP_HD int min_plane_extent(int filter_size) { return taps_for(filter_size).radius + 1; }

// Reflect-101 of index k into [0, n).
TP_HD int mirror(int k, int n) { return k < 0 ? -k : (k >= n ? 2 * (n - 1) - k : k); }

// One output sample of a blur pass: sum over k in tap order, starting from 0.0f, of f[k] * v(k).
template <int N, class Sample>
TP_HD float tap_sum(const float* f, Sample v) {
  float s = 0.0f;
#if defined(__CUDACC__)
#pragma unroll
#endif
  for (int k = 0; k < N; ++k) s += f[k] * v(k);
  return s;
}

// The same sum started from its first product instead of from 0.0f + f[0] * v(0). The two are
// the same number whenever that product is never -0: then 0.0f + p is p, exactly. It holds for
// the 3- and 5-tap filters (f[0] > 0) over converted samples and over vertical-pass values:
// neither is ever -0 (a conversion is exact and gives +0 for the middle sample; a sum started
// from +0 never rounds to -0), and no product underflows (every nonzero input is at least
// 2^-8 in size, or a sum of products of such numbers). The identity filter's f[0] is 0, where
// 0 * (negative) is -0 and 0.0f + -0 is +0: callers use tap_sum for it.
template <int N, class Sample>
TP_HD float tap_sum_from_first(const float* f, Sample v) {
  float s = f[0] * v(0);
#if defined(__CUDACC__)
#pragma unroll
#endif
  for (int k = 1; k < N; ++k) s += f[k] * v(k);
  return s;
}
TP_HD bool first_tap_positive(const Taps& t) { return t.f[0] > 0.0f; }

// ---- Sample conversion -------------------------------------------------------------------------
// (float)sample / scale + (-128.0f); every value is exact in fp32. 8-bit skips the division
// (dividing by 1.0f is exact, so the two forms are the same number).
TP_HD float sample_scale(int bitdepth) { return bitdepth == 10 ? 4.0f : bitdepth == 12 ? 16.0f : bitdepth == 16 ? 256.0f : 1.0f; }
TP_HD float to_float(unsigned sample, int bitdepth) {
  if (bitdepth == 8) return static_cast<float>(sample) - 128.0f;
  return static_cast<float>(sample) / sample_scale(bitdepth) + (-128.0f);
}

// to_float of a sample given as the fp32 number 2^23 + sample (bits 0x4B000000 | sample, which a
// kernel forms with one byte permute): (2^23 + sample - (2^23 + 128 * scale)) / scale. Every
// step is exact (integers below 2^24, then a power of two), and so is each step of to_float, so
// both give the one fp32 number sample / scale - 128, +0 included.
inline constexpr unsigned kBiasedSampleBits = 0x4B000000u;
TP_HD float biased_to_float(float biased, int bitdepth) {
  const float scale = sample_scale(bitdepth);
  const float d = biased - (8388608.0f + 128.0f * scale);
  return bitdepth == 8 ? d : d * (1.0f / scale);
}

// ---- SAD -----------------------------------------------------------------------------------------
// One row: |A - B| added left to right in one fp32 accumulator.
TP_HD float row_sad(const float* a, const float* b, int w) {
  float s = 0.0f;
  for (int j = 0; j < w; ++j) s += fabsf(a[j] - b[j]);
  return s;
}

// THE helper that turns a plane's row sums into its score: rows added top to bottom in fp32,
// then divided by (float)(w * h) in fp32. Every backend that produces row sums calls this.
inline float score_from_row_sums(std::span<const float> row_sums, int w) {
  float total = 0.0f;
  for (float r : row_sums) total += r;
  return total / static_cast<float>(w * static_cast<int>(row_sums.size()));
}
// The same sum, for stage inspection (plane_totals).
inline float total_of_row_sums(std::span<const float> row_sums) {
  float total = 0.0f;
  for (float r : row_sums) total += r;
  return total;
}

// ---- motion_add_scale1: bilinear half-size downscale ------------------------------------------
TP_HD int scaled_extent(int n) { return static_cast<int>(n * 0.5 + 0.5); }

TP_HD float mirrorf(float i, int n) { return i < 0 ? -i : (i > n - 1 ? 2 * (n - 1) - i : i); }

struct BilinearIndex {
  int i1, i2;  // the two source indices
  float d;     // weight of i2
};

// Source indices and weight for output index x of an axis scaled from n to sn samples:
// r = (float)n / sn in fp32; xx = (float)((x + 0.5) * r - 0.5) evaluated in double, rounded once.
TP_HD BilinearIndex bilinear_index(int x, int n, int sn) {
  const float r = static_cast<float>(n) / static_cast<float>(sn);
  const float xx = static_cast<float>((static_cast<double>(x) + 0.5) * static_cast<double>(r) - 0.5);
  const int i1 = static_cast<int>(mirrorf(floorf(xx), n));
  const int i2 = static_cast<int>(mirrorf(ceilf(xx), n));
  return {i1, i2, xx - static_cast<float>(i1)};
}

// The four-term interpolation: products left to right, terms added left to right.
TP_HD float bilinear(float p11, float p12, float p21, float p22, float dx, float dy) {
  return (1.0f - dy) * (1.0f - dx) * p11 + (1.0f - dy) * dx * p12 + dy * (1.0f - dx) * p21 + dy * dx * p22;
}

// A plane's score: sad0, plus sad1 (fp32 add) when motion_add_scale1 is on.
TP_HD float plane_score(float sad0, float sad1, bool add_scale1) { return add_scale1 ? sad0 + sad1 : sad0; }

// ---- Frame outputs (double) ---------------------------------------------------------------------
struct OutputParams {
  double fps_weight, blend_factor, blend_offset, max_val;
};
inline double min_d(double a, double b) { return a < b ? a : b; }
inline double blend(double m, const OutputParams& p) {
  return m * p.blend_factor + (1 - p.blend_factor) * min_d(p.blend_offset, m);
}
inline double clip(double m, const OutputParams& p) { return min_d(m * p.fps_weight, p.max_val); }
// Blends the weighted score: blend(m * fw), not blend(m) * fw.
inline double clip3(double m, const OutputParams& p) { return min_d(blend(m * p.fps_weight, p), p.max_val); }

}  // namespace twinproof::float_motion
