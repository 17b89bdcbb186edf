// Integer motion's options (extractors/motion/CONTRACT.md), as a table the shared parser reads,
// and the options libvmaf's two motion extractors share (float_motion's table takes those rows).
#pragma once

#include <cstddef>
#include <span>

#include "extractors/feature.hpp"

namespace twinproof::motion {

// What libvmaf's integer motion and float_motion extractors both take, under the same names,
// aliases and ranges: the scores' weight and clip, motion3's blend, and scores forced to 0.
struct ScoreOptions {
  bool force_zero = false;     // motion_force_zero, force_0
  double fps_weight = 1.0;     // motion_fps_weight, mfw        [0, 5]
  double blend_factor = 1.0;   // motion_blend_factor, mbf      [0, 1]
  double blend_offset = 40.0;  // motion_blend_offset, mbo      [0, 1000]
  double max_val = 10000.0;    // motion_max_val, mmxv          [0, 10000]
};

// Their rows, for an options struct O that holds them as `score`.
template <class O>
constexpr OptionSpec force_zero_option() {
  return {.name = "motion_force_zero",
          .alias = "force_0",
          .type = OptionType::boolean,
          .default_text = "false",
          .min = 0,
          .max = 0,
          .offset = offsetof(O, score.force_zero),
          .help = "every score is 0; no pixel is read"};
}
template <class O>
constexpr OptionSpec fps_weight_option() {
  return {.name = "motion_fps_weight",
          .alias = "mfw",
          .type = OptionType::real,
          .default_text = "1.0",
          .min = 0,
          .max = 5,
          .offset = offsetof(O, score.fps_weight),
          .help = "multiplies each frame's score"};
}
template <class O>
constexpr OptionSpec blend_factor_option() {
  return {.name = "motion_blend_factor",
          .alias = "mbf",
          .type = OptionType::real,
          .default_text = "1.0",
          .min = 0,
          .max = 1,
          .offset = offsetof(O, score.blend_factor),
          .help = "motion3 blend weight"};
}
template <class O>
constexpr OptionSpec blend_offset_option() {
  return {.name = "motion_blend_offset",
          .alias = "mbo",
          .type = OptionType::real,
          .default_text = "40.0",
          .min = 0,
          .max = 1000,
          .offset = offsetof(O, score.blend_offset),
          .help = "motion3 blend offset"};
}
// `help`: what the clip applies to (the two extractors differ).
template <class O>
constexpr OptionSpec max_val_option(const char* help) {
  return {.name = "motion_max_val",
          .alias = "mmxv",
          .type = OptionType::real,
          .default_text = "10000.0",
          .min = 0,
          .max = 10000,
          .offset = offsetof(O, score.max_val),
          .help = help};
}

// An option set that moves every ScoreOptions value off its default, clipping at `max_val`: both
// motion features probe their score arithmetic with it.
inline OptionList score_probe_options(const char* max_val) {
  return {
      {"motion_fps_weight", "1.75"}, {"motion_max_val", max_val}, {"motion_blend_factor", "0.25"}, {"motion_blend_offset", "10"}};
}

struct MotionOptions {
  ScoreOptions score;
  bool five_frame_window = false;  // motion_five_frame_window, mffw
  bool moving_average = false;     // motion_moving_average, mma
  bool debug = false;              // debug: emit `motion` (false here, unlike float_motion)
};

std::span<const OptionSpec> option_table();
MotionOptions parse_options(const OptionList& given);

}  // namespace twinproof::motion
