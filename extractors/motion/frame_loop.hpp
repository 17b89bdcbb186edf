// Integer motion's frame loop, shared by every backend, and the engine interface a backend
// implements: the exact integer total T of the blurred luma difference of a frame pair.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "extractors/extractor.hpp"
#include "extractors/frame_loop.hpp"
#include "extractors/motion/arithmetic.hpp"
#include "extractors/motion/options.hpp"

namespace twinproof::motion {

// What every integer motion backend computes: the pair totals of the clip's frames, T(0, d),
// T(1, 1 + d), ... in frame order.
class SadEngine : public ClipEngine<std::uint64_t> {
 public:
  // `distance`: 1, or 2 with the five-frame window (pairs are frames t - distance and t).
  virtual void init(const Format& fmt, unsigned distance) = 0;
};

// The Extractor every integer motion backend is: options, geometry, and the motion_sad /
// motion / motion2 / motion3 arithmetic of the contract around a backend's engine.
class IntegerMotionExtractor final : public FrameLoop<SadEngine> {
 public:
  IntegerMotionExtractor(std::unique_ptr<SadEngine> engine, const ExtractorContext& ctx, bool check_samples = false);

  void init(const Format& fmt, const OptionList& options) override;
  std::vector<std::string> metrics() const override;
  int planes_read() const override { return 1; }  // luma alone: the contract never reads chroma

 private:
  void on_frame(unsigned t, const PictureView& ref, const PictureView& dist, const Emit& emit) override;
  unsigned results_due(unsigned frames) const override;
  void on_result(unsigned index, const std::uint64_t& total, const Emit& emit) override;  // sad[first_ + index]
  void on_end(unsigned frames, const Emit& emit) override;
  std::optional<Probe> inspect_stage(std::string_view stage) const override;
  void emit_motion3(const Emit& emit, unsigned t, double m2);

  bool check_samples_;
  MotionOptions opts_;
  ScoreParams params_{};
  unsigned first_ = 1;       // the first frame with a real SAD (2 with the window)
  std::vector<double> sad_;  // sad[t] known so far (t < first_: 0)
  double previous_p_ = 0;    // p_{t-1} of the moving average
  std::optional<double> captured_score_;
};

// Throws ConfigError for a sample at or above 2^bitdepth in the luma plane (libvmaf has no
// answer for such input: its SIMD paths overflow differently).
void check_luma_range(const PictureView& pic);

}  // namespace twinproof::motion
