// cuda-rowthread: the plain exact design. Conversion, vertical and horizontal blur kernels; one
// thread per row for the SAD; the h row sums come back and the host adds them with the same
// helper as the CPU reference, so the scores are the CPU's bits.
#include "extractors/float_motion/cuda_rowthread.hpp"

#include "kernels/float_motion/kernels.hpp"

namespace twinproof::float_motion {

void CudaRowThreadEngine::allocate(DevicePlane& p) {
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

void CudaRowThreadEngine::submit(const PictureView& pic) {
  const unsigned cur = frames_ & 1u, prev = cur ^ 1u;
  const bool pair = frames_ > 0;
  cudaStream_t s = stream_->get();
    cuda::Event start(true), stop(true);
    start.record(s);
  for (DevicePlane& p : planes_) {
    const PlaneGeometry& g = p.g;
    upload(pic, p, s);
    TP_CUDA(kernels::convert(p.samples.get(), fmt_.bytes_per_sample(), fmt_.bitdepth, g.w, g.h, p.converted.get(), s));
    TP_CUDA(kernels::blur_vertical(p.converted.get(), g.w, g.h, taps_, p.vertical.get(), s));
    TP_CUDA(kernels::blur_horizontal(p.vertical.get(), g.w, g.h, taps_, p.blurred[cur].get(), s));
    if (add_scale1_) TP_CUDA(kernels::downscale(p.blurred[cur].get(), g.w, g.h, g.sw, g.sh, p.down[cur].get(), s));
    if (!pair) continue;
    TP_CUDA(kernels::row_sad(p.blurred[prev].get(), p.blurred[cur].get(), g.w, g.h, p.rows.get(), s));
    TP_CUDA(cudaMemcpyAsync(p.host_rows.data(), p.rows.get(), p.rows.bytes(), cudaMemcpyDeviceToHost, s));
    if (add_scale1_) {
      TP_CUDA(kernels::row_sad(p.down[prev].get(), p.down[cur].get(), g.sw, g.sh, p.rows_down.get(), s));
      TP_CUDA(cudaMemcpyAsync(p.host_rows_down.data(), p.rows_down.get(), p.rows_down.bytes(), cudaMemcpyDeviceToHost, s));
    }
  }
  stop.record(s);
    stream_->sync();
    device_ms_ += cuda::elapsed_ms(start, stop);
  if (pair) {
    double score = 0;
    for (DevicePlane& p : planes_) {
      // The host adds the row sums exactly as the CPU reference does.
      p.total = total_of_row_sums(p.host_rows);
      const float sad0 = score_from_row_sums(p.host_rows, p.g.w);
      float sad1 = 0;
      if (add_scale1_) {
        p.total_down = total_of_row_sums(p.host_rows_down);
        sad1 = score_from_row_sums(p.host_rows_down, p.g.sw);
      }
      p.score = plane_score(sad0, sad1, add_scale1_);
      score += static_cast<double>(p.score);
    }
    ready_.push_back(score);
  }
  ++frames_;
}

}  // namespace twinproof::float_motion

namespace twinproof {
std::unique_ptr<Extractor> make_float_motion_cuda_rowthread(const ExtractorContext& ctx) {
  return float_motion::make_motion_extractor<float_motion::CudaRowThreadEngine>(ctx);
}
}  // namespace twinproof
