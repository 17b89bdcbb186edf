// One twin check, checkasm's way: the same frames through the reference and a twin, every stage
// the twin exposes and every output compared bit for bit after each frame. The tests assert on
// its report; repro prints the same comparison of stages.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "extractors/feature.hpp"
#include "extractors/registry.hpp"
#include "harness/io/frame.hpp"
#include "harness/scoring/scores.hpp"

namespace twinproof {

// One stage's comparison on one frame.
struct StageDiff {
  std::string stage;  // the descriptor's stage id
  std::string label;  // and its label
  bool ref_has = false, twin_has = false;
  bool equal = true;
  std::size_t differing = 0;
  std::string where;  // "plane Y, row 17, column 23"
  double ref_value = 0, twin_value = 0;
  bool fp32 = true;
};

// Compares one stage of two backends: equal bit for bit, or where the first difference is.
StageDiff compare_stage(const StageInfo& s, const std::optional<Probe>& ref, const std::optional<Probe>& twin);

struct TwinCheckReport {
  bool refused = false;           // both refused the configuration at init (nothing to compare)
  bool equal = true;              // every exposed stage and every output has the same bits
  std::optional<unsigned> frame;  // the first frame where something differs
  bool stages_compared = false;   // some stage was exposed by both (an exec twin exposes none)
  std::vector<StageDiff> stages;  // that frame's stages, pipeline order
  TableComparison outputs;        // every metric of every frame
  std::string summary() const;    // one line
};

// Frames of `fmt` whose samples are uniformly random below 2^bitdepth.
std::vector<Frame> random_frames(const Format& fmt, unsigned count, std::uint64_t seed);

// Runs both backends over `frames` with `options`, capturing stages. The reference runs on one
// thread; the twin on `twin_threads` (ExtractorContext::threads).
// `frames` is scored as its own distorted clip.
TwinCheckReport check_twin(const FeatureDescriptor& feature, const Backend& reference, const Backend& twin,
                           const std::vector<Frame>& frames, const OptionList& options, int device = 0,
                           unsigned twin_threads = 1);
// The same over a pair of clips: frame t of `frames` with frame t of `distorted` (as many).
TwinCheckReport check_twin_pair(const FeatureDescriptor& feature, const Backend& reference, const Backend& twin,
                                const std::vector<Frame>& frames, const std::vector<Frame>& distorted, const OptionList& options,
                                int device = 0, unsigned twin_threads = 1);
// The same over frame pairs of `fmt` streamed from `next_pair` (the next pair, valid until the
// next call; a null reference: no more), labelled from `first_label`: repro bisects a clip this
// way without holding it in memory, the tests over frames they hold, neither copying a frame.
TwinCheckReport check_twin(const FeatureDescriptor& feature, const Backend& reference, const Backend& twin, const Format& fmt,
                           const std::function<FramePair()>& next_pair, const OptionList& options, int device,
                           unsigned first_label, unsigned twin_threads = 1);

}  // namespace twinproof
