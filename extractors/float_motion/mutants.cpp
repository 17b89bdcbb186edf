// Deliberately broken twins: the gate's and repro's self-test. Registered only with
// --with-mutants. Each is the reference with one known fault, so a test can assert that the
// gate fails it and that repro names the stage where it departs.
#include <cmath>
#include <limits>

#include "extractors/float_motion/cpu.hpp"
#include "extractors/registry.hpp"

namespace twinproof::float_motion {
namespace {

constexpr unsigned kMutatedFrame = 1;  // the frame the single-frame mutants touch

// Output mutants: the reference's extractor, with its emitted scores rewritten on the way out.
class OutputMutant final : public Extractor {
 public:
  enum class Fault { one_ulp, nan, drift };
  OutputMutant(Fault f, double drift, const ExtractorContext& ctx)
      : fault_(f), drift_(drift), ctx_(ctx), inner_(with_engine<float_motion::MotionExtractor, float_motion::CpuEngine>(ctx)) {}

  void init(const Format& fmt, const OptionList& options) override { inner_->init(fmt, options); }
  void extract(const PictureView& pic, const PictureView& dist, unsigned frame, ScoreSink& sink) override {
    if (ctx_.capture_stages) outputs_.arrays.clear();
    Rewriter r{*this, sink};
    inner_->extract(pic, dist, frame, r);
  }
  void flush(ScoreSink& sink) override {
    Rewriter r{*this, sink};
    inner_->flush(r);
  }
  std::vector<std::string> metrics() const override { return inner_->metrics(); }
  std::optional<Probe> inspect(std::string_view s) const override {
    if (s != stage_id(Stage::outputs)) return inner_->inspect(s);
    if (!ctx_.capture_stages) return std::nullopt;
    return outputs_;
  }

 private:
  struct Rewriter final : ScoreSink {
    OutputMutant& m;
    ScoreSink& out;
    Rewriter(OutputMutant& mm, ScoreSink& o) : m(mm), out(o) {}
    void put(std::string_view metric, unsigned frame, double v) override {
      v = m.rewrite(metric, frame, v);
      if (m.ctx_.capture_stages)
        m.outputs_.arrays.push_back(ProbeArray{std::string(metric) + "[" + std::to_string(frame) + "]", 1, 1, false, {v}});
      out.put(metric, frame, v);
    }
  };
  double rewrite(std::string_view metric, unsigned frame, double v) const {
    switch (fault_) {
      case Fault::one_ulp:
        return metric == "motion2" && frame == kMutatedFrame ? std::nextafter(v, std::numeric_limits<double>::infinity()) : v;
      case Fault::nan: return metric == "motion2" && frame == kMutatedFrame ? std::numeric_limits<double>::quiet_NaN() : v;
      case Fault::drift: return v + drift_;
    }
    return v;
  }

  Fault fault_;
  double drift_;
  ExtractorContext ctx_;
  std::unique_ptr<Extractor> inner_;
  Probe outputs_{std::string(stage_id(Stage::outputs)), {}};
};

// Rows summed pairwise instead of left to right.
class PairwiseSumEngine final : public CpuEngine {
 public:
  using CpuEngine::CpuEngine;

 protected:
  void row_sums(const float* a, const float* b, int w, int h, float* out) override {
    std::vector<float> d(w);
    for (int i = 0; i < h; ++i) {
      for (int j = 0; j < w; ++j)
        d[j] = std::fabs(a[static_cast<std::size_t>(i) * w + j] - b[static_cast<std::size_t>(i) * w + j]);
      int n = w;
      while (n > 1) {
        const int half = n / 2;
        for (int j = 0; j < half; ++j) d[j] = d[2 * j] + d[2 * j + 1];
        if (n % 2) d[half] = d[n - 1];
        n = half + n % 2;
      }
      out[i] = d[0];
    }
  }
};

// One blurred luma sample of frame kMutatedFrame one ULP up, at (row 17, column 23) or the
// nearest sample inside smaller planes.
class BlurPixelEngine final : public CpuEngine {
 public:
  using CpuEngine::CpuEngine;
  static int row(int h) { return std::min(17, h - 1); }
  static int col(int w) { return std::min(23, w - 1); }

 protected:
  void blur(const float* converted, const PlaneGeometry& g, float* tmp, float* out) override {
    CpuEngine::blur(converted, g, tmp, out);
    if (g.plane == 0 && frames_ == kMutatedFrame) {
      float& p = out[static_cast<std::size_t>(row(g.h)) * g.w + col(g.w)];
      p = std::nextafter(p, std::numeric_limits<float>::infinity());
    }
  }
};

}  // namespace
std::unique_ptr<Extractor> make_mutant_ulp(const ExtractorContext& ctx) {
  return std::make_unique<OutputMutant>(OutputMutant::Fault::one_ulp, 0.0, ctx);
}
std::unique_ptr<Extractor> make_mutant_nan(const ExtractorContext& ctx) {
  return std::make_unique<OutputMutant>(OutputMutant::Fault::nan, 0.0, ctx);
}
std::unique_ptr<Extractor> make_mutant_drift(const ExtractorContext& ctx) {
  return std::make_unique<OutputMutant>(OutputMutant::Fault::drift, 4e-5, ctx);
}
std::unique_ptr<Extractor> make_mutant_drift_6e5(const ExtractorContext& ctx) {
  return std::make_unique<OutputMutant>(OutputMutant::Fault::drift, 6e-5, ctx);
}
std::unique_ptr<Extractor> make_mutant_sum(const ExtractorContext& ctx) {
  return with_engine<MotionExtractor, PairwiseSumEngine>(ctx);
}
std::unique_ptr<Extractor> make_mutant_blur(const ExtractorContext& ctx) {
  return with_engine<MotionExtractor, BlurPixelEngine>(ctx);
}

}  // namespace twinproof::float_motion
