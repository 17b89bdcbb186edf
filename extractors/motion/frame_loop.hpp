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
#include "extractors/motion/arithmetic.hpp"
#include "extractors/motion/options.hpp"
#include "extractors/ready_queue.hpp"

namespace twinproof::motion {

class SadEngine {
 public:
  virtual ~SadEngine() = default;
  // `distance`: 1, or 2 with the five-frame window (pairs are frames t - distance and t).
  virtual void init(const Format& fmt, unsigned distance) = 0;
  // Takes frame t; everything needed from `pic` is read or copied before it returns.
  virtual void submit(const PictureView& pic) = 0;
  // The next pair total in frame order, T(0, d), T(1, 1 + d), ... With wait=false, nullopt when
  // the next one is not ready yet; with wait=true, nullopt only when none is outstanding.
  virtual std::optional<std::uint64_t> take(bool wait) = 0;
  // Stages of the latest pair, when the context asked to capture them.
  virtual std::optional<Probe> inspect(std::string_view) const { return std::nullopt; }
  virtual std::optional<double> device_ms() const { return std::nullopt; }
  // Where frames are best read for this engine (page-locked memory for a device engine).
  virtual std::shared_ptr<HostMemory> frame_memory() const { return nullptr; }
};

// The Extractor every integer motion backend is: options, geometry, and the motion_sad /
// motion / motion2 / motion3 frame loop of the contract around a backend's engine.
class IntegerMotionExtractor final : public Extractor {
 public:
  IntegerMotionExtractor(std::unique_ptr<SadEngine> engine, const ExtractorContext& ctx, bool check_samples);

  void init(const Format& fmt, const OptionList& options) override;
  void extract(const PictureView& pic, const PictureView& dist, unsigned frame, ScoreSink& sink) override;
  void flush(ScoreSink& sink) override;
  std::vector<std::string> metrics() const override;
  std::optional<Probe> inspect(std::string_view stage) const override;
  std::optional<double> device_ms() const override { return engine_->device_ms(); }
  std::shared_ptr<HostMemory> frame_memory() const override { return engine_->frame_memory(); }
  int planes_read() const override { return 1; }  // luma alone: the contract never reads chroma

 private:
  void emit(ScoreSink& sink, const char* metric, unsigned t, double v);
  void on_sad(ScoreSink& sink, double s);  // sad[t] for the next t >= first_
  void emit_motion3(ScoreSink& sink, unsigned t, double m2);
  void drain(ScoreSink& sink, bool wait);

  std::unique_ptr<SadEngine> engine_;
  ExtractorContext ctx_;
  bool check_samples_;
  MotionOptions opts_;
  ScoreParams params_{};
  Format fmt_{};
  unsigned first_ = 1;  // the first frame with a real SAD (2 with the window)
  bool initialised_ = false;
  unsigned first_label_ = 0;
  unsigned frames_ = 0;      // frames extracted
  std::vector<double> sad_;  // sad[t] known so far (t < first_: 0)
  double previous_p_ = 0;    // p_{t-1} of the moving average
  std::optional<double> captured_score_;
  std::vector<std::pair<std::string, double>> captured_outputs_;
};

// Throws ConfigError for a sample at or above 2^bitdepth in the luma plane (libvmaf has no
// answer for such input: its SIMD paths overflow differently).
void check_luma_range(const PictureView& pic);

template <class Engine>
std::unique_ptr<Extractor> make_integer_motion(const ExtractorContext& ctx, bool check_samples = false) {
  return std::make_unique<IntegerMotionExtractor>(std::make_unique<Engine>(ctx), ctx, check_samples);
}

}  // namespace twinproof::motion
