// float_psnr's descriptor: what the shared layers know of this feature.
#include "extractors/feature.hpp"

#include "extractors/float_psnr/options.hpp"

namespace twinproof {

const FeatureDescriptor& float_psnr_feature() {
  static const FeatureDescriptor d{
      .name = "float_psnr",
      .reference = "cpu",
      .summary =
          "libvmaf's float PSNR of the luma: samples as fp32, each squared difference in fp32 added to a double in raster "
          "order, then 10 log10(peak^2 / MSE) with the depth's ceiling",
      .metrics = {"float_psnr"},
      .stages = {{"running_noise", "noise sum after each row", StageRole::partial_sums},
                 {"noise", "the frame's noise sum", StageRole::sums},
                 {"outputs", "final output", StageRole::outputs}},
      .options = float_psnr::option_table(),
      .lookahead = 0,
      .reads_distorted = true,
      .traffic = &luma_pair_traffic,
      .probe_option_sets = {{}},
      .libvmaf_names = {{"float_psnr", "float_psnr", ""}},
  };
  return d;
}

}  // namespace twinproof
