#include "extractors/adm/frame_loop.hpp"

#include <cmath>

#include <fmt/format.h>

#include "extractors/format_checks.hpp"

namespace twinproof::adm {
namespace {
constexpr const char* kScaleScore[kScales] = {"adm_scale0", "adm_scale1", "adm_scale2", "adm_scale3"};
constexpr const char* kScaleNum[kScales] = {"adm_num_scale0", "adm_num_scale1", "adm_num_scale2", "adm_num_scale3"};
constexpr const char* kScaleDen[kScales] = {"adm_den_scale0", "adm_den_scale1", "adm_den_scale2", "adm_den_scale3"};
constexpr const char* kBand[4] = {"a", "h", "v", "d"};
constexpr const char* kAngle[kAngles] = {"h", "v", "d"};

ProbeArray halves(std::string name, std::span<const std::uint64_t> values) {
  ProbeArray a{std::move(name), 2, static_cast<int>(values.size()), false, {}};
  a.values.reserve(2 * values.size());
  for (const std::uint64_t v : values) {
    a.values.push_back(static_cast<double>(v >> 32));
    a.values.push_back(static_cast<double>(v & 0xffffffffu));
  }
  return a;
}

// The nine sums of a scale, each with its name.
template <class F>
void for_each_sum(const ScaleSums& s, F&& f) {
  for (int k = 0; k < kAngles; ++k) {
    f(fmt::format("dlm_{}", kAngle[k]), static_cast<std::uint64_t>(s.dlm[k]));
    f(fmt::format("aim_{}", kAngle[k]), static_cast<std::uint64_t>(s.aim[k]));
    f(fmt::format("den_{}", kAngle[k]), s.den[k]);
  }
}

ProbeArray band_array(std::string name, const std::vector<std::int32_t>& v, const ScaleGeometry& g) {
  return ProbeArray{std::move(name), g.w, g.h, false, std::vector<double>(v.begin(), v.end())};
}
}  // namespace

void AdmExtractor::init(const Format& fmt, const OptionList& options) {
  opts_ = parse_options(options);
  const ScaleGeometry last = scale_geometry(fmt.width, fmt.height, 3);
  refuse_small_luma(fmt, "adm", kMinSize,
                    fmt::format("scale 3's input ({}x{}) must be at least 5 samples each way for the wavelet's mirrored taps",
                                last.in_w, last.in_h));
  const CsfModel csf{.mode = opts_.adm_csf_mode,
                     .norm_view_dist = opts_.adm_norm_view_dist,
                     .display_height = opts_.adm_ref_display_height,
                     .csf_scale = opts_.adm_csf_scale,
                     .csf_diag_scale = opts_.adm_csf_diag_scale};
  EngineParams params{.skip_scale0 = opts_.adm_skip_scale0,
                      .skip_aim = opts_.adm_skip_aim,
                      .gain_limit = opts_.adm_enhn_gain_limit,
                      .cos_1deg_sq = static_cast<float>(std::cos(1.0 * 3.14159265358979323846 / 180.0) *
                                                        std::cos(1.0 * 3.14159265358979323846 / 180.0)),
                      .weights = csf_weights(csf)};
  scorer_ = Scorer(fmt.width, fmt.height,
                   {.csf = csf,
                    .noise_weight = opts_.adm_noise_weight,
                    .dlm_weight = opts_.adm_dlm_weight,
                    .min_val = opts_.adm_min_val,
                    .skip_scale0 = opts_.adm_skip_scale0,
                    .skip_aim = opts_.adm_skip_aim});
  engine().init(fmt, params);
  start(fmt);
}

std::vector<std::string> AdmExtractor::metrics() const {
  std::vector<std::string> m{"adm2", "aim", "adm3"};
  m.insert(m.end(), std::begin(kScaleScore), std::end(kScaleScore));
  if (opts_.debug) append_scale_debug_metrics(m, "adm", kScales);
  return m;
}

void AdmExtractor::emit_scores(const FrameSums& sums, const Emit& emit) const {
  const FrameScores f = scorer_(sums);
  // With adm_noise_weight=0 a detail-free reference leaves a scale at 0/0 (NaN), or the whole
  // frame's denominator at 0, where libvmaf reads aim from an unset variable. Neither has a value a
  // verdict could pass: the frame is refused.
  for (int s = 0; s < kScales; ++s)
    if (std::isnan(f.scale[static_cast<std::size_t>(s)]))
      throw RefusedConfiguration("adm_noise_weight", fmt::format("{}", opts_.adm_noise_weight),
                                 fmt::format("scale {} of this frame is 0/0 (its reference bands hold no detail and "
                                             "adm_noise_weight=0): libvmaf's adm_scale{} is NaN there",
                                             s, s));
  if (!f.aim_defined)
    throw RefusedConfiguration("adm_noise_weight", fmt::format("{}", opts_.adm_noise_weight),
                               "the frame's combined denominator is 0 (a flat reference with adm_noise_weight=0): libvmaf's aim "
                               "and adm3 are an unset variable there");
  emit("adm2", f.adm2);
  emit("aim", f.aim);
  emit("adm3", f.adm3);
  for (int s = 0; s < kScales; ++s) emit(kScaleScore[s], f.scale[static_cast<std::size_t>(s)]);
  if (!opts_.debug) return;
  emit("adm", f.adm2);
  emit("adm_num", f.num);
  emit("adm_den", f.den);
  for (int s = 0; s < kScales; ++s) {
    emit(kScaleNum[s], f.num_scale[static_cast<std::size_t>(s)]);
    emit(kScaleDen[s], f.den_scale[static_cast<std::size_t>(s)]);
  }
}

Probe dwt_bands_probe(std::span<const ScaleBands, kScales> bands, const Format& fmt, int first_scale) {
  Probe p{"dwt_bands", {}};
  for (int s = 0; s < kScales; ++s) {
    const ScaleBands& b = bands[static_cast<std::size_t>(s)];
    const int count = s < first_scale ? 1 : 4;  // a skipped scale 0 is decimated (its low-pass band) only
    for (int band = 0; band < count; ++band) {
      p.arrays.push_back(
          band_array(fmt::format("scale{}/ref/{}", s, kBand[band]), b.ref[band], scale_geometry(fmt.width, fmt.height, s)));
      p.arrays.push_back(
          band_array(fmt::format("scale{}/dist/{}", s, kBand[band]), b.dist[band], scale_geometry(fmt.width, fmt.height, s)));
    }
  }
  return p;
}

Probe decoupled_bands_probe(std::span<const ScaleBands, kScales> bands, const Format& fmt, int first_scale) {
  Probe p{"decoupled_bands", {}};
  for (int s = first_scale; s < kScales; ++s)
    for (int k = 0; k < kAngles; ++k) {
      const ScaleBands& b = bands[static_cast<std::size_t>(s)];
      p.arrays.push_back(
          band_array(fmt::format("scale{}/restored/{}", s, kAngle[k]), b.restored[k], scale_geometry(fmt.width, fmt.height, s)));
      p.arrays.push_back(band_array(fmt::format("scale{}/impairment/{}", s, kAngle[k]), b.impairment[k],
                                    scale_geometry(fmt.width, fmt.height, s)));
    }
  return p;
}

Probe row_sums_probe(std::span<const std::vector<ScaleSums>, kScales> rows, int first_scale) {
  Probe p{"row_sums", {}};
  for (int s = first_scale; s < kScales; ++s) {
    std::vector<std::pair<std::string, std::vector<std::uint64_t>>> columns;
    for (const ScaleSums& r : rows[static_cast<std::size_t>(s)]) {
      std::size_t c = 0;
      for_each_sum(r, [&](std::string name, std::uint64_t v) {
        if (columns.size() <= c) columns.emplace_back(std::move(name), std::vector<std::uint64_t>{});
        columns[c++].second.push_back(v);
      });
    }
    for (auto& [name, values] : columns) p.arrays.push_back(halves(fmt::format("scale{}/{}", s, name), values));
  }
  return p;
}

Probe scale_sums_probe(const FrameSums& sums, int first_scale) {
  Probe p{"scale_sums", {}};
  for (int s = first_scale; s < kScales; ++s)
    for_each_sum(sums.scale[static_cast<std::size_t>(s)], [&](const std::string& name, std::uint64_t v) {
      const std::uint64_t one[1] = {v};
      p.arrays.push_back(halves(fmt::format("scale{}/{}", s, name), one));
    });
  return p;
}

}  // namespace twinproof::adm
