// vif's arithmetic, once for every backend (extractors/vif/CONTRACT.md): the filters, the
// geometry of the four scales, one pixel's statistics and the scores of a frame from its sums.
// Everything up to a scale's four sums is integer (or a few per-pixel IEEE double operations that
// every backend repeats in the same order), so the sums are exact in any order of addition; the
// floating point after them is a few operations per frame, written here once.
#pragma once

#include <array>
#include <cstdint>

#include "extractors/extractor.hpp"
#include "extractors/host_device.hpp"

namespace twinproof::vif {

inline constexpr int kScales = 4;
// The Gaussian filters of the four scales, 16-bit fixed point (each sums to 65536), and their widths.
inline constexpr int kFilterWidth[kScales] = {17, 9, 5, 3};
inline constexpr std::uint16_t kFilter[kScales][17] = {
    {489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, 7455, 6547, 5274, 3896, 2640, 1640, 935, 489},
    {1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244},
    {3571, 16004, 26386, 16004, 3571},
    {10904, 43728, 10904},
};
// The smallest luma width and height the contract takes: every scale's picture must be larger than
// the half-width of each filter that reads it, so that one mirror reaches every sample (scale 3's
// picture is w >> 3 wide and its 3-tap filter needs 2 columns).
inline constexpr int kMinSize = 16;
// The noise variance of the model, 2 in 16-bit fixed point.
inline constexpr std::int32_t kSigmaNsq = 65536 << 1;
// The eps of g's denominator.
inline constexpr double kGainEps = 65536 * 1.0e-10;

// The size of scale `scale`'s picture: the luma plane halved (rounding down) once per scale.
inline PlaneSize scale_size(const Format& f, int scale) { return {f.width >> scale, f.height >> scale}; }

// Index i of a row (or column) of n, mirrored about the first and the last without repeating them.
TP_HD int mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * (n - 1) - i : i); }

// The vertical pass's rounding shifts at a scale: scale 0 reads samples of `bpc` bits, every later
// scale 16-bit values.
struct VerticalShift {
  std::uint32_t mu_round;
  int mu_shift;
  std::uint64_t sq_round;
  int sq_shift;
};
TP_HD VerticalShift vertical_shift(int scale, int bpc) {
  if (scale > 0) return {32768u, 16, 32768u, 16};
  const int sq = 2 * (bpc - 8);
  return {1u << (bpc - 1), bpc, sq == 0 ? 0u : std::uint64_t{1} << (sq - 1), sq};
}
// The shift of the vertical pass that makes scale `next`'s picture from scale next - 1's.
TP_HD VerticalShift subsample_shift(int next, int bpc) { return vertical_shift(next - 1, bpc); }

// log2 in fixed point (11 fractional bits) through a table of round(log2f(i) * 2048) for
// i in [32768, 65535]: the top 16 bits of x, and 2048 for each bit shifted out.
const std::uint16_t* log2_table();                          // 65536 entries (and 2 zeros after), built once
inline constexpr std::uint64_t kLog2TableSum = 1044062817;  // of entries [32767, 65535]: a check on the C library's log2f

// Called from cpu-simd kernels too: templates on `Isa` (host_device.hpp says why).
// x >= 2^16 (the contract's callers pass 2^18 and more).
template <class Isa = void>
TP_HD std::int32_t log2_32(const std::uint16_t* table, std::uint32_t x) {
  const int k = 16 - leading_zeros32<Isa>(x);
  return table[x >> k] + 2048 * k;
}
// x >= 2^17.
template <class Isa = void>
TP_HD std::int32_t log2_64(const std::uint16_t* table, std::uint64_t x) {
  const int k = 48 - leading_zeros64<Isa>(x);
  return table[x >> k] + 2048 * k;
}

// A scale's four sums over its pixels: the log-domain numerator and denominator (fixed point,
// 2048 a unit), and for pixels whose reference variance is below the noise, the distorted
// variances and their count.
struct ScaleSums {
  std::int64_t num_log = 0, den_log = 0, num_non_log = 0, den_non_log = 0;
  TP_HD ScaleSums& operator+=(const ScaleSums& o) {
    num_log += o.num_log;
    den_log += o.den_log;
    num_non_log += o.num_non_log;
    den_non_log += o.den_non_log;
    return *this;
  }
  bool operator==(const ScaleSums&) const = default;
};

// One pixel's contribution from its variances and covariance: sigma1_sq, sigma2_sq and sigma12
// as the filtered statistics give them (sigma2_sq not yet clamped at 0).
template <class Isa = void>
TP_HD void add_sigmas(ScaleSums& s, std::int32_t sigma1_sq, std::int32_t sigma2_sq, std::int32_t sigma12,
                      const std::uint16_t* log2t, double gain_limit) {
  sigma2_sq = sigma2_sq > 0 ? sigma2_sq : 0;
  if (sigma1_sq >= kSigmaNsq) {
    s.den_log += log2_32<Isa>(log2t, static_cast<std::uint32_t>(kSigmaNsq + sigma1_sq)) - 2048 * 17;
    if (sigma12 > 0 && sigma2_sq > 0) {
      // Per-pixel IEEE double, in this order, without contraction: g, sv^2 truncated to 32 bits,
      // g capped, g * g * sigma1^2 truncated to 64 bits.
      double g = sigma12 / (sigma1_sq + kGainEps);
      std::int32_t sv_sq = static_cast<std::int32_t>(sigma2_sq - g * sigma12);
      sv_sq = sv_sq > 0 ? sv_sq : 0;
      g = g < gain_limit ? g : gain_limit;
      const std::uint32_t numer1 = static_cast<std::uint32_t>(sv_sq) + static_cast<std::uint32_t>(kSigmaNsq);
      const std::int64_t numer1_tmp = static_cast<std::int64_t>(g * g * sigma1_sq) + numer1;
      s.num_log += log2_64<Isa>(log2t, static_cast<std::uint64_t>(numer1_tmp)) - log2_64<Isa>(log2t, numer1);
    }
  } else {
    s.num_non_log += sigma2_sq;
    s.den_non_log += 1;
  }
}

// One pixel's contribution from its filtered values: mu1, mu2 the horizontal pass's sums of the
// means (32 bits), xx, yy, xy those of the squares and the product (64 bits).
TP_HD void add_pixel(ScaleSums& s, std::uint32_t mu1, std::uint32_t mu2, std::uint64_t xx, std::uint64_t yy, std::uint64_t xy,
                     const std::uint16_t* log2t, double gain_limit) {
  const auto mu1_sq = static_cast<std::uint32_t>((std::uint64_t{mu1} * mu1 + 2147483648u) >> 32);
  const auto mu2_sq = static_cast<std::uint32_t>((std::uint64_t{mu2} * mu2 + 2147483648u) >> 32);
  const auto mu1_mu2 = static_cast<std::uint32_t>((std::uint64_t{mu1} * mu2 + 2147483648u) >> 32);
  const auto xx_filt = static_cast<std::uint32_t>((xx + 32768) >> 16);
  const auto yy_filt = static_cast<std::uint32_t>((yy + 32768) >> 16);
  const auto xy_filt = static_cast<std::uint32_t>((xy + 32768) >> 16);
  // Differences of unsigned 32-bit values read as signed: a variance rounded below zero is negative.
  add_sigmas(s, static_cast<std::int32_t>(xx_filt - mu1_sq), static_cast<std::int32_t>(yy_filt - mu2_sq),
             static_cast<std::int32_t>(xy_filt - mu1_mu2), log2t, gain_limit);
}

// ---- A frame's scores from its sums (host only: once per frame) --------------------------------
struct FrameSums {
  std::array<ScaleSums, kScales> scale{};
  bool operator==(const FrameSums&) const = default;
};

// A scale's numerator and denominator: computed in double, stored as float (libvmaf's VifScore).
struct NumDen {
  float num = 0, den = 0;
};
inline NumDen scale_num_den(const ScaleSums& s) {
  const double num = static_cast<double>(s.num_log) / 2048.0 +
                     (static_cast<double>(s.den_non_log) - (static_cast<double>(s.num_non_log) / 16384.0) / 65025.0);
  const double den = static_cast<double>(s.den_log) / 2048.0 + static_cast<double>(s.den_non_log);
  return {static_cast<float>(num), static_cast<float>(den)};
}

}  // namespace twinproof::vif
