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

// What a backend implements.
class MotionEngine {
 public:
  virtual ~MotionEngine() = default;
  virtual void init(const Format& fmt, const std::vector<PlaneGeometry>& planes, const MotionOptions& o) = 0;
  // Takes frame t; everything needed from `pic` is read or copied before it returns.
  virtual void submit(const PictureView& pic) = 0;
  // The next pair score in frame order, S(0,1), S(1,2), ... (double: Y, then + U, then + V).
  // With wait=false, nullopt when the next one is not ready yet; with wait=true, nullopt only
  // when no submitted pair is outstanding.
  virtual std::optional<double> take(bool wait) = 0;
  // Stages of the latest pair, when the context asked to capture them.
  virtual std::optional<Probe> inspect(Stage) const { return std::nullopt; }
  // Device time of the work completed so far (GPU engines).
  virtual std::optional<double> device_ms() const { return std::nullopt; }
  // Where frames are best read for this engine (page-locked memory for a device engine).
  virtual std::shared_ptr<HostMemory> frame_memory() const { return nullptr; }
};

// The Extractor every float_motion backend is: options, geometry, and the motion / motion2 /
// motion3 frame loop of the spec around a backend's engine.
class MotionExtractor final : public Extractor {
 public:
  MotionExtractor(std::unique_ptr<MotionEngine> engine, const ExtractorContext& ctx);

  void init(const Format& fmt, const OptionList& options) override;
  void extract(const PictureView& pic, const PictureView& dist, unsigned frame, ScoreSink& sink) override;
  void flush(ScoreSink& sink) override;
  std::vector<std::string> metrics() const override;
  std::optional<Probe> inspect(std::string_view stage) const override;
  std::optional<double> device_ms() const override { return engine_->device_ms(); }
  std::shared_ptr<HostMemory> frame_memory() const override { return engine_->frame_memory(); }
  int planes_read() const override { return opts_.add_uv ? 3 : 1; }

 private:
  void emit(ScoreSink& sink, const char* metric, unsigned index, double v);
  void on_pair_score(ScoreSink& sink, double s);  // S(t-1, t) for the next t in order
  void drain(ScoreSink& sink, bool wait);

  std::unique_ptr<MotionEngine> engine_;
  ExtractorContext ctx_;
  MotionOptions opts_;
  OutputParams params_{};
  Format fmt_{};
  bool initialised_ = false;
  unsigned first_label_ = 0;
  unsigned frames_ = 0;       // frames extracted
  unsigned pairs_taken_ = 0;  // pair scores received: S(t-1,t) for t = 1..pairs_taken_
  double last_pair_ = 0;      // S(pairs_taken_-1, pairs_taken_)
  // Stage capture of the frame loop itself.
  std::optional<double> captured_score_;
  std::vector<std::pair<std::string, double>> captured_outputs_;
};

// Factory helper for a backend's registry line.
template <class Engine>
std::unique_ptr<Extractor> make_motion_extractor(const ExtractorContext& ctx) {
  return std::make_unique<MotionExtractor>(std::make_unique<Engine>(ctx), ctx);
}

// Asserts that a picture has the format the extractor was initialised with.
void check_picture(const PictureView& pic, const Format& fmt);

}  // namespace twinproof::float_motion
