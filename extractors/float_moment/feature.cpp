// float_moment's descriptor: what the shared layers know of this feature.
#include "extractors/feature.hpp"

#include "extractors/float_moment/options.hpp"

namespace twinproof {

const FeatureDescriptor& float_moment_feature() {
  static const FeatureDescriptor d{
      .name = "float_moment",
      .reference = "cpu",
      .summary =
          "libvmaf's float moments of the luma: each picture's mean sample and mean fp32 square, each sum a double added in "
          "raster order",
      .metrics = {"float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd", "float_moment_dis2nd"},
      .stages = {{"running_sums", "the four sums after each row", StageRole::partial_sums},
                 {"sums", "the frame's four sums", StageRole::sums},
                 {"outputs", "final output", StageRole::outputs}},
      .options = float_moment::option_table(),
      .lookahead = 0,
      .reads_distorted = true,
      .traffic = &luma_pair_traffic,
      .probe_option_sets = {{}},
      .libvmaf_names = {{"float_moment_ref1st", "float_moment_ref1st", ""},
                        {"float_moment_dis1st", "float_moment_dis1st", ""},
                        {"float_moment_ref2nd", "float_moment_ref2nd", ""},
                        {"float_moment_dis2nd", "float_moment_dis2nd", ""}},
  };
  return d;
}

}  // namespace twinproof
