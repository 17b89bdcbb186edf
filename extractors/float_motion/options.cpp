#include "options.hpp"

#include <cstddef>

namespace twinproof::float_motion {

std::span<const OptionSpec> option_table() {
  using O = MotionOptions;
  static const OptionSpec table[] = {
      {"motion_force_zero", "force_0", OptionType::boolean, "false", 0, 0, offsetof(O, force_zero),
       "every score is 0; no pixel is read"},
      {"motion_fps_weight", "mfw", OptionType::real, "1.0", 0, 5, offsetof(O, fps_weight), "multiplies each frame's score"},
      {"motion_blend_factor", "mbf", OptionType::real, "1.0", 0, 1, offsetof(O, blend_factor), "motion3 blend weight"},
      {"motion_blend_offset", "mbo", OptionType::real, "40.0", 0, 1000, offsetof(O, blend_offset), "motion3 blend offset"},
      {"motion_add_scale1", "mdc", OptionType::boolean, "false", 0, 0, offsetof(O, add_scale1),
       "add the half-size planes' score"},
      {"motion_filter_size", "mfs", OptionType::integer, "5", 0, 9, offsetof(O, filter_size), "blur taps: 3, 1 (identity) or 5"},
      {"motion_add_uv", "mau", OptionType::boolean, "false", 0, 0, offsetof(O, add_uv), "score chroma planes too"},
      {"motion_max_val", "mmxv", OptionType::real, "10000.0", 0, 10000, offsetof(O, max_val), "clip of every output"},
      {"debug", nullptr, OptionType::boolean, "true", 0, 0, offsetof(O, debug), "emit `motion`", false},
  };
  return table;
}

MotionOptions parse_options(const OptionList& given) { return parse_options_as<MotionOptions>(option_table(), given); }

}  // namespace twinproof::float_motion
