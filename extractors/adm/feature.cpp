// adm's descriptor: what the shared layers know of this feature.
#include "extractors/feature.hpp"

#include "extractors/adm/arithmetic.hpp"
#include "extractors/adm/options.hpp"

namespace twinproof {
namespace {

// Bytes one frame must move on a device: both luma planes read once, and each scale's bands of
// both pictures (four 32-bit bands each) written once and read once.
DeviceTraffic adm_traffic(const Format& fmt, const OptionList&) {
  DeviceTraffic t;
  t.upload_bytes = 2.0 * fmt.width * fmt.height * fmt.bytes_per_sample();
  t.floor_bytes = t.upload_bytes;
  for (int s = 0; s < adm::kScales; ++s) {
    const adm::ScaleGeometry g = adm::scale_geometry(fmt.width, fmt.height, s);
    t.floor_bytes += 2.0 * 2 * 4 * 4 * g.w * g.h;
  }
  return t;
}

}  // namespace

const FeatureDescriptor& adm_feature() {
  static const FeatureDescriptor d{
      .name = "adm",
      .reference = "cpu",
      .summary =
          "libvmaf's integer ADM at four scales: a fixed-point Daubechies wavelet of the luma pair, decoupling into "
          "restored and additive parts, CSF and contrast masking, integer cube sums per scale, then adm2, aim and adm3",
      .metrics = {"adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2", "adm_scale3", "adm", "adm_num", "adm_den",
                  "adm_num_scale0", "adm_den_scale0", "adm_num_scale1", "adm_den_scale1", "adm_num_scale2", "adm_den_scale2",
                  "adm_num_scale3", "adm_den_scale3"},
      .stages = {{"dwt_bands", "wavelet bands", StageRole::data},
                 {"decoupled_bands", "decoupled bands", StageRole::data},
                 {"row_sums", "masked row sums", StageRole::partial_sums},
                 {"scale_sums", "scale sums", StageRole::sums},
                 {"outputs", "final output", StageRole::outputs}},
      .options = adm::option_table(),
      .lookahead = 0,
      .reads_distorted = true,
      .traffic = &adm_traffic,
      .probe_option_sets = {{{"debug", "true"}},
                            {{"debug", "true"}, {"adm_enhn_gain_limit", "1.0"}, {"adm_skip_scale0", "true"}},
                            {{"debug", "true"},
                             {"adm_csf_mode", "1"},
                             {"adm_norm_view_dist", "24"},
                             {"adm_ref_display_height", "4320"},
                             {"adm_skip_aim", "true"}}},
      .libvmaf_names = {{"adm2", "VMAF_integer_feature_adm2_score", "integer_adm2"},
                        {"aim", "VMAF_integer_feature_aim_score", "integer_aim"},
                        {"adm3", "VMAF_integer_feature_adm3_score", "integer_adm3"},
                        {"adm_scale0", "integer_adm_scale0", ""},
                        {"adm_scale1", "integer_adm_scale1", ""},
                        {"adm_scale2", "integer_adm_scale2", ""},
                        {"adm_scale3", "integer_adm_scale3", ""},
                        {"adm", "integer_adm", ""},
                        {"adm_num", "integer_adm_num", ""},
                        {"adm_den", "integer_adm_den", ""},
                        {"adm_num_scale0", "integer_adm_num_scale0", ""},
                        {"adm_den_scale0", "integer_adm_den_scale0", ""},
                        {"adm_num_scale1", "integer_adm_num_scale1", ""},
                        {"adm_den_scale1", "integer_adm_den_scale1", ""},
                        {"adm_num_scale2", "integer_adm_num_scale2", ""},
                        {"adm_den_scale2", "integer_adm_den_scale2", ""},
                        {"adm_num_scale3", "integer_adm_num_scale3", ""},
                        {"adm_den_scale3", "integer_adm_den_scale3", ""}},
  };
  return d;
}

}  // namespace twinproof
