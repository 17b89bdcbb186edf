#include "motion.hpp"

#include <fmt/format.h>

#include "extractors/format_checks.hpp"

namespace twinproof::float_motion {

std::vector<PlaneGeometry> planes_used(const Format& fmt, const MotionOptions& o) {
  if (o.add_uv && fmt.chroma == Chroma::c400)
    throw RefusedConfiguration("option motion_add_uv", "true",
                               "option motion_add_uv: value 'true' needs chroma planes, but the picture is 4:0:0");
  static const char* const names[] = {"Y", "U", "V"};
  const ChromaShift cs = chroma_shift(fmt.chroma);
  const int count = o.add_uv ? 3 : 1;
  const int min_extent = min_plane_extent(o.filter_size);
  std::vector<PlaneGeometry> planes;
  for (int p = 0; p < count; ++p) {
    PlaneGeometry g{p, names[p], fmt.width, fmt.height, 0, 0};
    if (p > 0) {
      g.w = fmt.width >> cs.hs;
      g.h = fmt.height >> cs.vs;
    }
    if (g.w < min_extent || g.h < min_extent)
      throw RefusedConfiguration(fmt::format("plane {}", g.name), fmt::format("{}x{}", g.w, g.h),
                                 fmt::format("plane {} is {}x{}, below the smallest legal size {}x{} for "
                                             "motion_filter_size={} (the blur would read outside the plane)",
                                             g.name, g.w, g.h, min_extent, min_extent, o.filter_size));
    if (o.add_scale1) {
      g.sw = scaled_extent(g.w);
      g.sh = scaled_extent(g.h);
      if (g.sw > 7680)
        throw RefusedConfiguration("option motion_add_scale1", "true",
                                   fmt::format("option motion_add_scale1: plane {} is {} wide; its half-size "
                                               "width {} exceeds 7680, which libvmaf refuses",
                                               g.name, g.w, g.sw));
    }
    planes.push_back(g);
  }
  return planes;
}

void check_picture(const PictureView& pic, const Format& fmt) {
  if (!(pic.fmt == fmt))
    throw RefusedConfiguration(
        "picture", describe(pic.fmt),
        fmt::format("picture is {}, but the extractor was initialised for {}", describe(pic.fmt), describe(fmt)));
}

MotionExtractor::MotionExtractor(std::unique_ptr<MotionEngine> engine, const ExtractorContext& ctx)
    : engine_(std::move(engine)), ctx_(ctx) {}

void MotionExtractor::init(const Format& fmt, const OptionList& options) {
  opts_ = parse_options(options);
  refuse_unsupported_bitdepth(fmt);
  // Geometry errors are raised for every option set, motion_force_zero included.
  const std::vector<PlaneGeometry> planes = planes_used(fmt, opts_);
  params_ = {opts_.fps_weight, opts_.blend_factor, opts_.blend_offset, opts_.max_val};
  fmt_ = fmt;
  if (!opts_.force_zero) engine_->init(fmt, planes, opts_);
  initialised_ = true;
}

std::vector<std::string> MotionExtractor::metrics() const {
  if (opts_.debug) return {"motion", "motion2", "motion3"};
  return {"motion2", "motion3"};
}

void MotionExtractor::emit(ScoreSink& sink, const char* metric, unsigned index, double v) {
  if (ctx_.capture_stages) captured_outputs_.emplace_back(fmt::format("{}[{}]", metric, first_label_ + index), v);
  sink.put(metric, first_label_ + index, v);
}

void MotionExtractor::extract(const PictureView& pic, const PictureView& /*dist*/, unsigned frame, ScoreSink& sink) {
  if (!initialised_) throw std::logic_error("float_motion: extract() before init()");
  check_picture(pic, fmt_);
  if (frames_ == 0) first_label_ = frame;
  else if (frame != first_label_ + frames_)
    throw std::logic_error(fmt::format("float_motion: frame {} follows frame {}", frame, first_label_ + frames_ - 1));
  const unsigned t = frames_++;
  if (ctx_.capture_stages) captured_outputs_.clear();
  if (opts_.force_zero) {
    if (opts_.debug) emit(sink, "motion", t, 0.0);
    emit(sink, "motion2", t, 0.0);
    emit(sink, "motion3", t, 0.0);
    return;
  }
  engine_->submit(pic);
  if (t == 0) {
    if (opts_.debug) emit(sink, "motion", 0, 0.0);
    emit(sink, "motion2", 0, 0.0);
  }
  drain(sink, ctx_.capture_stages);  // capture wants each frame's stages before the next
}

void MotionExtractor::on_pair_score(ScoreSink& sink, double s) {
  const unsigned t = ++pairs_taken_;  // s = S(t-1, t)
  if (ctx_.capture_stages) captured_score_ = s;
  if (opts_.debug) emit(sink, "motion", t, clip(s, params_));
  if (t == 1) {
    emit(sink, "motion3", 0, clip3(s, params_));
  } else {
    const double m2 = min_d(last_pair_, s);
    emit(sink, "motion2", t - 1, clip(m2, params_));
    emit(sink, "motion3", t - 1, clip3(m2, params_));
  }
  last_pair_ = s;
}

void MotionExtractor::drain(ScoreSink& sink, bool wait) {
  while (pairs_taken_ + 1 < frames_) {
    std::optional<double> s = engine_->take(wait);
    if (!s) break;
    on_pair_score(sink, *s);
  }
}

void MotionExtractor::flush(ScoreSink& sink) {
  if (!initialised_ || frames_ == 0 || opts_.force_zero) return;
  drain(sink, true);
  if (pairs_taken_ + 1 != frames_)
    throw std::logic_error(fmt::format("float_motion: engine returned {} pair scores for {} frames", pairs_taken_, frames_));
  const unsigned last = frames_ - 1;
  if (last > 0) {
    emit(sink, "motion2", last, clip(last_pair_, params_));
    emit(sink, "motion3", last, clip3(last_pair_, params_));
  } else {
    emit(sink, "motion3", 0, 0.0);
  }
}

std::optional<Probe> MotionExtractor::inspect(std::string_view id) const {
  if (!ctx_.capture_stages) return std::nullopt;
  const std::optional<Stage> stage = parse_stage(id);
  if (!stage) return std::nullopt;
  const Stage s = *stage;
  if (s == Stage::frame_score) {
    if (!captured_score_) return std::nullopt;
    return Probe{std::string(id), {ProbeArray{"S", 1, 1, false, {*captured_score_}}}};
  }
  if (s == Stage::outputs) {
    Probe p{std::string(id), {}};
    for (const auto& [name, v] : captured_outputs_) p.arrays.push_back(ProbeArray{name, 1, 1, false, {v}});
    return p;
  }
  if (opts_.force_zero) return std::nullopt;
  return engine_->inspect(s);
}

}  // namespace twinproof::float_motion
