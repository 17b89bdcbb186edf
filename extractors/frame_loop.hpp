// The frame loop every feature's extractor is, written once. A backend of a feature is an engine:
// frames go in, one result per frame (per pair of frames for the motion features) comes back in
// frame order, computed on the host or on a device with several frames in flight. The loop around
// it is the feature's Extractor: it checks the pictures' format and that frame labels follow each
// other, hands frames to the engine, turns each result into the frame's scores through the
// feature's own arithmetic, keeps the latest frame's outputs as the "outputs" stage, and checks at
// the end that every result came back. A feature supplies its engine interface (an init taking
// what it needs), its options and checks (its init), and what a result means (on_result).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "extractors/extractor.hpp"

namespace twinproof {

// What every engine implements, whatever it reads: results in frame order.
template <class R>
class FrameEngine {
 public:
  using Result = R;
  virtual ~FrameEngine() = default;
  // The next result, in frame order. With wait=false, nullopt when it is not ready yet; with
  // wait=true, nullopt only when none is outstanding.
  virtual std::optional<Result> take(bool wait) = 0;
  // Stages of the latest frame, when the context asked to capture them.
  virtual std::optional<Probe> inspect(std::string_view) const { return std::nullopt; }
  // Device time of the work completed so far (device engines).
  virtual std::optional<double> device_ms() const { return std::nullopt; }
  // Where frames are best read for this engine (page-locked memory for a device engine).
  virtual std::shared_ptr<HostMemory> frame_memory() const { return nullptr; }
};

// The engine of a feature that reads both pictures of a pair: one result per pair.
template <class Sums>
class PairEngine : public FrameEngine<Sums> {
 public:
  // Takes one frame pair; everything needed from the pictures is read or copied before it returns
  // (or held through their `keep`).
  virtual void submit(const PictureView& ref, const PictureView& dist) = 0;
};

// The engine of a feature that reads the reference clip alone (as libvmaf's motion features do):
// its results are of pairs of that clip's frames.
template <class R>
class ClipEngine : public FrameEngine<R> {
 public:
  // Takes frame t; everything needed from `pic` is read or copied before it returns.
  virtual void submit(const PictureView& pic) = 0;
};

// The Extractor around an `Engine` (a PairEngine or a ClipEngine).
template <class Engine>
class FrameLoop : public Extractor {
 public:
  using Result = typename Engine::Result;
  // Passes the value of `metric` for frame t (counted from the first frame extracted) to the sink.
  using Emit = std::function<void(std::string_view metric, unsigned t, double value)>;
  static constexpr bool kReadsDistorted = std::is_base_of_v<PairEngine<Result>, Engine>;

  void extract(const PictureView& ref, const PictureView& dist, unsigned frame, ScoreSink& sink) final {
    if (!started_) throw std::logic_error(fmt::format("{}: extract() before init()", feature_));
    check_format(ref, "reference");
    if constexpr (kReadsDistorted) check_format(dist, "distorted");
    if (frames_ == 0) first_label_ = frame;
    else if (frame != first_label_ + frames_)
      throw std::logic_error(fmt::format("{}: frame {} follows frame {}", feature_, frame, first_label_ + frames_ - 1));
    const unsigned t = frames_++;
    if (ctx_.capture_stages) captured_outputs_.clear();
    const Emit emit = emitter(sink);
    on_frame(t, ref, dist, emit);
    drain(emit, ctx_.capture_stages);  // capture wants each frame's stages before the next
  }

  void flush(ScoreSink& sink) final {
    if (!started_ || frames_ == 0) return;
    const Emit emit = emitter(sink);
    drain(emit, true);
    if (taken_ != results_due(frames_))
      throw std::logic_error(
          fmt::format("{}: engine returned {} results for {} frames (owed {})", feature_, taken_, frames_, results_due(frames_)));
    on_end(frames_, emit);
  }

  std::optional<Probe> inspect(std::string_view stage) const final {
    if (!ctx_.capture_stages) return std::nullopt;
    if (stage == "outputs") {
      Probe p{std::string(stage), {}};
      for (const auto& [name, v] : captured_outputs_) p.arrays.push_back(ProbeArray{name, 1, 1, false, {v}});
      return p;
    }
    return inspect_stage(stage);
  }
  std::optional<double> device_ms() const final { return engine_->device_ms(); }
  std::shared_ptr<HostMemory> frame_memory() const final { return engine_->frame_memory(); }

 protected:
  FrameLoop(std::string_view feature, std::unique_ptr<Engine> engine, const ExtractorContext& ctx)
      : feature_(feature), engine_(std::move(engine)), ctx_(ctx) {}

  // The end of the feature's init(), once its options are checked and its engine initialised.
  void start(const Format& fmt) {
    fmt_ = fmt;
    frames_ = taken_ = 0;
    started_ = true;
  }

  // Frame t has arrived (its format and label checked): by default the engine takes it.
  virtual void on_frame(unsigned /*t*/, const PictureView& ref, const PictureView& dist, const Emit& /*emit*/) {
    submit(ref, dist);
  }
  // The engine's results owed for `frames` frames (the motion features score pairs of a clip's
  // frames: fewer results than frames).
  virtual unsigned results_due(unsigned frames) const { return frames; }
  // Result `index` (from 0, in frame order) has come back: emit what it completes.
  virtual void on_result(unsigned index, const Result& result, const Emit& emit) = 0;
  // Every result has come back: emit what the last frames still owe.
  virtual void on_end(unsigned /*frames*/, const Emit& /*emit*/) {}
  // A stage other than "outputs", when stages are captured: by default the engine's.
  virtual std::optional<Probe> inspect_stage(std::string_view stage) const { return engine_->inspect(stage); }

  void submit(const PictureView& ref, const PictureView& dist) {
    if constexpr (kReadsDistorted) engine_->submit(ref, dist);
    else engine_->submit(ref);
  }
  Engine& engine() { return *engine_; }
  const ExtractorContext& context() const { return ctx_; }
  const Format& format() const { return fmt_; }

 private:
  Emit emitter(ScoreSink& sink) {
    return [this, &sink](std::string_view metric, unsigned t, double v) {
      if (ctx_.capture_stages) captured_outputs_.emplace_back(fmt::format("{}[{}]", metric, first_label_ + t), v);
      sink.put(metric, first_label_ + t, v);
    };
  }

  void check_format(const PictureView& pic, std::string_view which) const {
    if (!(pic.fmt == fmt_))
      throw RefusedConfiguration(
          "picture", describe(pic.fmt),
          fmt::format("{} picture is {}, but the extractor was initialised for {}", which, describe(pic.fmt), describe(fmt_)));
  }

  void drain(const Emit& emit, bool wait) {
    while (taken_ < results_due(frames_)) {
      const std::optional<Result> r = engine_->take(wait);
      if (!r) break;
      on_result(taken_++, *r, emit);
    }
  }

  std::string_view feature_;
  std::unique_ptr<Engine> engine_;
  ExtractorContext ctx_;
  Format fmt_{};
  bool started_ = false;
  unsigned first_label_ = 0;
  unsigned frames_ = 0;  // frames extracted
  unsigned taken_ = 0;   // results taken from the engine
  std::vector<std::pair<std::string, double>> captured_outputs_;
};

// The loop of a feature whose every frame pair is scored on its own: result t is frame t's sums,
// and the feature turns them into that frame's scores.
template <class Engine>
class PairFrameLoop : public FrameLoop<Engine> {
 public:
  using Sums = typename Engine::Result;
  // Passes a value of `metric` for the frame whose sums these are (it shadows FrameLoop's Emit).
  using Emit = std::function<void(std::string_view metric, double value)>;

 protected:
  using FrameLoop<Engine>::FrameLoop;
  // One frame's scores from its sums, each passed to `emit` in the order of metrics().
  virtual void emit_scores(const Sums& sums, const Emit& emit) const = 0;

 private:
  void on_result(unsigned t, const Sums& sums, const typename FrameLoop<Engine>::Emit& emit) final {
    emit_scores(sums, [&](std::string_view metric, double v) { emit(metric, t, v); });
  }
};

// A backend's factory: the feature's extractor (its frame loop) around a new `Engine` of the
// context, with the feature's further arguments.
template <class FeatureExtractor, class Engine, class... Args>
std::unique_ptr<Extractor> with_engine(const ExtractorContext& ctx, Args&&... args) {
  return std::make_unique<FeatureExtractor>(std::make_unique<Engine>(ctx), ctx, std::forward<Args>(args)...);
}

}  // namespace twinproof
