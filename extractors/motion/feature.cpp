// Integer motion's descriptor: what the shared layers know of this feature.
#include "extractors/feature.hpp"

#include "extractors/motion/options.hpp"

namespace twinproof {
namespace {

// Bytes one frame must move on a device: the pair's two luma planes read once each (the
// difference needs both; nothing is written but the total).
DeviceTraffic motion_traffic(const Format& fmt, const OptionList& options) {
  const motion::MotionOptions o = motion::parse_options(options);
  DeviceTraffic t;
  if (o.score.force_zero) return t;
  const double n = double(fmt.width) * fmt.height * fmt.bytes_per_sample();
  t.upload_bytes = n;
  t.floor_bytes = 2 * n;
  return t;
}

}  // namespace

const FeatureDescriptor& motion_feature() {
  static const FeatureDescriptor d{
      .name = "motion",
      .reference = "cpu",
      .summary = "libvmaf's integer motion: exact integer 5-tap blur of the luma difference of two frames",
      .metrics = {"motion_sad", "motion", "motion2", "motion3"},
      .stages = {{"difference", "difference (earlier - later)", StageRole::data},
                 {"vertical", "vertical pass", StageRole::data},
                 {"horizontal", "horizontal pass", StageRole::data},
                 {"row_sums", "row sums", StageRole::partial_sums},
                 {"total", "frame total", StageRole::sums},
                 {"frame_score", "frame score", StageRole::sums},
                 {"outputs", "final output", StageRole::outputs}},
      .options = motion::option_table(),
      .lookahead = 1,
      .traffic = &motion_traffic,
      .probe_option_sets = {{},
                            {{"debug", "true"}},
                            {{"motion_five_frame_window", "true"}, {"motion_moving_average", "true"}},
                            motion::score_probe_options("50.75")},
      .libvmaf_names = {{"motion_sad", "VMAF_integer_feature_motion_sad_score", ""},
                        {"motion", "VMAF_integer_feature_motion_score", "integer_motion"},
                        {"motion2", "VMAF_integer_feature_motion2_score", "integer_motion2"},
                        {"motion3", "VMAF_integer_feature_motion3_score", "integer_motion3"}},
  };
  return d;
}

}  // namespace twinproof
