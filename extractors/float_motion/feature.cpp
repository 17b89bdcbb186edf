// float_motion's descriptor: what the shared layers know of this feature.
#include "extractors/feature.hpp"

#include "extractors/float_motion/motion.hpp"
#include "extractors/float_motion/options.hpp"
#include "extractors/float_motion/stages.hpp"

namespace twinproof {
namespace {

// Bytes one frame must move on a device: for every plane scored, its samples read once and its
// fp32 blurred plane written once and read once (as the previous frame of the next pair).
DeviceTraffic float_motion_traffic(const Format& fmt, const OptionList& options) {
  const float_motion::MotionOptions o = float_motion::parse_options(options);
  DeviceTraffic t;
  if (o.score.force_zero) return t;
  const ChromaShift cs = chroma_shift(fmt.chroma);
  for (int p = 0; p < (o.add_uv ? 3 : 1); ++p) {
    const double n = p == 0 ? double(fmt.width) * fmt.height : double(fmt.width >> cs.hs) * (fmt.height >> cs.vs);
    t.upload_bytes += n * fmt.bytes_per_sample();
    t.floor_bytes += n * fmt.bytes_per_sample() + 2 * 4 * n;
  }
  return t;
}

}  // namespace

const FeatureDescriptor& float_motion_feature() {
  static const FeatureDescriptor d{
      .name = "float_motion",
      .reference = "cpu",
      .summary = "libvmaf's float_motion: fp32 5-tap blur of each frame, SAD of consecutive blurred frames",
      .metrics = {"motion", "motion2", "motion3"},
      .stages = {std::begin(float_motion::kStages), std::end(float_motion::kStages)},
      .options = float_motion::option_table(),
      .lookahead = 1,
      .traffic = &float_motion_traffic,
      .probe_option_sets = {{},
                            {{"motion_add_uv", "true"}},
                            {{"motion_add_uv", "true"}, {"motion_add_scale1", "true"}},
                            {{"motion_filter_size", "3"}},
                            {{"motion_filter_size", "1"}, {"motion_add_scale1", "true"}},
                            motion::score_probe_options("20")},
      // In the order libvmaf's extractor first emits them (its output follows that order).
      .libvmaf_names = {{"motion2", "VMAF_feature_motion2_score", "motion2"},
                        {"motion", "VMAF_feature_motion_score", "motion"},
                        {"motion3", "VMAF_feature_motion3_score", "motion3"}},
  };
  return d;
}

}  // namespace twinproof
