// Integer motion's options (extractors/motion/CONTRACT.md), as a table the shared parser reads.
#pragma once

#include <span>

#include "extractors/feature.hpp"

namespace twinproof::motion {

struct MotionOptions {
  bool force_zero = false;         // motion_force_zero, force_0
  double blend_factor = 1.0;       // motion_blend_factor, mbf     [0, 1]
  double blend_offset = 40.0;      // motion_blend_offset, mbo     [0, 1000]
  double fps_weight = 1.0;         // motion_fps_weight, mfw       [0, 5]
  double max_val = 10000.0;        // motion_max_val, mmxv         [0, 10000]
  bool five_frame_window = false;  // motion_five_frame_window, mffw
  bool moving_average = false;     // motion_moving_average, mma
  bool debug = false;              // debug: emit `motion` (false here, unlike float_motion)
};

std::span<const OptionSpec> option_table();
MotionOptions parse_options(const OptionList& given);

}  // namespace twinproof::motion
