// float_motion's frame loop, shared by every backend, and the engine interface that a backend
// implements (blur each frame, score consecutive pairs).
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "extractors/extractor.hpp"
#include "extractors/float_motion/arithmetic.hpp"
#include "extractors/float_motion/options.hpp"
#include "extractors/float_motion/stages.hpp"
#include "extractors/frame_loop.hpp"

namespace twinproof::float_motion {

// A plane that float_motion scores, in libvmaf's geometry: chroma is (w >> hs) x (h >> vs),
// the top-left part of the stored plane.
struct PlaneGeometry {
  int plane;         // 0 = Y, 1 = U, 2 = V
  const char* name;  // "Y", "U", "V"
  int w, h;          // as scored
  int sw, sh;        // half-size extents for motion_add_scale1 (0 when off)
};

// The planes scored for this format and these options. Throws ConfigError for motion_add_uv on
// 4:0:0, a used plane below the smallest legal size, or motion_add_scale1 with sw > 7680.
std::vector<PlaneGeometry> planes_used(const Format& fmt, const MotionOptions& o);

// What every float_motion backend computes: the pair scores of the clip's frames, S(0,1), S(1,2),
// ... in frame order (double: Y, then + U, then + V).
class MotionEngine : public ClipEngine<double> {
 public:
  virtual void init(const Format& fmt, const std::vector<PlaneGeometry>& planes, const MotionOptions& o) = 0;
  // Stages of the latest pair, when the context asked to capture them.
  virtual std::optional<Probe> inspect_stage(Stage) const { return std::nullopt; }
  std::optional<Probe> inspect(std::string_view id) const final {
    const std::optional<Stage> stage = parse_stage(id);
    return stage ? inspect_stage(*stage) : std::nullopt;
  }
};

// The Extractor every float_motion backend is: options, geometry, and the motion / motion2 /
// motion3 arithmetic of the spec around a backend's engine.
class MotionExtractor final : public FrameLoop<MotionEngine> {
 public:
  MotionExtractor(std::unique_ptr<MotionEngine> engine, const ExtractorContext& ctx)
      : FrameLoop("float_motion", std::move(engine), ctx) {}

  void init(const Format& fmt, const OptionList& options) override;
  std::vector<std::string> metrics() const override;
  int planes_read() const override { return opts_.add_uv ? 3 : 1; }

 private:
  void on_frame(unsigned t, const PictureView& ref, const PictureView& dist, const Emit& emit) override;
  unsigned results_due(unsigned frames) const override;
  void on_result(unsigned index, const double& s, const Emit& emit) override;  // S(index, index + 1)
  void on_end(unsigned frames, const Emit& emit) override;
  std::optional<Probe> inspect_stage(std::string_view stage) const override;

  MotionOptions opts_;
  OutputParams params_{};
  double last_pair_ = 0;  // the latest pair score taken
  std::optional<double> captured_score_;
};

}  // namespace twinproof::float_motion
