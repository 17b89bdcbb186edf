// Integer motion's arithmetic (extractors/motion/CONTRACT.md), written once for every backend,
// host C++ and CUDA device code alike. Up to the frame total everything is exact integer
// arithmetic; the per-frame score and the motion2 / motion3 pass are fp64, one operation at a
// time in the order written (-ffp-contract=off on the host, -fmad=false on the device).
#pragma once

#include <cstdint>

#include "extractors/host_device.hpp"

namespace twinproof::motion {

// The 5-tap filter (sum 65536), radius 2.
TP_HD int tap(int k) {
  constexpr int g[5] = {3571, 16004, 26386, 16004, 3571};
  return g[k];
}
inline constexpr int kRadius = 2;
// Smallest legal picture: a mirrored index stays inside the plane only from 3 samples on.
inline constexpr int kMinExtent = 3;

// Reflect-101 of index k into [0, n); only k in [-2, n+1] occurs.
TP_HD int mirror(int k, int n) { return k < 0 ? -k : (k >= n ? 2 * (n - 1) - k : k); }

// The vertical pass's rounding: V = floor((a + add) / 2^shift), an arithmetic shift.
struct VerticalRounding {
  std::int64_t add;
  int shift;
};
TP_HD VerticalRounding vertical_rounding(int bitdepth) {
  if (bitdepth == 8) return {128, 8};
  return {std::int64_t(1) << (bitdepth - 1), bitdepth};
}

// One vertical output from its five differences d[k] = P - C (earlier minus later), rows
// mirror(i - 2 + k). |a| <= 65536 * (2^bpc - 1) needs 64 bits at 16-bit.
TP_HD std::int32_t vertical_output(const std::int32_t d[5], VerticalRounding r) {
  std::int64_t a = 0;
  for (int k = 0; k < 5; ++k) a += std::int64_t(tap(k)) * d[k];
  return static_cast<std::int32_t>((a + r.add) >> r.shift);
}

// One horizontal output from five vertical outputs v[k], columns mirror(j - 2 + k).
TP_HD std::int32_t horizontal_output(const std::int32_t v[5]) {
  std::int64_t b = 0;
  for (int k = 0; k < 5; ++k) b += std::int64_t(tap(k)) * v[k];
  return static_cast<std::int32_t>((b + 32768) >> 16);
}

// ---- The per-frame score and the outputs (fp64) ------------------------------------------------
struct ScoreParams {
  double fps_weight, max_val, blend_factor, blend_offset;
};

// x = T; x /= 256; x /= w*h; x *= fw; min(x, mx) -- in that order.
inline double frame_score(std::uint64_t total, int w, int h, const ScoreParams& p) {
  double x = static_cast<double>(total);
  x = x / 256.0;
  x = x / static_cast<double>(static_cast<std::int64_t>(w) * h);
  x = x * p.fps_weight;
  return x < p.max_val ? x : p.max_val;
}

// blend(x) = x*bf + (1 - bf) * min(bo, x), as p = x*bf; u = 1 - bf; m = (bo < x) ? bo : x;
// r = u*m; p + r.
inline double blend(double x, const ScoreParams& p) {
  const double prod = x * p.blend_factor;
  const double u = 1.0 - p.blend_factor;
  const double m = p.blend_offset < x ? p.blend_offset : x;
  const double r = u * m;
  return prod + r;
}

// clip3(x) = min(blend(x), mx).
inline double clip3(double x, const ScoreParams& p) {
  const double b = blend(x, p);
  return b < p.max_val ? b : p.max_val;
}

}  // namespace twinproof::motion
