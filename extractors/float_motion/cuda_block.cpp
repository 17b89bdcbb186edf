// cuda-block: the design the exact twins replaced, kept as the places=4 member of the matrix.
// A fused 2D blur, |A - B| summed per 16x16 block with warp shuffles, and the host adding the
// block sums in double. Its blur is bit-identical to the reference; its reduction is not.
#include "extractors/float_motion/cuda_engine.hpp"
#include "extractors/float_motion/kernels.hpp"

namespace twinproof::float_motion {
namespace {

std::size_t blocks_of(int w, int h) {
  const auto n = [](int x) { return static_cast<std::size_t>((x + kernels::kSadBlock - 1) / kernels::kSadBlock); };
  return n(w) * n(h);
}

class CudaBlockEngine final : public CudaEngineBase {
 public:
  using CudaEngineBase::CudaEngineBase;

 protected:
  bool has_stage(Stage s) const override {
    // Fused blur: no converted or vertical planes; block sums instead of row sums.
    return s != Stage::converted && s != Stage::vertical && s != Stage::row_sums;
  }

  // Block sums ride in the rows buffers: this design has no row sums.
  void allocate(DevicePlane& p) override {
    p.rows.resize(blocks_of(p.g.w, p.g.h));
    p.host_rows.resize(p.rows.size());
    if (add_scale1_) {
      p.rows_down.resize(blocks_of(p.g.sw, p.g.sh));
      p.host_rows_down.resize(p.rows_down.size());
    }
  }

  void blur(DevicePlane& p, float* out, cudaStream_t s) override {
    TP_CUDA(kernels::fused_blur(p.samples.get(), fmt_.bytes_per_sample(), fmt_.bitdepth, p.g.w, p.g.h, taps_, out, s));
  }

  void reduce(const float* a, const float* b, int w, int h, float* sums, cudaStream_t s) override {
    TP_CUDA(kernels::block_sad(a, b, w, h, sums, s));
  }

  float sad_from_sums(const std::vector<float>& blocks, int w, int h, double& total) const override {
    total = 0;
    for (float x : blocks) total += x;
    return static_cast<float>(total / (static_cast<double>(w) * h));
  }
};

}  // namespace
std::unique_ptr<Extractor> make_cuda_block(const ExtractorContext& ctx) {
  return with_engine<MotionExtractor, CudaBlockEngine>(ctx);
}

}  // namespace twinproof::float_motion
