// float_motion's options: names, aliases, ranges and defaults of its contract
// (extractors/float_motion/CONTRACT.md), as a table the shared parser reads.
#pragma once

#include <span>

#include "extractors/feature.hpp"

namespace twinproof::float_motion {

struct MotionOptions {
  bool force_zero = false;     // motion_force_zero, force_0
  double fps_weight = 1.0;     // motion_fps_weight, mfw        [0, 5]
  double blend_factor = 1.0;   // motion_blend_factor, mbf      [0, 1]
  double blend_offset = 40.0;  // motion_blend_offset, mbo      [0, 1000]
  bool add_scale1 = false;     // motion_add_scale1, mdc
  int filter_size = 5;         // motion_filter_size, mfs       [0, 9]
  bool add_uv = false;         // motion_add_uv, mau
  double max_val = 10000.0;    // motion_max_val, mmxv          [0, 10000]
  bool debug = true;           // debug: emit `motion`
};

std::span<const OptionSpec> option_table();

// Through the shared parser: throws ConfigError naming the option, the value and the range.
MotionOptions parse_options(const OptionList& given);

}  // namespace twinproof::float_motion
