// float_motion's options: names, aliases, ranges and defaults of spec/float_motion.md.
#pragma once

#include <string>
#include <vector>

#include "extractors/extractor.hpp"

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

enum class OptionType { boolean, integer, real };

struct OptionSpec {
  const char* name;
  const char* alias;  // nullptr: none
  OptionType type;
  const char* default_text;
  double min, max;    // inclusive; unused for booleans
};

const std::vector<OptionSpec>& option_specs();

// Parses options given by libvmaf name or alias. Throws ConfigError naming the option, the
// value and the allowed range for an unknown name, a repeated option, a malformed value or one
// out of range. The value is used exactly as given.
MotionOptions parse_options(const OptionList& given);

// "allowed: ..." text for one option (true/false, an integer in [0, 9], ...).
std::string allowed_values(const OptionSpec& spec);

}  // namespace twinproof::float_motion
