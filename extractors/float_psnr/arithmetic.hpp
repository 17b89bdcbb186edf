// float_psnr's arithmetic (extractors/float_psnr/CONTRACT.md), written once for every backend:
// samples to fp32 as libvmaf's picture copy makes them, each sample's squared difference in fp32,
// added to a double in raster order, and the frame's score from that sum.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "extractors/extractor.hpp"
#include "extractors/float_picture.hpp"
#include "extractors/host_device.hpp"

namespace twinproof::float_psnr {

// A sample as fp32, as libvmaf's picture copy makes it with offset 0 (extractors/float_picture.hpp).
TP_HD float to_float(unsigned sample, int bitdepth) { return float_picture_sample(sample, bitdepth, 0); }

// One sample's term of the frame's noise sum: the fp32 difference squared in fp32.
TP_HD float squared_difference(float ref, float dist) {
  const float diff = ref - dist;
  return diff * diff;
}

// The frame's score from its noise sum: the sum over the luma's samples, divided by their count,
// floored at 1e-10, then 10 log10(peak^2 / noise) capped at the depth's ceiling.
inline double frame_psnr(double noise_sum, int width, int height, const FloatPsnrLimits& p) {
  const double noise = noise_sum / static_cast<double>(width * height);
  const double score = 10 * std::log10(p.peak * p.peak / std::max(noise, 1e-10));
  return std::min(score, p.ceiling);
}

// The log2 of the unit every term is a whole multiple of: a difference of two samples is a
// multiple of 1 / scaler, so its square one of 1 / scaler^2 (for 16 bits after the fp32 rounding
// of the square too, as every square at or above 2^-16 keeps a multiple of 2^-16). An exact twin
// adds terms as integers of this unit: while the total stays below 2^53 units every partial sum
// of the reference's double is exact, so the two sums are the same number.
TP_HD int term_unit_log2(int bitdepth) { return bitdepth == 8 ? 0 : -2 * (bitdepth - 8); }

}  // namespace twinproof::float_psnr
