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

void MotionExtractor::init(const Format& fmt, const OptionList& options) {
  opts_ = parse_options(options);
  refuse_unsupported_bitdepth(fmt);
  // Geometry errors are raised for every option set, motion_force_zero included.
  const std::vector<PlaneGeometry> planes = planes_used(fmt, opts_);
  params_ = {opts_.score.fps_weight, opts_.score.blend_factor, opts_.score.blend_offset, opts_.score.max_val};
  if (!opts_.score.force_zero) engine().init(fmt, planes, opts_);
  start(fmt);
}

std::vector<std::string> MotionExtractor::metrics() const {
  if (opts_.debug) return {"motion", "motion2", "motion3"};
  return {"motion2", "motion3"};
}

void MotionExtractor::on_frame(unsigned t, const PictureView& ref, const PictureView& dist, const Emit& emit) {
  if (opts_.score.force_zero) {
    if (opts_.debug) emit("motion", t, 0.0);
    emit("motion2", t, 0.0);
    emit("motion3", t, 0.0);
    return;
  }
  submit(ref, dist);
  if (t == 0) {
    if (opts_.debug) emit("motion", 0, 0.0);
    emit("motion2", 0, 0.0);
  }
}

unsigned MotionExtractor::results_due(unsigned frames) const { return opts_.score.force_zero || frames == 0 ? 0 : frames - 1; }

void MotionExtractor::on_result(unsigned index, const double& s, const Emit& emit) {
  const unsigned t = index + 1;  // s = S(t-1, t)
  if (context().capture_stages) captured_score_ = s;
  if (opts_.debug) emit("motion", t, clip(s, params_));
  if (t == 1) {
    emit("motion3", 0, clip3(s, params_));
  } else {
    const double m2 = min_d(last_pair_, s);
    emit("motion2", t - 1, clip(m2, params_));
    emit("motion3", t - 1, clip3(m2, params_));
  }
  last_pair_ = s;
}

void MotionExtractor::on_end(unsigned frames, const Emit& emit) {
  if (opts_.score.force_zero) return;
  const unsigned last = frames - 1;
  if (last > 0) {
    emit("motion2", last, clip(last_pair_, params_));
    emit("motion3", last, clip3(last_pair_, params_));
  } else {
    emit("motion3", 0, 0.0);
  }
}

std::optional<Probe> MotionExtractor::inspect_stage(std::string_view id) const {
  if (parse_stage(id) == Stage::frame_score) {
    if (!captured_score_) return std::nullopt;
    return Probe{std::string(id), {ProbeArray{"S", 1, 1, false, {*captured_score_}}}};
  }
  if (opts_.score.force_zero) return std::nullopt;
  return FrameLoop::inspect_stage(id);
}

}  // namespace twinproof::float_motion
