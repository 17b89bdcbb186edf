#include "extractors/motion/frame_loop.hpp"

#include <fmt/format.h>

#include "extractors/format_checks.hpp"

namespace twinproof::motion {

void check_luma_range(const PictureView& pic) {
  const int bpc = pic.fmt.bitdepth;
  if (bpc == 8 || bpc == 16) return;  // every stored value is legal
  const unsigned limit = 1u << bpc;
  for (int y = 0; y < pic.fmt.height; ++y) {
    const auto* row = reinterpret_cast<const std::uint16_t*>(pic.data[0] + pic.stride[0] * y);
    for (int x = 0; x < pic.fmt.width; ++x)
      if (row[x] >= limit)
        throw RefusedConfiguration(fmt::format("luma sample ({}, {})", x, y), std::to_string(row[x]),
                                   fmt::format("luma sample ({}, {}) is {}, not below 2^{} = {}", x, y, row[x], bpc, limit));
  }
}

IntegerMotionExtractor::IntegerMotionExtractor(std::unique_ptr<SadEngine> engine, const ExtractorContext& ctx, bool check_samples)
    : engine_(std::move(engine)), ctx_(ctx), check_samples_(check_samples) {}

void IntegerMotionExtractor::init(const Format& fmt, const OptionList& options) {
  opts_ = parse_options(options);
  refuse_unsupported_bitdepth(fmt);
  // Raised for every option set, motion_force_zero included.
  if (fmt.width < kMinExtent || fmt.height < kMinExtent)
    throw RefusedConfiguration(
        "plane Y", fmt::format("{}x{}", fmt.width, fmt.height),
        fmt::format("plane Y is {}x{}, below the smallest legal size {}x{} (the blur would read outside the plane)", fmt.width,
                    fmt.height, kMinExtent, kMinExtent));
  params_ = {opts_.fps_weight, opts_.max_val, opts_.blend_factor, opts_.blend_offset};
  first_ = opts_.five_frame_window ? 2 : 1;
  fmt_ = fmt;
  frames_ = 0;
  sad_.clear();
  previous_p_ = 0;
  if (!opts_.force_zero) engine_->init(fmt, first_);
  initialised_ = true;
}

std::vector<std::string> IntegerMotionExtractor::metrics() const {
  if (opts_.debug) return {"motion_sad", "motion", "motion2", "motion3"};
  return {"motion_sad", "motion2", "motion3"};
}

void IntegerMotionExtractor::emit(ScoreSink& sink, const char* metric, unsigned t, double v) {
  if (ctx_.capture_stages) captured_outputs_.emplace_back(fmt::format("{}[{}]", metric, first_label_ + t), v);
  sink.put(metric, first_label_ + t, v);
}

void IntegerMotionExtractor::extract(const PictureView& pic, const PictureView& /*dist*/, unsigned frame, ScoreSink& sink) {
  if (!initialised_) throw std::logic_error("motion: extract() before init()");
  if (!(pic.fmt == fmt_))
    throw RefusedConfiguration(
        "picture", describe(pic.fmt),
        fmt::format("picture is {}, but the extractor was initialised for {}", describe(pic.fmt), describe(fmt_)));
  if (frames_ == 0) first_label_ = frame;
  else if (frame != first_label_ + frames_)
    throw std::logic_error(fmt::format("motion: frame {} follows frame {}", frame, first_label_ + frames_ - 1));
  if (check_samples_ && !opts_.force_zero) check_luma_range(pic);
  const unsigned t = frames_++;
  if (ctx_.capture_stages) captured_outputs_.clear();
  if (opts_.force_zero) {  // every output +0.0; no pixel is read
    emit(sink, "motion_sad", t, 0.0);
    if (opts_.debug) emit(sink, "motion", t, 0.0);
    emit(sink, "motion2", t, 0.0);
    emit(sink, "motion3", t, 0.0);
    return;
  }
  engine_->submit(pic);
  if (t < first_) {  // no SAD exists yet: sad[t] = 0, motion2[t] = 0; motion3 waits for the stamp
    sad_.push_back(0.0);
    emit(sink, "motion_sad", t, 0.0);
    if (opts_.debug) emit(sink, "motion", t, 0.0);
    emit(sink, "motion2", t, 0.0);
  }
  drain(sink, ctx_.capture_stages);  // capture wants each frame's stages before the next
}

void IntegerMotionExtractor::emit_motion3(ScoreSink& sink, unsigned t, double m2) {
  const double p = clip3(m2, params_);
  double m3 = p;
  if (opts_.moving_average) m3 = (p + previous_p_) / 2.0;
  previous_p_ = p;
  emit(sink, "motion3", t, m3);
}

void IntegerMotionExtractor::on_sad(ScoreSink& sink, double s) {
  const unsigned t = static_cast<unsigned>(sad_.size());  // s = sad[t], t >= first_
  sad_.push_back(s);
  if (ctx_.capture_stages) captured_score_ = s;
  emit(sink, "motion_sad", t, s);
  if (opts_.debug) emit(sink, "motion", t, s);
  if (t == first_) {
    // The stamp: frames before the first SAD take clip3(sad[first]) as motion3, and it seeds
    // the moving average.
    const double stamp = clip3(s, params_);
    for (unsigned k = 0; k < first_; ++k) emit(sink, "motion3", k, stamp);
    previous_p_ = stamp;
    return;
  }
  // sad[t] completes motion2 and motion3 of frame t - 1 (>= first_).
  const unsigned u = t - 1;
  const unsigned stride = first_;  // 1, or 2 with the window
  const double next = s;
  double m2 = next;
  if (u + 1 >= stride && u + 1 - stride >= first_) {
    const double lo = sad_[u + 1 - stride];
    m2 = lo < next ? lo : next;
  }
  emit(sink, "motion2", u, m2);
  emit_motion3(sink, u, m2);
}

void IntegerMotionExtractor::drain(ScoreSink& sink, bool wait) {
  while (sad_.size() < frames_) {
    std::optional<std::uint64_t> total = engine_->take(wait);
    if (!total) break;
    on_sad(sink, frame_score(*total, fmt_.width, fmt_.height, params_));
  }
}

void IntegerMotionExtractor::flush(ScoreSink& sink) {
  if (!initialised_ || frames_ == 0 || opts_.force_zero) return;
  drain(sink, true);
  if (sad_.size() != frames_)
    throw std::logic_error(fmt::format("motion: engine returned {} totals for {} frames",
                                       sad_.size() - std::min<std::size_t>(first_, frames_), frames_));
  const unsigned last = frames_ - 1;
  if (last >= first_) {
    emit(sink, "motion2", last, sad_[last]);  // no next frame
    emit_motion3(sink, last, sad_[last]);
  } else {
    for (unsigned k = 0; k < frames_; ++k) emit(sink, "motion3", k, 0.0);  // no SAD at all: stamp 0
  }
}

std::optional<Probe> IntegerMotionExtractor::inspect(std::string_view stage) const {
  if (!ctx_.capture_stages) return std::nullopt;
  if (stage == "frame_score") {
    if (!captured_score_) return std::nullopt;
    return Probe{std::string(stage), {ProbeArray{"sad", 1, 1, false, {*captured_score_}}}};
  }
  if (stage == "outputs") {
    Probe p{std::string(stage), {}};
    for (const auto& [name, v] : captured_outputs_) p.arrays.push_back(ProbeArray{name, 1, 1, false, {v}});
    return p;
  }
  if (opts_.force_zero) return std::nullopt;
  return engine_->inspect(stage);
}

}  // namespace twinproof::motion
