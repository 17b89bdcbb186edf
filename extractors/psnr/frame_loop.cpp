#include "extractors/psnr/frame_loop.hpp"

#include <fmt/format.h>

namespace twinproof::psnr {
namespace {
constexpr const char* kPsnrNames[3] = {"psnr_y", "psnr_cb", "psnr_cr"};
constexpr const char* kMseNames[3] = {"mse_y", "mse_cb", "mse_cr"};
constexpr const char* kPlaneNames[3] = {"Y", "U", "V"};
}  // namespace

Probe plane_sse_probe(const PlaneSse& sse, int planes) {
  Probe p{"plane_sse", {}};
  for (int k = 0; k < planes; ++k)
    p.arrays.push_back(ProbeArray{kPlaneNames[k], 2, 1, false,
                                  {static_cast<double>(sse[k] >> 32), static_cast<double>(sse[k] & 0xffffffffu)}});
  return p;
}

Probe row_sums_probe(const std::array<std::span<const std::uint64_t>, 3>& rows, int planes) {
  Probe p{"row_sums", {}};
  for (int k = 0; k < planes; ++k)
    p.arrays.push_back(ProbeArray{kPlaneNames[k], 1, static_cast<int>(rows[k].size()), false,
                                  std::vector<double>(rows[k].begin(), rows[k].end())});
  return p;
}

PsnrExtractor::PsnrExtractor(std::unique_ptr<SseEngine> engine, const ExtractorContext& ctx)
    : engine_(std::move(engine)), ctx_(ctx) {}

void PsnrExtractor::init(const Format& fmt, const OptionList& options) {
  opts_ = parse_options(options);
  if (fmt.bitdepth != 8 && fmt.bitdepth != 10 && fmt.bitdepth != 12 && fmt.bitdepth != 16)
    throw RefusedConfiguration("bitdepth", std::to_string(fmt.bitdepth), fmt::format("bit depth {} is not one of 8, 10, 12, 16", fmt.bitdepth));
  planes_ = planes_scored(fmt, opts_);
  params_ = score_params(fmt, opts_);
  fmt_ = fmt;
  frames_ = scored_ = 0;
  engine_->init(fmt, planes_);
  initialised_ = true;
}

std::vector<std::string> PsnrExtractor::metrics() const {
  // libvmaf's order: each plane's PSNR, then its MSE when asked.
  std::vector<std::string> m;
  for (int k = 0; k < planes_; ++k) {
    m.emplace_back(kPsnrNames[k]);
    if (opts_.enable_mse) m.emplace_back(kMseNames[k]);
  }
  return m;
}

void PsnrExtractor::extract(const PictureView& ref, const PictureView& dist, unsigned frame, ScoreSink& sink) {
  if (!initialised_) throw std::logic_error("psnr: extract() before init()");
  for (const PictureView* pic : {&ref, &dist})
    if (!(pic->fmt == fmt_))
      throw RefusedConfiguration("picture", describe(pic->fmt),
                                 fmt::format("{} picture is {}, but the extractor was initialised for {}",
                                             pic == &ref ? "reference" : "distorted", describe(pic->fmt), describe(fmt_)));
  if (frames_ == 0) first_label_ = frame;
  else if (frame != first_label_ + frames_)
    throw std::logic_error(fmt::format("psnr: frame {} follows frame {}", frame, first_label_ + frames_ - 1));
  ++frames_;
  engine_->submit(ref, dist);
  drain(sink, ctx_.capture_stages);  // capture wants each frame's stages before the next
}

void PsnrExtractor::drain(ScoreSink& sink, bool wait) {
  while (scored_ < frames_) {
    const std::optional<PlaneSse> sse = engine_->take(wait);
    if (!sse) break;
    const unsigned label = first_label_ + scored_++;
    if (ctx_.capture_stages) captured_outputs_.clear();
    const auto emit = [&](const char* metric, double v) {
      if (ctx_.capture_stages) captured_outputs_.emplace_back(fmt::format("{}[{}]", metric, label), v);
      sink.put(metric, label, v);
    };
    for (int k = 0; k < planes_; ++k) {
      const double mse = plane_mse((*sse)[k], read_plane(fmt_, k));
      emit(kPsnrNames[k], plane_psnr(mse, params_, k));
      if (opts_.enable_mse) emit(kMseNames[k], mse);
    }
  }
}

void PsnrExtractor::flush(ScoreSink& sink) {
  if (!initialised_) return;
  drain(sink, true);
  if (scored_ != frames_)
    throw std::logic_error(fmt::format("psnr: engine returned {} frames' sums for {} frames", scored_, frames_));
}

std::optional<Probe> PsnrExtractor::inspect(std::string_view stage) const {
  if (!ctx_.capture_stages) return std::nullopt;
  if (stage == "outputs") {
    Probe p{std::string(stage), {}};
    for (const auto& [name, v] : captured_outputs_) p.arrays.push_back(ProbeArray{name, 1, 1, false, {v}});
    return p;
  }
  return engine_->inspect(stage);
}

}  // namespace twinproof::psnr
