#include "extractors/vif/options.hpp"

#include <cstddef>

namespace twinproof::vif {

std::span<const OptionSpec> option_table() {
  using O = VifOptions;
  // libvmaf names its outputs after the two feature parameters when they leave their defaults
  // (`_egl_1`, `_ssclz`); debug only adds outputs.
  static const OptionSpec table[] = {
      debug_option(offsetof(O, debug), "emit vif, vif_num, vif_den and each scale's numerator and denominator too"),
      {.name = "vif_enhn_gain_limit",
       .alias = "egl",
       .type = OptionType::real,
       .default_text = "100",
       .min = 1.0,
       .max = 100.0,
       .offset = offsetof(O, vif_enhn_gain_limit),
       .help = "the cap on the gain g = sigma12 / sigma1^2 (1: no enhancement counts)",
       .names_output = true},
      flag_option("vif_skip_scale0", "ssclz", offsetof(O, vif_skip_scale0), "skip scale 0's statistics: vif_scale0 is 0"),
  };
  return table;
}

VifOptions parse_options(const OptionList& given) { return parse_options_as<VifOptions>(option_table(), given); }

}  // namespace twinproof::vif
