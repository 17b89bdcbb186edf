// vif's options (extractors/vif/CONTRACT.md), as a table the shared parser reads: libvmaf's
// integer VIF extractor's own, with its defaults, aliases and ranges.
#pragma once

#include <span>

#include "extractors/feature.hpp"

namespace twinproof::vif {

struct VifOptions {
  bool debug = false;                // the combined score and every scale's numerator and denominator too
  double vif_enhn_gain_limit = 100;  // the gain g is capped here (1: no enhancement counts)
  bool vif_skip_scale0 = false;      // scale 0's statistics are not computed; its score is 0
};

std::span<const OptionSpec> option_table();
VifOptions parse_options(const OptionList& given);

}  // namespace twinproof::vif
