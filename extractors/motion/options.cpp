#include "extractors/motion/options.hpp"

#include <cstddef>

namespace twinproof::motion {

std::span<const OptionSpec> option_table() {
  using O = MotionOptions;
  static const OptionSpec table[] = {
      {"motion_force_zero", "force_0", OptionType::boolean, "false", 0, 0, offsetof(O, force_zero),
       "every score is 0; no pixel is read"},
      {"motion_blend_factor", "mbf", OptionType::real, "1.0", 0, 1, offsetof(O, blend_factor), "motion3 blend weight"},
      {"motion_blend_offset", "mbo", OptionType::real, "40.0", 0, 1000, offsetof(O, blend_offset), "motion3 blend offset"},
      {"motion_fps_weight", "mfw", OptionType::real, "1.0", 0, 5, offsetof(O, fps_weight), "multiplies each frame's score"},
      {"motion_max_val", "mmxv", OptionType::real, "10000.0", 0, 10000, offsetof(O, max_val), "clip of the score and of motion3"},
      {"motion_five_frame_window", "mffw", OptionType::boolean, "false", 0, 0, offsetof(O, five_frame_window),
       "SAD of frames t-2 and t; motion2 from the neighbours"},
      {"motion_moving_average", "mma", OptionType::boolean, "false", 0, 0, offsetof(O, moving_average),
       "motion3 as the mean of this and the previous frame's"},
      {"debug", nullptr, OptionType::boolean, "false", 0, 0, offsetof(O, debug), "emit `motion`", false},
  };
  return table;
}

MotionOptions parse_options(const OptionList& given) { return parse_options_as<MotionOptions>(option_table(), given); }

}  // namespace twinproof::motion
