// vmaf's descriptor: what the shared layers know of the VMAF score.
#include "extractors/feature.hpp"

#include <set>

#include "extractors/vmaf/model.hpp"
#include "extractors/vmaf/options.hpp"

namespace twinproof {
namespace {

vmaf::Model model_of(const OptionList& options) { return vmaf::load_model(vmaf::parse_options(options)); }

// What the model's features move on a device, each feature's own traffic added (each twin uploads
// its pictures itself).
DeviceTraffic vmaf_traffic(const Format& fmt, const OptionList& options) {
  DeviceTraffic total;
  const vmaf::Model m = model_of(options);
  std::set<std::string> seen;
  for (const vmaf::ModelFeature& f : m.features) {
    if (!seen.insert(f.feature).second) continue;
    const FeatureDescriptor* d = find_feature(f.feature);
    if (d == nullptr || d->traffic == nullptr) continue;
    const DeviceTraffic t = d->traffic(fmt, f.options);
    total.floor_bytes += t.floor_bytes;
    total.upload_bytes += t.upload_bytes;
  }
  return total;
}

// The score is the model's name ("vmaf"); the pooled scores are the libvmaf driver's own keys for
// libvmaf's pooling of frames 0..t; a model feature is keyed as its feature keys it under the
// model's options for it.
std::string vmaf_key(std::string_view metric, const OptionList& options, LibvmafKey which) {
  if (metric.rfind("vmaf", 0) == 0) return std::string(metric);
  for (const vmaf::ModelFeature& f : model_of(options).features)
    if (f.metric == metric) return libvmaf_metric_name(feature_or_throw(f.feature), metric, f.options, which);
  throw UsageError("metric", std::string(metric), "feature vmaf: the model has no feature '" + std::string(metric) + "'");
}

// libvmaf's tools take a built-in model by version and any other by path, then the model's
// settings. The options go through as given, unchecked: where the reference refuses them, the
// tool is asked the same question and its answer is what the cell judges.
std::string vmaf_tool_model(const OptionList& options) {
  std::string model = vmaf::VmafOptions{}.model, settings;
  for (const auto& [name, value] : options) {
    if (name == "model") model = value;
    else settings += ":" + name + "=" + value;
  }
  return (vmaf::find_built_in_model(model) ? "version=" : "path=") + model + settings;
}

}  // namespace

const FeatureDescriptor& vmaf_feature() {
  static const FeatureDescriptor d{
      .name = "vmaf",
      .reference = "cpu",
      .summary =
          "libvmaf's VMAF score: a model's support-vector regression over integer adm2, motion2 and vif_scale0..3 "
          "per frame, and its pooled scores over frames 0..t",
      .metrics = {"vmaf", "vmaf_mean", "vmaf_harmonic_mean", "vmaf_min", "vmaf_max", "adm2", "motion2", "vif_scale0",
                  "vif_scale1", "vif_scale2", "vif_scale3"},
      .stages = {{"features", "model features", StageRole::data}, {"outputs", "final output", StageRole::outputs}},
      .options = vmaf::option_table(),
      .lookahead = 1,
      .reads_distorted = true,
      .traffic = &vmaf_traffic,
      // The neg model reaches adm's and vif's gain limits; the other models change only the shared prediction.
      .probe_option_sets = {{}, {{"model", "vmaf_v0.6.1neg"}}},
      .built_from = {"adm", "motion", "vif"},
      .libvmaf_names = {{"vmaf", "vmaf", ""},
                        {"vmaf_mean", "vmaf_mean", "", false},
                        {"vmaf_harmonic_mean", "vmaf_harmonic_mean", "", false},
                        {"vmaf_min", "vmaf_min", "", false},
                        {"vmaf_max", "vmaf_max", "", false},
                        {"adm2", "VMAF_integer_feature_adm2_score", "integer_adm2"},
                        {"motion2", "VMAF_integer_feature_motion2_score", "integer_motion2"},
                        {"vif_scale0", "VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0"},
                        {"vif_scale1", "VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1"},
                        {"vif_scale2", "VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2"},
                        {"vif_scale3", "VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3"}},
      .libvmaf_key = &vmaf_key,
      .libvmaf_model = &vmaf_tool_model,
  };
  return d;
}

}  // namespace twinproof
