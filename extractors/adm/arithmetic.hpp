// adm's arithmetic, once for every backend (extractors/adm/CONTRACT.md): the wavelet, the geometry
// of the four scales, one band sample's decoupling, contrast sensitivity and masking, and the
// scores of a frame from its sums. Everything up to a scale's nine sums is integer (plus one
// float/double angle test per sample that every backend repeats in the same order), so the sums
// are exact in any order of addition; the floating point after them is a few dozen operations per
// frame (host only, with the C library's powf), written here once.
//
// Integer widths are libvmaf's: scale 0's bands, its decoupled bands and its CSF values are 16-bit
// and wrap like a C store into int16_t; scales 1 to 3 hold 32-bit values. Every array here holds
// them as int32_t; wrap16() and wrap32() are the stores.
#pragma once

#include <array>
#include <cstdint>

#include "extractors/extractor.hpp"
#include "extractors/host_device.hpp"

namespace twinproof::adm {

inline constexpr int kScales = 4;
inline constexpr int kAngles = 3;  // h (high-pass vertically), v (high-pass horizontally), d (both)
// The smallest luma width and height the contract takes: every scale's input must be at least 5
// samples each way (the wavelet's mirror reaches index -1 below that), and scale 0's bands at least
// 9 wide (the masking's cube shift is ceil(log2(w) - 4)).
inline constexpr int kMinSize = 33;

// The Daubechies-2 wavelet's taps in Q15: low-pass 15826 27411 7345 -4240, high-pass -4240 -7345
// 27411 -15826 (a switch, so that device code reads them as immediates); the low-pass sum.
template <class Isa = void>
TP_HD constexpr std::int32_t dwt_weight(bool low, int k) {
  switch (k) {
    case 0: return low ? 15826 : -4240;
    case 1: return low ? 27411 : -7345;
    case 2: return low ? 7345 : 27411;
    default: return low ? -4240 : -15826;
  }
}
inline constexpr std::int32_t kLoSum = 46342;

template <class Isa = void>
TP_HD std::int32_t wrap16(std::int64_t v) {
  return static_cast<std::int16_t>(v);
}
template <class Isa = void>
TP_HD std::int32_t wrap32(std::int64_t v) {
  return static_cast<std::int32_t>(v);
}
template <class Isa = void>
TP_HD std::int64_t abs64(std::int64_t v) {
  return v < 0 ? -v : v;
}

// Tap k (0..3) of output index i of an input n long: 2i - 1 + k, mirrored about the first sample
// without repeating it and about the last repeating it (libvmaf's index tables).
template <class Isa = void>
TP_HD int dwt_tap(int i, int k, int n) {
  const int x = 2 * i - 1 + k;
  return x < 0 ? -x : (x >= n ? 2 * n - 1 - x : x);
}

// The wavelet's rounding at each scale. Scale 0 reads samples of `bpc` bits and centres them
// (the low-pass sum of half the range is taken off); scales 1-3 read the previous low-pass band.
struct DwtShifts {
  std::int64_t vertical_offset;  // taken off the vertical low-pass sum before rounding
  std::int64_t vertical_round;
  int vertical_shift;
  std::int64_t horizontal_round;
  int horizontal_shift;
  bool narrow;  // 16-bit results (scale 0)
};
template <class Isa = void>
TP_HD DwtShifts dwt_shifts(int scale, int bpc) {
  if (scale == 0) {
    const std::int64_t half = std::int64_t{1} << (bpc - 1);
    return {kLoSum * half, half, bpc, 32768, 16, true};
  }
  constexpr std::int64_t vr[3] = {0, 32768, 32768}, hr[3] = {16384, 32768, 16384};
  constexpr int vs[3] = {0, 16, 16}, hs[3] = {15, 16, 15};
  return {0, vr[scale - 1], vs[scale - 1], hr[scale - 1], hs[scale - 1], false};
}
// The vertical pass of four input samples: the low- and the high-pass value. Sums are exact in 64
// bits (libvmaf's 32-bit sum at 16 bits per sample wraps on the way and ends in range).
template <class Isa = void>
TP_HD std::int64_t dwt_sum(const std::int64_t s[4], bool low) {
  return dwt_weight<Isa>(low, 0) * s[0] + dwt_weight<Isa>(low, 1) * s[1] + dwt_weight<Isa>(low, 2) * s[2] +
         dwt_weight<Isa>(low, 3) * s[3];
}
template <class Isa = void>
TP_HD std::int32_t dwt_vertical(const std::int64_t s[4], bool low, const DwtShifts& d) {
  std::int64_t acc = dwt_sum<Isa>(s, low);
  if (low) acc -= d.vertical_offset;
  const std::int64_t v = (acc + d.vertical_round) >> d.vertical_shift;
  return d.narrow ? wrap16<Isa>(v) : wrap32<Isa>(v);
}
template <class Isa = void>
TP_HD std::int32_t dwt_horizontal(const std::int64_t s[4], bool low, const DwtShifts& d) {
  const std::int64_t v = (dwt_sum<Isa>(s, low) + d.horizontal_round) >> d.horizontal_shift;
  return d.narrow ? wrap16<Isa>(v) : wrap32<Isa>(v);
}
// Scale 0's two passes in 32-bit arithmetic, the same values as dwt_vertical() and
// dwt_horizontal() (test_adm checks them against those): a device's 64-bit product costs several
// instructions. Every value the contract keeps at scale 0 fits 32 bits: the vertical sum of 16-bit
// samples exceeds 2^31 on the way, but its centred, rounded value lies within +-1.8e9, so the sum
// taken modulo 2^32 ends as that value; horizontal sums of 16-bit values stay within +-1.8e9.
template <class Isa = void>
TP_HD std::int32_t dwt_vertical_scale0(const std::uint32_t s[4], bool low, const DwtShifts& d) {
  std::uint32_t acc = 0;
  for (int k = 0; k < 4; ++k) acc += static_cast<std::uint32_t>(dwt_weight<Isa>(low, k)) * s[k];
  if (low) acc -= static_cast<std::uint32_t>(d.vertical_offset);
  acc += static_cast<std::uint32_t>(d.vertical_round);
  return static_cast<std::int16_t>(static_cast<std::int32_t>(acc) >> d.vertical_shift);
}
template <class Isa = void>
TP_HD std::int32_t dwt_horizontal_scale0(const std::int32_t s[4], bool low, const DwtShifts& d) {
  std::int32_t acc = static_cast<std::int32_t>(d.horizontal_round);
  for (int k = 0; k < 4; ++k) acc += dwt_weight<Isa>(low, k) * s[k];
  return static_cast<std::int16_t>(acc >> d.horizontal_shift);
}

// ---- Geometry ----------------------------------------------------------------------------------
struct Rect {
  int left, top, right, bottom;  // [left, right) x [top, bottom)
  TP_HD int area() const { return (right - left) * (bottom - top); }
};
struct ScaleGeometry {
  int in_w, in_h;  // the scale's input: the luma plane, then the previous scale's low-pass band
  int w, h;        // its bands: (in + 1) / 2
  Rect scored;     // where masking and the denominator sum: a tenth of each side left out
  Rect written;    // where decoupling and the CSF write: the scored rect and one tap more each side
};
ScaleGeometry scale_geometry(int width, int height, int scale);

// ---- Decoupling (one band sample of the reference o and the distorted t, per angle) ---------------
// 2^30 / i for i in [-32768, 32768] (index i + 32768; 0 at i = 0).
const std::int32_t* div_lookup();

struct Decoupled {
  std::int32_t r[kAngles];  // the part of t explained by o (restored)
  std::int32_t a[kAngles];  // what remains (additive impairment)
};
// Whether the (h, v) vectors of o and t are within one degree of each other: libvmaf's test in
// float and double, operation by operation.
template <class Isa = void>
TP_HD bool within_one_degree(std::int64_t ot_dp, std::int64_t o_mag_sq, std::int64_t t_mag_sq, float cos_1deg_sq) {
  const double dp = static_cast<double>(static_cast<float>(ot_dp)) / 4096.0;
  if (!(dp >= 0.0)) return false;
  const double o = static_cast<double>(static_cast<float>(o_mag_sq)) / 4096.0;
  const double t = static_cast<double>(static_cast<float>(t_mag_sq)) / 4096.0;
  return dp * dp >= static_cast<double>(cos_1deg_sq) * o * t;
}
// k = t / o in Q15, clamped to [0, 1]. Scale 0 divides through the table; later scales first
// round |o| to 15 significant bits when it is wider.
template <class Isa = void>
TP_HD std::int64_t gain_q15(std::int32_t o, std::int32_t t, bool scale0, const std::int32_t* lookup) {
  if (o == 0) return 32768;
  std::int64_t k;
  if (scale0) {
    k = (std::int64_t{lookup[o + 32768]} * t + 16384) >> 15;
  } else {
    auto mag = static_cast<std::uint32_t>(o < 0 ? -static_cast<std::int64_t>(o) : o);
    int shift = 0;
    if (mag >= 32768) {
      shift = 17 - leading_zeros32<Isa>(mag);
      mag = (mag + (1u << (shift - 1))) >> shift;
    }
    const std::int64_t sign = o < 0 ? -1 : 1;
    k = ((std::int64_t{lookup[mag + 32768]} * t) * sign + (std::int64_t{1} << (14 + shift))) >> (15 + shift);
  }
  return k < 0 ? 0 : (k > 32768 ? 32768 : k);
}
template <class Isa = void>
TP_HD Decoupled decouple(const std::int32_t o[kAngles], const std::int32_t t[kAngles], bool scale0, double gain_limit,
                         float cos_1deg_sq, const std::int32_t* lookup) {
  const std::int64_t ot_dp = std::int64_t{o[0]} * t[0] + std::int64_t{o[1]} * t[1];
  const std::int64_t o_mag_sq = std::int64_t{o[0]} * o[0] + std::int64_t{o[1]} * o[1];
  const std::int64_t t_mag_sq = std::int64_t{t[0]} * t[0] + std::int64_t{t[1]} * t[1];
  const bool angle = within_one_degree<Isa>(ot_dp, o_mag_sq, t_mag_sq, cos_1deg_sq);
  Decoupled out{};
  for (int k = 0; k < kAngles; ++k) {
    const std::int64_t gain = gain_q15<Isa>(o[k], t[k], scale0, lookup);
    const std::int64_t rounded = (gain * o[k] + 16384) >> 15;
    std::int32_t r = scale0 ? wrap16<Isa>(rounded) : wrap32<Isa>(rounded);
    // libvmaf tests the sign of the float product (k / 2^15) * (o / 64): that of gain * o.
    if (angle && gain > 0 && o[k] != 0) {
      const double boosted = r * gain_limit, target = t[k];
      const double v = o[k] > 0 ? (boosted < target ? boosted : target) : (boosted > target ? boosted : target);
      r = static_cast<std::int32_t>(v);  // truncated, always within the band's range
    }
    out.r[k] = r;
    out.a[k] = scale0 ? wrap16<Isa>(std::int64_t{t[k]} - r) : wrap32<Isa>(std::int64_t{t[k]} - r);
  }
  return out;
}

// ---- Contrast sensitivity and masking ----------------------------------------------------------
// The CSF weights of a scale in fixed point: Q21, Q21, Q23 at scale 0 (16 bits), Q32 after.
struct CsfWeights {
  std::uint32_t w[kAngles];
};
// A band sample weighted by the CSF, and that value's share of the masking threshold of its
// neighbours (|csf| / 30).
struct CsfValue {
  std::int32_t csf, flt;
};
template <class Isa = void>
TP_HD CsfValue csf_value(std::int32_t x, int angle, bool scale0, const CsfWeights& cw) {
  if (scale0) {
    constexpr int shift[kAngles] = {15, 15, 17};
    constexpr std::int32_t round[kAngles] = {16384, 16384, 65535};
    const std::int64_t v = std::int64_t{cw.w[angle]} * x;  // below 2^31: a 16-bit weight times a 16-bit value
    const std::int32_t c = wrap16<Isa>((v + round[angle]) >> shift[angle]);
    return {c, wrap16<Isa>((std::int64_t{4369} * abs64<Isa>(c) + 2048) >> 12)};
  }
  const std::int32_t c = wrap32<Isa>((std::int64_t{cw.w[angle]} * x + (1 << 27)) >> 28);
  // libvmaf's rounding term is (int32_t)(1u << 31): it subtracts 2^31 before the shift.
  return {c, wrap32<Isa>((std::int64_t{143165577} * abs64<Isa>(c) - 2147483648LL) >> 32)};
}
// The centre sample's own share of its threshold (|csf| / 15).
template <class Isa = void>
TP_HD std::int32_t centre_share(std::int32_t csf, bool scale0) {
  if (scale0) return wrap16<Isa>((std::int64_t{8738} * abs64<Isa>(csf) + 2048) >> 12);
  return wrap32<Isa>((std::int64_t{286331153} * abs64<Isa>(csf) - 2147483648LL) >> 32);
}
// The masking threshold of one scored sample under one mask: each angle's 3x3 neighbourhood of
// shares, the centre's own share (of its CSF value) in place of its neighbour share, wrapped as
// libvmaf's 32-bit sum. share(k, di, dj) reads angle k's share at row offset di, column offset dj
// (0..2, the centre at 1, 1); csf(k) the centre's CSF value of angle k.
template <class Isa = void, class Share, class Csf>
TP_HD std::int32_t masking_threshold(const Share& share, const Csf& csf, bool scale0) {
  std::int64_t threshold = 0;
  for (int k = 0; k < kAngles; ++k)
    for (int di = 0; di < 3; ++di)
      for (int dj = 0; dj < 3; ++dj) threshold += di == 1 && dj == 1 ? centre_share<Isa>(csf(k), scale0) : share(k, di, dj);
  return wrap32<Isa>(threshold);
}
// The 3x3 neighbourhood's rows and columns: mirrored about the first without repeating it, the
// last repeated (libvmaf's edge cases).
template <class Isa = void>
TP_HD int before(int i) {
  return i == 0 ? 1 : i - 1;
}
template <class Isa = void>
TP_HD int after(int i, int n) {
  return i == n - 1 ? n - 1 : i + 1;
}

// The shifts that keep a scale's masked cubes and denominator cubes in 64 bits (they depend on the
// scale's geometry alone).
struct SumShifts {
  int sub[kAngles];  // scale 0: the threshold's shift before it is taken off
  int sq_shift[kAngles];
  std::int64_t sq_round[kAngles];
  int cube_shift[kAngles];
  std::int64_t cube_round[kAngles];
  int row_shift;  // each row's masked sum is rounded by this shift
  std::int64_t row_round;
  int den_sq_shift;  // scales 1-3: the denominator's square shift
  std::int64_t den_sq_round;
  int den_cube_shift;
  std::int64_t den_cube_round;
  int den_row_shift;
  std::int64_t den_row_round;
};
SumShifts sum_shifts(const ScaleGeometry& g, int scale);

// One sample's masked cube: x (a band value: restored for the DLM sum, impairment for AIM's)
// weighted by the CSF, less the threshold, cubed and rounded.
template <class Isa = void>
TP_HD std::int64_t masked_cube(std::int32_t x, std::int32_t threshold, int angle, bool scale0, const CsfWeights& cw,
                               const SumShifts& sh) {
  std::int64_t v;
  if (scale0) {
    const std::int64_t weighted = std::int64_t{cw.w[angle]} * x;  // below 2^31, as above
    v = wrap32<Isa>(abs64<Isa>(weighted) - wrap32<Isa>(std::int64_t{threshold} * (std::int64_t{1} << sh.sub[angle])));
  } else {
    const std::int32_t weighted = wrap32<Isa>((std::int64_t{x} * cw.w[angle] + (1 << 27)) >> 28);
    v = wrap32<Isa>(abs64<Isa>(weighted) - threshold);
  }
  if (v < 0) v = 0;
  const std::int64_t sq = wrap32<Isa>((v * v + sh.sq_round[angle]) >> sh.sq_shift[angle]);
  return (sq * v + sh.cube_round[angle]) >> sh.cube_shift[angle];
}
// One reference band sample's denominator cube.
template <class Isa = void>
TP_HD std::uint64_t denominator_cube(std::int32_t x, bool scale0, const SumShifts& sh) {
  if (scale0) {
    const std::uint64_t m = static_cast<std::uint16_t>(abs64<Isa>(x));
    return m * m * m;
  }
  const std::uint64_t m = static_cast<std::uint32_t>(abs64<Isa>(x));
  return ((((m * m + static_cast<std::uint64_t>(sh.den_sq_round)) >> sh.den_sq_shift) * m) +
          static_cast<std::uint64_t>(sh.den_cube_round)) >>
         sh.den_cube_shift;
}

// ---- A frame's sums and scores -----------------------------------------------------------------
// A scale's sums over its scored rect, per angle: the masked cubes of the restored bands (DLM),
// those of the impairment (AIM), and the reference's cubes (the denominator), each row's sum
// rounded by the row shift before it is added.
struct ScaleSums {
  std::int64_t dlm[kAngles]{}, aim[kAngles]{};
  std::uint64_t den[kAngles]{};
  TP_HD ScaleSums& operator+=(const ScaleSums& o) {
    for (int k = 0; k < kAngles; ++k) {
      dlm[k] += o.dlm[k];
      aim[k] += o.aim[k];
      den[k] += o.den[k];
    }
    return *this;
  }
  bool operator==(const ScaleSums&) const = default;
};
// A scored row's contribution to its scale's sums: its raw totals (64-bit two's complement), each
// rounded by the row shifts.
template <class Isa = void>
TP_HD ScaleSums rounded_row(const std::int64_t (&dlm)[kAngles], const std::int64_t (&aim)[kAngles],
                            const std::uint64_t (&den)[kAngles], const SumShifts& sh) {
  ScaleSums r;
  for (int k = 0; k < kAngles; ++k) {
    r.dlm[k] = (dlm[k] + sh.row_round) >> sh.row_shift;
    r.aim[k] = (aim[k] + sh.row_round) >> sh.row_shift;
    r.den[k] = (den[k] + static_cast<std::uint64_t>(sh.den_row_round)) >> sh.den_row_shift;
  }
  return r;
}
struct FrameSums {
  std::array<ScaleSums, kScales> scale{};
  bool operator==(const FrameSums&) const = default;
};

}  // namespace twinproof::adm

// ---- Host only: the CSF of the options, and a frame's scores from its sums ----------------------
namespace twinproof::adm {

// The options that shape the contrast sensitivity function.
struct CsfModel {
  int mode = 0;  // 0 Watson 1997, 1 Barten, 2 Barten-Watson blend, 3 the same blend (MAE fit)
  double norm_view_dist = 3.0;
  int display_height = 1080;
  double csf_scale = 1.0, csf_diag_scale = 1.0;
};
// A scale's float CSF factors (libvmaf's rfactor): [0] for h and v, [1] for d.
std::array<float, 2> csf_factors(const CsfModel& m, int scale);
// Every scale's fixed-point weights. Throws RefusedConfiguration where libvmaf's own conversion
// to fixed point is undefined (a factor out of the integer's range) or libvmaf refuses.
std::array<CsfWeights, kScales> csf_weights(const CsfModel& m);

struct ScoreParams {
  CsfModel csf;
  double noise_weight = 0.03125;
  double dlm_weight = 0.5;
  double min_val = 0.0;
  bool skip_scale0 = false;
  bool skip_aim = false;
};

// A frame's outputs. `aim` (and so adm3) has no value when the combined denominator is 0: libvmaf
// leaves its variable unset there.
struct FrameScores {
  double adm2 = 0, aim = 0, adm3 = 0;
  bool aim_defined = true;
  std::array<double, kScales> scale{}, num_scale{}, den_scale{};
  double num = 0, den = 0;
};

// The scores of a frame of a given luma size: its per-scale geometry, shifts and CSF factors are
// worked out once.
class Scorer {
 public:
  Scorer() = default;
  Scorer(int width, int height, const ScoreParams& p);
  FrameScores operator()(const FrameSums& sums) const;
  const ScaleGeometry& geometry(int scale) const { return geometry_[static_cast<std::size_t>(scale)]; }
  const SumShifts& shifts(int scale) const { return shifts_[static_cast<std::size_t>(scale)]; }

 private:
  // A scale's DLM (or AIM) numerator, and its denominator, as libvmaf's floats.
  float numerator(const std::int64_t (&sums)[kAngles], int scale, double noise_weight) const;
  float denominator(const std::uint64_t (&sums)[kAngles], int scale) const;

  int width_ = 0, height_ = 0;
  ScoreParams p_;
  std::array<ScaleGeometry, kScales> geometry_{};
  std::array<SumShifts, kScales> shifts_{};
  std::array<std::array<float, 2>, kScales> factors_{};
};

}  // namespace twinproof::adm
