// float_motion's pipeline stages, in order: the ids its descriptor lists and inspect() takes.
#pragma once

#include <optional>
#include <string_view>

namespace twinproof::float_motion {

enum class Stage {
  converted,     // samples as fp32, per plane
  vertical,      // after the vertical blur pass
  blurred,       // after the horizontal pass
  downscaled,    // bilinear half-size planes (motion_add_scale1)
  row_sums,      // per-row SAD of the latest frame pair
  plane_totals,  // per-plane sum of the row sums (and the scale1 total)
  plane_scores,  // per-plane score
  frame_score,   // S(t-1, t), the frame's score in double
  outputs,       // clipped and blended outputs emitted for the frame
};

inline constexpr std::string_view kStageIds[] = {"converted",    "vertical",     "blurred",     "downscaled", "row_sums",
                                                 "plane_totals", "plane_scores", "frame_score", "outputs"};

inline std::string_view stage_id(Stage s) { return kStageIds[static_cast<int>(s)]; }
inline std::optional<Stage> parse_stage(std::string_view id) {
  for (int i = 0; i < static_cast<int>(std::size(kStageIds)); ++i)
    if (kStageIds[i] == id) return static_cast<Stage>(i);
  return std::nullopt;
}

}  // namespace twinproof::float_motion
