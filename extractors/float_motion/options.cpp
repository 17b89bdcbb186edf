#include "extractors/float_motion/options.hpp"

#include <cstddef>

namespace twinproof::float_motion {

std::span<const OptionSpec> option_table() {
  using O = MotionOptions;
  // In libvmaf's order.
  static const OptionSpec table[] = {
      motion::force_zero_option<O>(),
      motion::fps_weight_option<O>(),
      motion::blend_factor_option<O>(),
      motion::blend_offset_option<O>(),
      flag_option("motion_add_scale1", "mdc", offsetof(O, add_scale1), "add the half-size planes' score"),
      {.name = "motion_filter_size",
       .alias = "mfs",
       .type = OptionType::integer,
       .default_text = "5",
       .min = 0,
       .max = 9,
       .offset = offsetof(O, filter_size),
       .help = "blur taps: 3, 1 (identity) or 5"},
      flag_option("motion_add_uv", "mau", offsetof(O, add_uv), "score chroma planes too"),
      motion::max_val_option<O>("clip of every output"),
      debug_option(offsetof(O, debug), "emit `motion`", "true"),
  };
  return table;
}

MotionOptions parse_options(const OptionList& given) { return parse_options_as<MotionOptions>(option_table(), given); }

}  // namespace twinproof::float_motion
