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
    : FrameLoop("motion", std::move(engine), ctx), check_samples_(check_samples) {}

void IntegerMotionExtractor::init(const Format& fmt, const OptionList& options) {
  opts_ = parse_options(options);
  // Raised for every option set, motion_force_zero included.
  refuse_unsupported_picture(
      fmt, kMinExtent, "plane Y",
      fmt::format("plane Y is {}x{}, below the smallest legal size {}x{} (the blur would read outside the plane)", fmt.width,
                  fmt.height, kMinExtent, kMinExtent));
  params_ = {opts_.score.fps_weight, opts_.score.max_val, opts_.score.blend_factor, opts_.score.blend_offset};
  first_ = opts_.five_frame_window ? 2 : 1;
  sad_.clear();
  previous_p_ = 0;
  if (!opts_.score.force_zero) engine().init(fmt, first_);
  start(fmt);
}

std::vector<std::string> IntegerMotionExtractor::metrics() const {
  if (opts_.debug) return {"motion_sad", "motion", "motion2", "motion3"};
  return {"motion_sad", "motion2", "motion3"};
}

void IntegerMotionExtractor::on_frame(unsigned t, const PictureView& ref, const PictureView& dist, const Emit& emit) {
  if (check_samples_ && !opts_.score.force_zero) check_luma_range(ref);
  if (opts_.score.force_zero) {  // every output +0.0; no pixel is read
    emit("motion_sad", t, 0.0);
    if (opts_.debug) emit("motion", t, 0.0);
    emit("motion2", t, 0.0);
    emit("motion3", t, 0.0);
    return;
  }
  submit(ref, dist);
  if (t < first_) {  // no SAD exists yet: sad[t] = 0, motion2[t] = 0; motion3 waits for the stamp
    sad_.push_back(0.0);
    emit("motion_sad", t, 0.0);
    if (opts_.debug) emit("motion", t, 0.0);
    emit("motion2", t, 0.0);
  }
}

unsigned IntegerMotionExtractor::results_due(unsigned frames) const {
  return opts_.score.force_zero || frames <= first_ ? 0 : frames - first_;
}

void IntegerMotionExtractor::emit_motion3(const Emit& emit, unsigned t, double m2) {
  const double p = clip3(m2, params_);
  double m3 = p;
  if (opts_.moving_average) m3 = (p + previous_p_) / 2.0;
  previous_p_ = p;
  emit("motion3", t, m3);
}

void IntegerMotionExtractor::on_result(unsigned /*index*/, const std::uint64_t& total, const Emit& emit) {
  const double s = frame_score(total, format().width, format().height, params_);
  const unsigned t = static_cast<unsigned>(sad_.size());  // s = sad[t], t >= first_
  sad_.push_back(s);
  if (context().capture_stages) captured_score_ = s;
  emit("motion_sad", t, s);
  if (opts_.debug) emit("motion", t, s);
  if (t == first_) {
    // The stamp: frames before the first SAD take clip3(sad[first]) as motion3, and it seeds
    // the moving average.
    const double stamp = clip3(s, params_);
    for (unsigned k = 0; k < first_; ++k) emit("motion3", k, stamp);
    previous_p_ = stamp;
    return;
  }
  // sad[t] completes motion2 and motion3 of frame t - 1 (>= first_).
  const unsigned u = t - 1;
  const unsigned stride = first_;  // 1, or 2 with the window
  double m2 = s;
  if (u + 1 >= stride && u + 1 - stride >= first_) {
    const double lo = sad_[u + 1 - stride];
    m2 = lo < s ? lo : s;
  }
  emit("motion2", u, m2);
  emit_motion3(emit, u, m2);
}

void IntegerMotionExtractor::on_end(unsigned frames, const Emit& emit) {
  if (opts_.score.force_zero) return;
  const unsigned last = frames - 1;
  if (last >= first_) {
    emit("motion2", last, sad_[last]);  // no next frame
    emit_motion3(emit, last, sad_[last]);
  } else {
    for (unsigned k = 0; k < frames; ++k) emit("motion3", k, 0.0);  // no SAD at all: stamp 0
  }
}

std::optional<Probe> IntegerMotionExtractor::inspect_stage(std::string_view stage) const {
  if (stage == "frame_score") {
    if (!captured_score_) return std::nullopt;
    return Probe{std::string(stage), {ProbeArray{"sad", 1, 1, false, {*captured_score_}}}};
  }
  if (opts_.score.force_zero) return std::nullopt;
  return FrameLoop::inspect_stage(stage);
}

}  // namespace twinproof::motion
