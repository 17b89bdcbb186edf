// float_motion's options: names, aliases, ranges and defaults of its contract
// (extractors/float_motion/CONTRACT.md), as a table the shared parser reads. The score's weight,
// clip and blend are libvmaf's motion options, as integer motion takes them.
#pragma once

#include <span>

#include "extractors/feature.hpp"
#include "extractors/motion/options.hpp"

namespace twinproof::float_motion {

struct MotionOptions {
  motion::ScoreOptions score;
  bool add_scale1 = false;  // motion_add_scale1, mdc
  int filter_size = 5;      // motion_filter_size, mfs       [0, 9]
  bool add_uv = false;      // motion_add_uv, mau
  bool debug = true;        // debug: emit `motion`
};

std::span<const OptionSpec> option_table();

// Through the shared parser: throws ConfigError naming the option, the value and the range.
MotionOptions parse_options(const OptionList& given);

}  // namespace twinproof::float_motion
