// cuda-block: the design the exact twins replaced, kept as the places=4 member of the matrix.
// A fused 2D blur, |A - B| summed per 16x16 block with warp shuffles, and the host adding the
// block sums in double. Its blur is bit-identical to the reference; its reduction is not.
#include "extractors/float_motion/cuda_engine.hpp"
#include "kernels/float_motion/kernels.hpp"

namespace twinproof::float_motion {
namespace {

int blocks_of(int n) { return (n + kernels::kSadBlock - 1) / kernels::kSadBlock; }

class CudaBlockEngine final : public CudaEngineBase {
 public:
  using CudaEngineBase::CudaEngineBase;

  void submit(const PictureView& pic) override {
    const unsigned cur = frames_ & 1u, prev = cur ^ 1u;
    const bool pair = frames_ > 0;
    cudaStream_t s = stream_->get();
    cuda::Event start(true), stop(true);
    start.record(s);
    for (DevicePlane& p : planes_) {
      const PlaneGeometry& g = p.g;
      upload(pic, p, s);
      TP_CUDA(kernels::fused_blur(p.samples.get(), fmt_.bytes_per_sample(), fmt_.bitdepth, g.w, g.h, taps_, p.blurred[cur].get(), s));
      if (add_scale1_) TP_CUDA(kernels::downscale(p.blurred[cur].get(), g.w, g.h, g.sw, g.sh, p.down[cur].get(), s));
      if (!pair) continue;
      // Block sums ride in the rows buffers: this design has no row sums.
      TP_CUDA(kernels::block_sad(p.blurred[prev].get(), p.blurred[cur].get(), g.w, g.h, p.rows.get(), s));
      TP_CUDA(cudaMemcpyAsync(p.host_rows.data(), p.rows.get(), p.rows.bytes(), cudaMemcpyDeviceToHost, s));
      if (add_scale1_) {
        TP_CUDA(kernels::block_sad(p.down[prev].get(), p.down[cur].get(), g.sw, g.sh, p.rows_down.get(), s));
        TP_CUDA(cudaMemcpyAsync(p.host_rows_down.data(), p.rows_down.get(), p.rows_down.bytes(), cudaMemcpyDeviceToHost, s));
      }
    }
    stop.record(s);
    stream_->sync();
    device_ms_ += cuda::elapsed_ms(start, stop);
    if (pair) {
      double score = 0;
      for (DevicePlane& p : planes_) {
        p.total = sum_in_double(p.host_rows);
        const float sad0 = static_cast<float>(p.total / (static_cast<double>(p.g.w) * p.g.h));
        float sad1 = 0;
        if (add_scale1_) {
          p.total_down = sum_in_double(p.host_rows_down);
          sad1 = static_cast<float>(p.total_down / (static_cast<double>(p.g.sw) * p.g.sh));
        }
        p.score = plane_score(sad0, sad1, add_scale1_);
        score += static_cast<double>(p.score);
      }
      ready_.push_back(score);
    }
    ++frames_;
  }

 protected:
  bool has_stage(Stage s) const override {
    // Fused blur: no converted or vertical planes; block sums instead of row sums.
    return s != Stage::converted && s != Stage::vertical && s != Stage::row_sums;
  }
  void allocate(DevicePlane& p) override {
    const std::size_t blocks = static_cast<std::size_t>(blocks_of(p.g.w)) * blocks_of(p.g.h);
    p.rows.resize(blocks);
    p.host_rows.resize(blocks);
    if (add_scale1_) {
      const std::size_t down_blocks = static_cast<std::size_t>(blocks_of(p.g.sw)) * blocks_of(p.g.sh);
      p.rows_down.resize(down_blocks);
      p.host_rows_down.resize(down_blocks);
    }
  }

 private:
  static double sum_in_double(const std::vector<float>& v) {
    double t = 0;
    for (float x : v) t += x;
    return t;
  }
};

}  // namespace
}  // namespace twinproof::float_motion

namespace twinproof {
std::unique_ptr<Extractor> make_float_motion_cuda_block(const ExtractorContext& ctx) {
  return float_motion::make_motion_extractor<float_motion::CudaBlockEngine>(ctx);
}
}  // namespace twinproof
