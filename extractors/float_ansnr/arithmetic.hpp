// float_ansnr's arithmetic (extractors/float_ansnr/CONTRACT.md), written once for every backend:
// samples to fp32 less 128, a 3x3 filter of the reference and a 5x5 filter of the distorted
// picture (mirrored at the edges), each row's signal and noise energy added in fp32, the rows'
// sums added in fp32 top to bottom, and the frame's two scores.
#pragma once

#include <algorithm>
#include <cmath>

#include "extractors/float_picture.hpp"
#include "extractors/host_device.hpp"

namespace twinproof::float_ansnr {

// A sample as fp32 less 128, as libvmaf's picture copy makes it with offset -128
// (extractors/float_picture.hpp; every step exact).
TP_HD float to_float(unsigned sample, int bitdepth) { return float_picture_sample(sample, bitdepth, -128); }

// The filters' taps as libvmaf's tables hold them: each fraction computed in double, then rounded
// to fp32 once.
inline constexpr int kRefTaps = 3, kDisTaps = 5;
struct Filters {
  float ref[kRefTaps * kRefTaps];
  float dis[kDisTaps * kDisTaps];
};
TP_HD Filters filters() {
  const double r[kRefTaps * kRefTaps] = {1, 2, 1, 2, 4, 2, 1, 2, 1};
  const double d[kDisTaps * kDisTaps] = {2, 7, 12, 7, 2, 7, 31, 52, 31, 7, 12, 52, 127, 52, 12, 7, 31, 52, 31, 7, 2, 7, 12, 7, 2};
  Filters f{};
  for (int k = 0; k < kRefTaps * kRefTaps; ++k) f.ref[k] = static_cast<float>(r[k] / 16.0);
  for (int k = 0; k < kDisTaps * kDisTaps; ++k) f.dis[k] = static_cast<float>(d[k] / 571.0);
  return f;
}

// libvmaf's mirror: before the first row or column it reflects about it (-1 -> 1), past the last
// it repeats it (n -> n - 1). Valid for a tap reaching at most 2 past an edge of n >= 3.
TP_HD int mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 1 : i); }

// One filtered sample at (i, j): for each filter row, its taps times the samples added in fp32
// left to right, then the rows' sums added in fp32 top to bottom. `at(ii, jj)` reads a sample as
// fp32 (to_float), inside the picture.
template <int Taps, class At>
TP_HD float filtered(const float* taps, int i, int j, int w, int h, const At& at) {
  float accum = 0;
  for (int fi = 0; fi < Taps; ++fi) {
    float inner = 0;
    const int ii = mirror(i - Taps / 2 + fi, h);
    for (int fj = 0; fj < Taps; ++fj) inner += taps[fi * Taps + fj] * at(ii, mirror(j - Taps / 2 + fj, w));
    accum += inner;
  }
  return accum;
}

// A row's signal and noise energy: over its filtered samples left to right, in fp32, sig += r * r
// and noise += (r - d) * (r - d).
struct Energy {
  float sig = 0, noise = 0;
};
TP_HD void add_sample(Energy& e, float r, float d) {
  e.sig += r * r;
  e.noise += (r - d) * (r - d);
}

// float_ansnr: 10 log10(sig / noise), the quotient in fp32 (libvmaf divides two floats); the
// ceiling when there is no noise.
inline double ansnr(const Energy& e, const FloatPsnrLimits& p) {
  return e.noise == 0 ? p.ceiling : 10.0 * std::log10(static_cast<double>(e.sig / e.noise));
}
// float_anpsnr: 10 log10(peak^2 w h / max(noise, 1e-10)) in double, capped at the ceiling.
inline double anpsnr(const Energy& e, int w, int h, const FloatPsnrLimits& p) {
  const double noise = std::max(static_cast<double>(e.noise), 1e-10);
  return std::min(10 * std::log10(p.peak * p.peak * w * h / noise), p.ceiling);
}

}  // namespace twinproof::float_ansnr
