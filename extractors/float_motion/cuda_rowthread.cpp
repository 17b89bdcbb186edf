// cuda-rowthread: the plain exact design. Conversion, vertical and horizontal blur kernels; one
// thread per row for the SAD; the h row sums come back and the host adds them with the same
// helper as the CPU reference, so the scores are the CPU's bits.
#include "extractors/float_motion/cuda_engine.hpp"
#include "extractors/float_motion/kernels.hpp"

namespace twinproof::float_motion {
namespace {

class CudaRowThreadEngine final : public CudaEngineBase {
 public:
  using CudaEngineBase::CudaEngineBase;

 protected:
  bool has_stage(Stage) const override { return true; }

  void allocate(DevicePlane& p) override {
    const std::size_t n = static_cast<std::size_t>(p.g.w) * p.g.h;
    p.converted.resize(n);
    p.vertical.resize(n);
    p.rows.resize(p.g.h);
    p.host_rows.resize(p.g.h);
    if (add_scale1_) {
      p.rows_down.resize(p.g.sh);
      p.host_rows_down.resize(p.g.sh);
    }
  }

  void blur(DevicePlane& p, float* out, cudaStream_t s) override {
    const PlaneGeometry& g = p.g;
    TP_CUDA(kernels::convert(p.samples.get(), fmt_.bytes_per_sample(), fmt_.bitdepth, g.w, g.h, p.converted.get(), s));
    TP_CUDA(kernels::blur_vertical(p.converted.get(), g.w, g.h, taps_, p.vertical.get(), s));
    TP_CUDA(kernels::blur_horizontal(p.vertical.get(), g.w, g.h, taps_, out, s));
  }

  void reduce(const float* a, const float* b, int w, int h, float* sums, cudaStream_t s) override {
    TP_CUDA(kernels::row_sad(a, b, w, h, sums, s));
  }

  // The host adds the row sums exactly as the CPU reference does.
  float sad_from_sums(const std::vector<float>& rows, int w, int, double& total) const override {
    total = total_of_row_sums(rows);
    return score_from_row_sums(rows, w);
  }
};

}  // namespace
std::unique_ptr<Extractor> make_cuda_rowthread(const ExtractorContext& ctx) {
  return with_engine<MotionExtractor, CudaRowThreadEngine>(ctx);
}

}  // namespace twinproof::float_motion
