#include "extractors/vif/frame_loop.hpp"

#include <fmt/format.h>

#include "extractors/format_checks.hpp"

namespace twinproof::vif {
namespace {
constexpr const char* kScaleScore[kScales] = {"vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3"};
constexpr const char* kScaleNum[kScales] = {"vif_num_scale0", "vif_num_scale1", "vif_num_scale2", "vif_num_scale3"};
constexpr const char* kScaleDen[kScales] = {"vif_den_scale0", "vif_den_scale1", "vif_den_scale2", "vif_den_scale3"};
constexpr const char* kSumNames[4] = {"num_log", "den_log", "num_non_log", "den_non_log"};

std::array<std::int64_t, 4> sums_of(const ScaleSums& s) { return {s.num_log, s.den_log, s.num_non_log, s.den_non_log}; }
}  // namespace

void VifExtractor::init(const Format& fmt, const OptionList& options) {
  opts_ = parse_options(options);
  refuse_small_luma(
      fmt, "vif", kMinSize,
      fmt::format("scale 3's picture ({}x{}) must be larger than its filter's half-width", fmt.width >> 3, fmt.height >> 3));
  params_ = {.first_scale = opts_.vif_skip_scale0 ? 1 : 0, .gain_limit = opts_.vif_enhn_gain_limit};
  engine().init(fmt, params_);
  start(fmt);
}

std::vector<std::string> VifExtractor::metrics() const {
  std::vector<std::string> m(std::begin(kScaleScore), std::end(kScaleScore));
  if (opts_.debug) append_scale_debug_metrics(m, "vif", kScales);
  return m;
}

std::pair<double, double> VifExtractor::combined(std::span<const NumDen, kScales> scales) const {
  double num = 0, den = 0;
  for (int s = params_.first_scale; s < kScales; ++s) {
    if (s == params_.first_scale) {
      num = static_cast<double>(scales[s].num);
      den = static_cast<double>(scales[s].den);
    } else {
      num = num + static_cast<double>(scales[s].num);
      den = den + static_cast<double>(scales[s].den);
    }
  }
  return {num, den};
}

void VifExtractor::emit_scores(const FrameSums& sums, const Emit& emit) const {
  std::array<NumDen, kScales> nd{};
  for (int s = params_.first_scale; s < kScales; ++s) nd[s] = scale_num_den(sums.scale[s]);
  // A skipped scale 0 scores 0 (and, with debug, a numerator 0 over a denominator -1).
  if (params_.first_scale > 0) nd[0] = {0.0f, -1.0f};
  for (int s = 0; s < kScales; ++s) {
    const float score = s < params_.first_scale ? 0.0f : nd[s].num / nd[s].den;  // a float quotient
    emit(kScaleScore[s], static_cast<double>(score));
  }
  if (!opts_.debug) return;
  const auto [num, den] = combined(nd);
  emit("vif", den == 0.0 ? 1.0 : num / den);
  emit("vif_num", num);
  emit("vif_den", den);
  for (int s = 0; s < kScales; ++s) {
    emit(kScaleNum[s], static_cast<double>(nd[s].num));
    emit(kScaleDen[s], static_cast<double>(nd[s].den));
  }
}

Probe scale_pictures_probe(std::span<const std::vector<std::uint16_t>, kScales> ref,
                           std::span<const std::vector<std::uint16_t>, kScales> dist, const Format& fmt) {
  Probe p{"scale_pictures", {}};
  for (int s = 1; s < kScales; ++s) {
    const PlaneSize ps = scale_size(fmt, s);
    for (const auto& [who, pic] : {std::pair{"ref", &ref[s]}, std::pair{"dist", &dist[s]}})
      p.arrays.push_back(
          ProbeArray{fmt::format("{}/scale{}", who, s), ps.w, ps.h, false, std::vector<double>(pic->begin(), pic->end())});
  }
  return p;
}

Probe row_sums_probe(std::span<const std::vector<ScaleSums>, kScales> rows, int first_scale) {
  Probe p{"row_sums", {}};
  for (int s = first_scale; s < kScales; ++s)
    for (int k = 0; k < 4; ++k) {
      std::vector<double> column;
      column.reserve(rows[s].size());
      for (const ScaleSums& r : rows[s]) column.push_back(static_cast<double>(sums_of(r)[k]));
      p.arrays.push_back(
          ProbeArray{fmt::format("scale{}/{}", s, kSumNames[k]), 1, static_cast<int>(column.size()), false, std::move(column)});
    }
  return p;
}

Probe scale_sums_probe(const FrameSums& sums, int first_scale) {
  Probe p{"scale_sums", {}};
  for (int s = first_scale; s < kScales; ++s)
    for (int k = 0; k < 4; ++k) {
      const auto v = static_cast<std::uint64_t>(sums_of(sums.scale[s])[k]);
      p.arrays.push_back(ProbeArray{fmt::format("scale{}/{}", s, kSumNames[k]),
                                    2,
                                    1,
                                    false,
                                    {static_cast<double>(v >> 32), static_cast<double>(v & 0xffffffffu)}});
    }
  return p;
}

}  // namespace twinproof::vif
