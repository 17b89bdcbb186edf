// vif's descriptor: what the shared layers know of this feature.
#include "extractors/feature.hpp"

#include "extractors/vif/arithmetic.hpp"
#include "extractors/vif/options.hpp"

namespace twinproof {
namespace {

// Bytes one frame must move on a device: both luma planes read once, and each later scale's two
// 16-bit pictures written once and read once.
DeviceTraffic vif_traffic(const Format& fmt, const OptionList&) {
  DeviceTraffic t;
  t.upload_bytes = 2.0 * fmt.width * fmt.height * fmt.bytes_per_sample();
  t.floor_bytes = t.upload_bytes;
  for (int s = 1; s < vif::kScales; ++s) {
    const PlaneSize ps = vif::scale_size(fmt, s);
    t.floor_bytes += 2.0 * 2 * 2 * ps.w * ps.h;
  }
  return t;
}

}  // namespace

const FeatureDescriptor& vif_feature() {
  static const FeatureDescriptor d{
      .name = "vif",
      .reference = "cpu",
      .summary =
          "libvmaf's integer VIF at four scales: 16-bit fixed-point Gaussian statistics of the luma pair, integer log2 "
          "sums per scale, then each scale's numerator over its denominator",
      .metrics = {"vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3", "vif", "vif_num", "vif_den", "vif_num_scale0",
                  "vif_den_scale0", "vif_num_scale1", "vif_den_scale1", "vif_num_scale2", "vif_den_scale2", "vif_num_scale3",
                  "vif_den_scale3"},
      .stages = {{"scale_pictures", "scale 1-3 pictures", StageRole::data},
                 {"row_sums", "row sums per scale", StageRole::partial_sums},
                 {"scale_sums", "scale sums", StageRole::sums},
                 {"outputs", "final output", StageRole::outputs}},
      .options = vif::option_table(),
      .lookahead = 0,
      .reads_distorted = true,
      .traffic = &vif_traffic,
      .probe_option_sets = {{{"debug", "true"}},
                            {{"debug", "true"}, {"vif_enhn_gain_limit", "1.0"}},
                            {{"debug", "true"}, {"vif_skip_scale0", "true"}, {"vif_enhn_gain_limit", "1.5"}}},
      .libvmaf_names = {{"vif_scale0", "VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0"},
                        {"vif_scale1", "VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1"},
                        {"vif_scale2", "VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2"},
                        {"vif_scale3", "VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3"},
                        {"vif", "integer_vif", ""},
                        {"vif_num", "integer_vif_num", ""},
                        {"vif_den", "integer_vif_den", ""},
                        {"vif_num_scale0", "integer_vif_num_scale0", ""},
                        {"vif_den_scale0", "integer_vif_den_scale0", ""},
                        {"vif_num_scale1", "integer_vif_num_scale1", ""},
                        {"vif_den_scale1", "integer_vif_den_scale1", ""},
                        {"vif_num_scale2", "integer_vif_num_scale2", ""},
                        {"vif_den_scale2", "integer_vif_den_scale2", ""},
                        {"vif_num_scale3", "integer_vif_num_scale3", ""},
                        {"vif_den_scale3", "integer_vif_den_scale3", ""}},
  };
  return d;
}

}  // namespace twinproof
