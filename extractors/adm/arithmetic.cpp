// adm's host arithmetic (CONTRACT.md): geometry, shifts, the CSF models and a frame's scores. The
// float and double expressions follow libvmaf's types operation by operation (a float times a
// double is a double; a float variable rounds), and call the same C library functions.
#include "extractors/adm/arithmetic.hpp"

#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

namespace twinproof::adm {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kBorder = 0.1;  // the share of each side that is left out of the sums

// The display's visual resolution in pixels per degree, as a float.
float display_resolution(double norm_view_dist, int display_height) {
  return static_cast<float>(norm_view_dist * display_height * kPi / 180.0);
}

// ---- Watson et al. 1997: the quantisation step of the 7-9 wavelet at level lambda, angle theta --
float watson_step(int lambda, int theta, double norm_view_dist, int display_height) {
  // The luma row of the paper's Table IV and the basis amplitudes of its Table V.
  static const float a = 0.495, k = 0.466, f0 = 0.401;
  static const float g[4] = {1.501, 1.0, 0.534, 1.0};
  static const float amplitude[6][4] = {{0.62171, 0.67234, 0.72709, 0.67234},     {0.34537, 0.41317, 0.49428, 0.41317},
                                        {0.18004, 0.22727, 0.28688, 0.22727},     {0.091401, 0.11792, 0.15214, 0.11792},
                                        {0.045943, 0.059758, 0.077727, 0.059758}, {0.023013, 0.030018, 0.039156, 0.030018}};
  const float r = display_resolution(norm_view_dist, display_height);
  const auto temp = static_cast<float>(std::log10(std::pow(2.0, lambda + 1) * f0 * g[theta] / r));
  const float exponent = k * temp * temp;
  return static_cast<float>(2.0 * a * std::pow(10.0, exponent) / amplitude[lambda][theta]);
}

// ---- Barten's CSF as HDR-VDP 2.2.1 simplifies it ----------------------------------------------------
// libvmaf calls the double functions of <math.h> with float arguments: every call here is the
// double one, its float arguments widened first.
float interpolate(float left_position, float left_value, float right_position, float right_value, float position) {
  return left_value + ((right_value - left_value) / (right_position - left_position)) * (position - left_position);
}

float barten_mtf(float frequency) {
  static const float a[4] = {0.424838596301290, 0.572435103936480, 0.000167576239164937, 0.00255872352306433};
  static const float b[4] = {0.028, 0.37, 37, 360};
  float mtf = 0.0;
  for (int i = 0; i < 4; ++i) mtf = static_cast<float>(mtf + a[i] * std::exp(static_cast<double>(-b[i] * frequency)));
  return mtf;
}

float barten_rod_cone(float luminance) {
  static const float sa[4] = {30.162, 4.0627, 1.6596, 0.2712};
  return static_cast<float>(sa[0] *
                            std::pow(std::pow(static_cast<double>(sa[1] / luminance), static_cast<double>(sa[2])) + 1, -sa[3]));
}

float barten(int lambda, double norm_view_dist, int display_height, double luminance, double scale) {
  static const float anchors[6] = {0.002, 0.02, 0.2, 2, 20, 150};
  static const float params[6][5] = {
      {0.0160737, 0.991265, 3.74038, 0.50722, 4.46044}, {0.383873, 0.800889, 3.54104, 0.682505, 4.94958},
      {0.929301, 0.476505, 4.37453, 0.750315, 5.28678}, {1.29776, 0.405782, 4.40602, 0.935314, 5.61425},
      {1.49222, 0.334278, 3.79542, 1.07327, 6.4635},    {1.46213, 0.394533, 2.7755, 1.16577, 7.45665}};
  const float r = display_resolution(norm_view_dist, display_height);
  const auto frequency = static_cast<float>(r / std::pow(2, lambda + 1));
  const double lum = luminance > anchors[5] ? anchors[5] : (luminance < anchors[0] ? anchors[0] : luminance);
  int left = 0, right = 0;
  for (int i = 0; i < 5; ++i)
    if (lum >= anchors[i] && lum <= anchors[i + 1]) {
      left = i;
      right = i + 1;
      break;
    }
  const auto left_position = static_cast<float>(std::log10(static_cast<double>(anchors[left])));
  const auto right_position = static_cast<float>(std::log10(static_cast<double>(anchors[right])));
  const auto position = static_cast<float>(std::log10(lum));
  float p[4];
  for (int k = 0; k < 4; ++k)
    p[k] = interpolate(left_position, params[left][k + 1], right_position, params[right][k + 1], position);
  const auto a = static_cast<float>(1.0f + std::pow(static_cast<double>(p[0] * frequency), static_cast<double>(p[1])));
  const auto b = static_cast<float>(
      1.0f / std::pow(1 - std::exp(-std::pow(static_cast<double>(frequency / 7), 2)), static_cast<double>(p[2])));
  const auto csf = static_cast<float>(p[3] / std::pow(static_cast<double>(a * b), 0.5));
  return static_cast<float>(csf * barten_mtf(frequency) * barten_rod_cone(static_cast<float>(luminance)) * scale);
}

// ---- The Barten-Watson blends: factors tabulated for a few displays --------------------------------
struct BlendTable {
  int display_height;
  double norm_view_dist;
  float legacy[2][4], mae[2][4];
};
const BlendTable* blend_table(int display_height, double norm_view_dist) {
  static const BlendTable tables[] = {
      {1080,
       3.0,
       {{0.01183, 0.025026, 0.04295, 0.058621}, {0.004302, 0.011778, 0.023918, 0.035901}},
       {{0.011249, 0.022606, 0.035930, 0.045673}, {0.004097, 0.010921, 0.021430, 0.031313}}},
      {1080,
       5.0,
       {{0.004212, 0.014809, 0.029642, 0.047464}, {0.000984, 0.005852, 0.0146, 0.027574}},
       {{0.004052, 0.013939, 0.026298, 0.038833}, {0.000927, 0.005544, 0.013415, 0.024515}}},
      // 2160 lines at 1.5 heights see what 1080 lines at 3 do.
      {2160,
       1.5,
       {{0.01183, 0.025026, 0.04295, 0.058621}, {0.004302, 0.011778, 0.023918, 0.035901}},
       {{0.011249, 0.022606, 0.035930, 0.045673}, {0.004097, 0.010921, 0.021430, 0.031313}}},
      {2160,
       3.0,
       {{0.00226, 0.01183, 0.025026, 0.04295}, {0.000479, 0.004302, 0.011778, 0.023918}},
       {{0.002166, 0.011249, 0.022606, 0.035930}, {0.000447, 0.004097, 0.010921, 0.021430}}},
      {2160,
       5.0,
       {{0.000092, 0.004212, 0.014809, 0.029642}, {0.000050, 0.000984, 0.005852, 0.0146}},
       {{0.000077, 0.004052, 0.013939, 0.026298}, {0.000045, 0.000927, 0.005544, 0.013415}}},
      {720,
       3.0,
       {{0.018715, 0.035637, 0.052798, 0.061509}, {0.007999, 0.018396, 0.031851, 0.037718}},
       {{0.017329, 0.030870, 0.042134, 0.047410}, {0.007509, 0.016707, 0.028072, 0.032722}}},
      {720,
       5.0,
       {{0.010144, 0.022561, 0.040309, 0.05672}, {0.003463, 0.010282, 0.021839, 0.034641}},
       {{0.009689, 0.020577, 0.034162, 0.044523}, {0.003302, 0.009579, 0.019661, 0.030318}}},
      {480,
       3.0,
       {{0.027961, 0.045875, 0.060275, 0.056234}, {0.013572, 0.026277, 0.036959, 0.034511}},
       {{0.024969, 0.037825, 0.046676, 0.043974}, {0.012511, 0.023424, 0.032139, 0.030166}}},
      {480,
       5.0,
       {{0.016781, 0.032822, 0.05032, 0.061594}, {0.00691, 0.016545, 0.029917, 0.037777}},
       {{0.015665, 0.028766, 0.040612, 0.047483}, {0.006514, 0.015107, 0.026476, 0.032776}}},
  };
  for (const BlendTable& t : tables)
    if (t.display_height == display_height && t.norm_view_dist == norm_view_dist) return &t;
  return nullptr;
}

// ceil of a double as libvmaf converts it to uint32_t (the contract's sizes keep it in range).
std::uint32_t ceil_u32(double x) { return static_cast<std::uint32_t>(std::ceil(x)); }
std::int64_t half_of(int shift) { return shift > 0 ? std::int64_t{1} << (shift - 1) : 0; }

Rect inset(int w, int h, double extra, int grow) {
  // libvmaf: left = w * 0.1 - 0.5 (- 1 for the written rect), truncated; right = w - left (+ 2).
  int left = static_cast<int>(w * kBorder - 0.5 - extra), top = static_cast<int>(h * kBorder - 0.5 - extra);
  int right = w - left + grow, bottom = h - top + grow;
  if (left < 0) left = 0;
  if (top < 0) top = 0;
  if (right > w) right = w;
  if (bottom > h) bottom = h;
  return {left, top, right, bottom};
}

}  // namespace

ScaleGeometry scale_geometry(int width, int height, int scale) {
  int in_w = width, in_h = height;
  for (int s = 0; s < scale; ++s) {
    in_w = (in_w + 1) / 2;
    in_h = (in_h + 1) / 2;
  }
  const int w = (in_w + 1) / 2, h = (in_h + 1) / 2;
  return {in_w, in_h, w, h, inset(w, h, 0.0, 0), inset(w, h, 1.0, 2)};
}

SumShifts sum_shifts(const ScaleGeometry& g, int scale) {
  SumShifts s{};
  const Rect& r = g.scored;
  if (scale == 0) {
    for (int k = 0; k < kAngles; ++k) {
      s.sub[k] = k == 2 ? 12 : 10;
      s.sq_shift[k] = k == 2 ? 30 : 29;
      s.sq_round[k] = std::int64_t{1} << (s.sq_shift[k] - 1);
      s.cube_shift[k] = static_cast<int>(ceil_u32(std::log2(g.w) - (k == 2 ? 3 : 4)));
      s.cube_round[k] = half_of(s.cube_shift[k]);
    }
    const auto den_shift = static_cast<std::int32_t>(std::ceil(std::log2(r.area()) - 20));
    s.den_row_shift = den_shift > 0 ? den_shift : 0;
    s.den_row_round = half_of(s.den_row_shift);
  } else {
    for (int k = 0; k < kAngles; ++k) {
      s.sub[k] = 0;
      s.sq_shift[k] = 30;
      s.sq_round[k] = std::int64_t{1} << 29;
      s.cube_shift[k] = static_cast<int>(ceil_u32(std::log2(g.w)));
      s.cube_round[k] = half_of(s.cube_shift[k]);
    }
    constexpr int den_sq[3] = {31, 30, 31};
    s.den_sq_shift = den_sq[scale - 1];
    s.den_sq_round = std::int64_t{1} << s.den_sq_shift;  // libvmaf adds 2^shift, not half of it
    s.den_cube_shift = static_cast<int>(ceil_u32(std::log2(r.right - r.left)));
    s.den_cube_round = half_of(s.den_cube_shift);
    s.den_row_shift = static_cast<int>(ceil_u32(std::log2(r.bottom - r.top)));
    s.den_row_round = half_of(s.den_row_shift);
  }
  s.row_shift = static_cast<int>(ceil_u32(std::log2(g.h)));
  s.row_round = half_of(s.row_shift);
  return s;
}

const std::int32_t* div_lookup() {
  static const std::array<std::int32_t, 65537> table = [] {
    std::array<std::int32_t, 65537> t{};
    for (int i = 1; i <= 32768; ++i) {
      const std::int32_t q = (std::int32_t{1} << 30) / i;
      t[static_cast<std::size_t>(32768 + i)] = q;
      t[static_cast<std::size_t>(32768 - i)] = -q;
    }
    return t;
  }();
  return table.data();
}

std::array<float, 2> csf_factors(const CsfModel& m, int scale) {
  switch (m.mode) {
    case 1:
      return {barten(scale, m.norm_view_dist, m.display_height, 100.0, m.csf_scale),
              barten(scale, m.norm_view_dist, m.display_height, 100.0, m.csf_diag_scale)};
    case 2:
    case 3: {
      const BlendTable* t = blend_table(m.display_height, m.norm_view_dist);
      if (t == nullptr) return {-22.0f, -22.0f};  // libvmaf's -EINVAL as a factor; csf_weights refuses it
      const auto& f = m.mode == 2 ? t->legacy : t->mae;
      return {f[0][scale], f[1][scale]};
    }
    default:
      return {1.0f / watson_step(scale, 1, m.norm_view_dist, m.display_height),
              1.0f / watson_step(scale, 2, m.norm_view_dist, m.display_height)};
  }
}

std::array<CsfWeights, kScales> csf_weights(const CsfModel& m) {
  const std::string view = fmt::format("adm_norm_view_dist={} adm_ref_display_height={}", m.norm_view_dist, m.display_height);
  // libvmaf refuses every frame (EINVAL) below 1080 lines at 3 heights: its 16-bit pipeline
  // cannot take a lower angular frequency.
  if (m.norm_view_dist * m.display_height < 3.0 * 1080)
    throw RefusedConfiguration(
        "adm_norm_view_dist", fmt::format("{}", m.norm_view_dist),
        fmt::format("{}: libvmaf's adm refuses a viewing distance times display height below 3 x 1080", view));
  if ((m.mode == 2 || m.mode == 3) && blend_table(m.display_height, m.norm_view_dist) == nullptr)
    throw RefusedConfiguration("adm_csf_mode", std::to_string(m.mode),
                               fmt::format("adm_csf_mode={} has factors for 480, 720, 1080 and 2160 lines at 3 or 5 heights (and "
                                           "2160 at 1.5) only; libvmaf turns {} into a factor of -22 there",
                                           m.mode, view));
  std::array<CsfWeights, kScales> w{};
  for (int s = 0; s < kScales; ++s) {
    const std::array<float, 2> f = csf_factors(m, s);
    const float per_angle[kAngles] = {f[0], f[0], f[1]};
    for (int k = 0; k < kAngles; ++k) {
      const double scaled = s == 0 ? per_angle[k] * std::pow(2, k == 2 ? 23 : 21) : per_angle[k] * std::pow(2, 32);
      const double limit = s == 0 ? 65536.0 : 4294967296.0;
      if (!(scaled > -1.0 && scaled < limit))
        throw RefusedConfiguration(
            "adm_csf_mode", std::to_string(m.mode),
            fmt::format("the CSF factor {} of scale {} (adm_csf_mode={}, adm_csf_scale={}, adm_csf_diag_scale={}, "
                        "{}) leaves libvmaf's {}-bit fixed point: its conversion is undefined there",
                        per_angle[k], s, m.mode, m.csf_scale, m.csf_diag_scale, view, s == 0 ? 16 : 32));
      w[static_cast<std::size_t>(s)].w[k] = static_cast<std::uint32_t>(scaled);
    }
  }
  // libvmaf's scale 0 uses rounded-down constants for the default display, Watson's model only.
  if (std::fabs(m.norm_view_dist * m.display_height - 3.0 * 1080) < 1.0e-8 && m.mode == 0) w[0] = {{36453, 36453, 49417}};
  return w;
}

Scorer::Scorer(int width, int height, const ScoreParams& p) : width_(width), height_(height), p_(p) {
  for (int s = 0; s < kScales; ++s) {
    geometry_[static_cast<std::size_t>(s)] = scale_geometry(width, height, s);
    shifts_[static_cast<std::size_t>(s)] = sum_shifts(geometry_[static_cast<std::size_t>(s)], s);
    factors_[static_cast<std::size_t>(s)] = csf_factors(p.csf, s);
  }
}

float Scorer::numerator(const std::int64_t (&sums)[kAngles], int scale, double noise_weight) const {
  const ScaleGeometry& g = geometry(scale);
  const SumShifts& sh = shifts(scale);
  const auto noise = std::pow(static_cast<float>(g.scored.area() * noise_weight), 1.0f / 3.0f);
  float part[kAngles];
  for (int k = 0; k < kAngles; ++k) {
    float f;
    if (scale == 0) {
      // libvmaf's exponents are unsigned: a negative one would wrap (the contract's sizes keep them positive).
      const std::uint32_t e =
          (k == 2 ? 57u : 52u) - static_cast<std::uint32_t>(sh.cube_shift[k]) - static_cast<std::uint32_t>(sh.row_shift);
      f = static_cast<float>(static_cast<double>(sums[k]) / std::pow(2, e));
    } else {
      constexpr std::uint32_t base[3] = {45, 39, 36};
      const std::uint32_t e =
          base[scale - 1] - static_cast<std::uint32_t>(sh.cube_shift[k]) - static_cast<std::uint32_t>(sh.row_shift);
      const auto divisor = static_cast<float>(std::pow(2, e));
      f = static_cast<float>(sums[k]) / divisor;
    }
    part[k] = std::pow(f, 1.0f / 3.0f) + noise;
  }
  return part[0] + part[1] + part[2];
}

float Scorer::denominator(const std::uint64_t (&sums)[kAngles], int scale) const {
  const ScaleGeometry& g = geometry(scale);
  const SumShifts& sh = shifts(scale);
  const std::array<float, 2>& f = factors_[static_cast<std::size_t>(scale)];
  double divisor;
  if (scale == 0) {
    divisor = std::pow(2, 18 - sh.den_row_shift);
  } else {
    constexpr std::uint32_t base[3] = {32, 27, 23};
    divisor = std::pow(
        2, base[scale - 1] - static_cast<std::uint32_t>(sh.den_row_shift) - static_cast<std::uint32_t>(sh.den_cube_shift));
  }
  const auto noise = std::pow(static_cast<float>(g.scored.area() * p_.noise_weight), 1.0f / 3.0f);
  float part[kAngles];
  for (int k = 0; k < kAngles; ++k) {
    const double csf = static_cast<double>(sums[k]) / divisor * std::pow(static_cast<double>(f[k == 2 ? 1 : 0]), 3);
    part[k] = std::pow(static_cast<float>(csf), 1.0f / 3.0f) + noise;
  }
  return part[0] + part[1] + part[2];
}

FrameScores Scorer::operator()(const FrameSums& sums) const {
  FrameScores out;
  double num = 0, den = 0, aim_num = 0;
  for (int s = 0; s < kScales; ++s) {
    float num_scale = 0.0f, den_scale = 0.0f, aim_scale = 0.0f;
    const ScaleSums& ss = sums.scale[static_cast<std::size_t>(s)];
    if (s == 0 && p_.skip_scale0) {
      den_scale = 1e-10f;  // libvmaf's guard against a division by zero
    } else {
      den_scale = denominator(ss.den, s);
      num_scale = numerator(ss.dlm, s, p_.noise_weight);
      if (!p_.skip_aim) aim_scale = numerator(ss.aim, s, 0.0);
    }
    num += num_scale;
    den += den_scale;
    aim_num += aim_scale;
    out.num_scale[static_cast<std::size_t>(s)] = num_scale;
    out.den_scale[static_cast<std::size_t>(s)] = den_scale;
    out.scale[static_cast<std::size_t>(s)] = static_cast<double>(num_scale) / static_cast<double>(den_scale);
  }
  const double limit = 1e-10 * (width_ * height_) / (1920.0 * 1080.0);
  num = num < limit ? 0 : num;
  den = den < limit ? 0 : den;
  if (den == 0.0) {
    out.adm2 = 1.0;
    out.aim_defined = false;
  } else {
    out.aim = aim_num / den;
    out.adm2 = num / den;
    const double adm3 = out.adm2 * p_.dlm_weight + (1 - out.aim) * (1 - p_.dlm_weight);
    out.adm3 = adm3 > p_.min_val ? adm3 : p_.min_val;
  }
  out.num = num;
  out.den = den;
  return out;
}

}  // namespace twinproof::adm
