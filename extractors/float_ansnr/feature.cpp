// float_ansnr's descriptor: what the shared layers know of this feature.
#include "extractors/feature.hpp"

#include "extractors/float_ansnr/options.hpp"

namespace twinproof {

const FeatureDescriptor& float_ansnr_feature() {
  static const FeatureDescriptor d{
      .name = "float_ansnr",
      .reference = "cpu",
      .summary =
          "libvmaf's float ANSNR and ANPSNR of the luma: a 3x3 filter of the reference and a 5x5 filter of the distorted "
          "picture in fp32, each row's signal and noise energy in fp32, the rows added in fp32",
      .metrics = {"float_ansnr", "float_anpsnr"},
      .stages = {{"filtered", "both filtered pictures", StageRole::data},
                 {"row_energy", "each row's signal and noise energy", StageRole::partial_sums},
                 {"energy", "the frame's signal and noise energy", StageRole::sums},
                 {"outputs", "final output", StageRole::outputs}},
      .options = float_ansnr::option_table(),
      .lookahead = 0,
      .reads_distorted = true,
      .traffic = &luma_pair_traffic,
      .probe_option_sets = {{}},
      .libvmaf_names = {{"float_ansnr", "float_ansnr", ""}, {"float_anpsnr", "float_anpsnr", ""}},
  };
  return d;
}

}  // namespace twinproof
