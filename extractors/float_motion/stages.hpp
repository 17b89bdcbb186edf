// float_motion's pipeline stages, in order: its descriptor's list and the ids inspect() takes.
#pragma once

#include <iterator>
#include <optional>
#include <string_view>

#include "extractors/feature.hpp"

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

// Each stage's id, label and role, in pipeline order (the descriptor's list).
inline constexpr StageInfo kStages[] = {{"converted", "converted planes", StageRole::data},
                                        {"vertical", "vertical pass", StageRole::data},
                                        {"blurred", "blur", StageRole::data},
                                        {"downscaled", "downscale", StageRole::data},
                                        {"row_sums", "row sums", StageRole::partial_sums},
                                        {"plane_totals", "plane totals", StageRole::sums},
                                        {"plane_scores", "plane scores", StageRole::sums},
                                        {"frame_score", "frame score", StageRole::sums},
                                        {"outputs", "final output", StageRole::outputs}};
static_assert(std::size(kStages) == static_cast<std::size_t>(Stage::outputs) + 1);

inline std::string_view stage_id(Stage s) { return kStages[static_cast<int>(s)].id; }
inline std::optional<Stage> parse_stage(std::string_view id) {
  for (int i = 0; i < static_cast<int>(std::size(kStages)); ++i)
    if (kStages[i].id == id) return static_cast<Stage>(i);
  return std::nullopt;
}

}  // namespace twinproof::float_motion
