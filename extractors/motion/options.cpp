#include "extractors/motion/options.hpp"

namespace twinproof::motion {

std::span<const OptionSpec> option_table() {
  using O = MotionOptions;
  // In libvmaf's order.
  static const OptionSpec table[] = {
      force_zero_option<O>(),
      blend_factor_option<O>(),
      blend_offset_option<O>(),
      fps_weight_option<O>(),
      max_val_option<O>("clip of the score and of motion3"),
      flag_option("motion_five_frame_window", "mffw", offsetof(O, five_frame_window),
                  "SAD of frames t-2 and t; motion2 from the neighbours"),
      flag_option("motion_moving_average", "mma", offsetof(O, moving_average),
                  "motion3 as the mean of this and the previous frame's"),
      debug_option(offsetof(O, debug), "emit `motion`"),
  };
  return table;
}

MotionOptions parse_options(const OptionList& given) { return parse_options_as<MotionOptions>(option_table(), given); }

}  // namespace twinproof::motion
