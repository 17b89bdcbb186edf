// The frame loop of a feature that scores every frame pair on its own: each backend's engine turns
// a pair into exact sums, and the feature's own arithmetic turns those sums into the frame's scores.
// It is written once here; a feature supplies its engine interface (an init taking what it needs),
// its options and the scores of one frame's sums.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "extractors/extractor.hpp"

namespace twinproof {

// What every backend of such a feature implements: pairs go in, one `Sums` per pair comes out in
// frame order. A device engine may keep several pairs in flight.
template <class Sums>
class PairEngine {
 public:
  using Result = Sums;
  virtual ~PairEngine() = default;
  // Takes one frame pair; everything needed from the pictures is read or copied before it returns
  // (or held through their `keep`).
  virtual void submit(const PictureView& ref, const PictureView& dist) = 0;
  // The next frame's sums, in frame order. With wait=false, nullopt when they are not ready yet;
  // with wait=true, nullopt only when none is outstanding.
  virtual std::optional<Sums> take(bool wait) = 0;
  // Stages of the latest frame, when the context asked to capture them.
  virtual std::optional<Probe> inspect(std::string_view) const { return std::nullopt; }
  virtual std::optional<double> device_ms() const { return std::nullopt; }
  virtual std::shared_ptr<HostMemory> frame_memory() const { return nullptr; }
};

// The Extractor around an `Engine` (a PairEngine<Sums>): checks that both pictures have the format
// of init and that frame labels follow each other, hands pairs to the engine, and emits each
// frame's scores as its sums come back. The "outputs" stage is the latest frame's emitted values.
template <class Engine>
class PairFrameLoop : public Extractor {
 public:
  using Sums = typename Engine::Result;
  using Emit = std::function<void(std::string_view metric, double value)>;

  void extract(const PictureView& ref, const PictureView& dist, unsigned frame, ScoreSink& sink) override {
    if (!started_) throw std::logic_error(fmt::format("{}: extract() before init()", feature_));
    for (const PictureView* pic : {&ref, &dist})
      if (!(pic->fmt == fmt_))
        throw RefusedConfiguration("picture", describe(pic->fmt),
                                   fmt::format("{} picture is {}, but the extractor was initialised for {}",
                                               pic == &ref ? "reference" : "distorted", describe(pic->fmt), describe(fmt_)));
    if (frames_ == 0) first_label_ = frame;
    else if (frame != first_label_ + frames_)
      throw std::logic_error(fmt::format("{}: frame {} follows frame {}", feature_, frame, first_label_ + frames_ - 1));
    ++frames_;
    engine_->submit(ref, dist);
    drain(sink, ctx_.capture_stages);  // capture wants each frame's stages before the next
  }

  void flush(ScoreSink& sink) override {
    if (!started_) return;
    drain(sink, true);
    if (scored_ != frames_)
      throw std::logic_error(fmt::format("{}: engine returned {} frames' sums for {} frames", feature_, scored_, frames_));
  }

  std::optional<Probe> inspect(std::string_view stage) const override {
    if (!ctx_.capture_stages) return std::nullopt;
    if (stage == "outputs") {
      Probe p{std::string(stage), {}};
      for (const auto& [name, v] : captured_outputs_) p.arrays.push_back(ProbeArray{name, 1, 1, false, {v}});
      return p;
    }
    return engine_->inspect(stage);
  }
  std::optional<double> device_ms() const override { return engine_->device_ms(); }
  std::shared_ptr<HostMemory> frame_memory() const override { return engine_->frame_memory(); }

 protected:
  PairFrameLoop(std::string_view feature, std::unique_ptr<Engine> engine, const ExtractorContext& ctx)
      : feature_(feature), engine_(std::move(engine)), ctx_(ctx) {}

  // The end of the feature's init(), once its options are checked and its engine initialised.
  void start(const Format& fmt) {
    fmt_ = fmt;
    frames_ = scored_ = 0;
    started_ = true;
  }
  // One frame's scores from its sums, each passed to `emit` in the order of metrics().
  virtual void emit_scores(const Sums& sums, const Emit& emit) const = 0;

  Engine& engine() { return *engine_; }
  const ExtractorContext& context() const { return ctx_; }

 private:
  void drain(ScoreSink& sink, bool wait) {
    while (scored_ < frames_) {
      const std::optional<Sums> sums = engine_->take(wait);
      if (!sums) break;
      const unsigned label = first_label_ + scored_++;
      if (ctx_.capture_stages) captured_outputs_.clear();
      emit_scores(*sums, [&](std::string_view metric, double v) {
        if (ctx_.capture_stages) captured_outputs_.emplace_back(fmt::format("{}[{}]", metric, label), v);
        sink.put(metric, label, v);
      });
    }
  }

  std::string_view feature_;
  std::unique_ptr<Engine> engine_;
  ExtractorContext ctx_;
  Format fmt_{};
  bool started_ = false;
  unsigned first_label_ = 0;
  unsigned frames_ = 0;  // frames submitted
  unsigned scored_ = 0;  // frames whose scores were emitted
  std::vector<std::pair<std::string, double>> captured_outputs_;
};

}  // namespace twinproof
