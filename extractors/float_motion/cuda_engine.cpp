#include "extractors/float_motion/cuda_engine.hpp"

#include "extractors/float_motion/kernels.hpp"

namespace twinproof::float_motion {

void CudaEngineBase::init(const Format& fmt, const std::vector<PlaneGeometry>& planes, const MotionOptions& o) {
  cuda::use_device(ctx_.device);
  stream_ = std::make_unique<cuda::Stream>();
  fmt_ = fmt;
  taps_ = taps_for(o.filter_size);
  add_scale1_ = o.add_scale1;
  planes_.clear();
  planes_.resize(planes.size());
  for (std::size_t i = 0; i < planes.size(); ++i) {
    DevicePlane& p = planes_[i];
    p.g = planes[i];
    const std::size_t n = static_cast<std::size_t>(p.g.w) * p.g.h;
    p.samples.resize(n * bytes_per_sample());
    p.blurred[0].resize(n);
    p.blurred[1].resize(n);
    if (add_scale1_) {
      p.down[0].resize(static_cast<std::size_t>(p.g.sw) * p.g.sh);
      p.down[1].resize(static_cast<std::size_t>(p.g.sw) * p.g.sh);
    }
    allocate(p);
  }
  frames_ = 0;
  ready_.clear();
  device_ms_ = 0;
}

void CudaEngineBase::upload(const PictureView& pic, DevicePlane& p, cudaStream_t stream) {
  const std::size_t row_bytes = static_cast<std::size_t>(p.g.w) * bytes_per_sample();
  TP_CUDA(cudaMemcpy2DAsync(p.samples.get(), row_bytes, pic.data[p.g.plane], static_cast<std::size_t>(pic.stride[p.g.plane]),
                            row_bytes, static_cast<std::size_t>(p.g.h), cudaMemcpyHostToDevice, stream));
}

void CudaEngineBase::submit(const PictureView& pic) {
  const unsigned cur = frames_ & 1u, prev = cur ^ 1u;
  const bool pair = frames_ > 0;
  cudaStream_t s = stream_->get();
  cuda::Event start(true), stop(true);
  for (DevicePlane& p : planes_) upload(pic, p, s);
  start.record(s);  // device time counts the kernels (and the small row-sum downloads), not the upload
  for (DevicePlane& p : planes_) {
    const PlaneGeometry& g = p.g;
    blur(p, p.blurred[cur].get(), s);
    if (add_scale1_) TP_CUDA(kernels::downscale(p.blurred[cur].get(), g.w, g.h, g.sw, g.sh, p.down[cur].get(), s));
    if (!pair) continue;
    reduce(p.blurred[prev].get(), p.blurred[cur].get(), g.w, g.h, p.rows.get(), s);
    TP_CUDA(cudaMemcpyAsync(p.host_rows.data(), p.rows.get(), p.rows.bytes(), cudaMemcpyDeviceToHost, s));
    if (add_scale1_) {
      reduce(p.down[prev].get(), p.down[cur].get(), g.sw, g.sh, p.rows_down.get(), s);
      TP_CUDA(cudaMemcpyAsync(p.host_rows_down.data(), p.rows_down.get(), p.rows_down.bytes(), cudaMemcpyDeviceToHost, s));
    }
  }
  stop.record(s);
  stream_->sync();
  device_ms_ += cuda::elapsed_ms(start, stop);
  if (pair) {
    double score = 0;
    for (DevicePlane& p : planes_) {
      const float sad0 = sad_from_sums(p.host_rows, p.g.w, p.g.h, p.total);
      const float sad1 = add_scale1_ ? sad_from_sums(p.host_rows_down, p.g.sw, p.g.sh, p.total_down) : 0.0f;
      p.score = plane_score(sad0, sad1, add_scale1_);
      score += static_cast<double>(p.score);  // Y, then + U, then + V, in double
    }
    ready_.push(score);
  }
  ++frames_;
}

std::optional<double> CudaEngineBase::take(bool) { return ready_.take(); }

std::optional<Probe> CudaEngineBase::inspect_stage(Stage stage) const {
  if (!ctx_.capture_stages || frames_ == 0 || !has_stage(stage)) return std::nullopt;
  if (stage == Stage::downscaled && !add_scale1_) return std::nullopt;
  const bool have_pair = frames_ >= 2;
  if ((stage == Stage::row_sums || stage == Stage::plane_totals || stage == Stage::plane_scores) && !have_pair)
    return std::nullopt;
  const unsigned cur = (frames_ - 1) & 1u;
  const auto download = [](const cuda::DeviceBuffer<float>& d) {
    std::vector<float> h(d.size());
    TP_CUDA(cudaMemcpy(h.data(), d.get(), d.bytes(), cudaMemcpyDeviceToHost));
    return std::vector<double>(h.begin(), h.end());
  };
  Probe p{std::string(stage_id(stage)), {}};
  for (const DevicePlane& d : planes_) {
    const PlaneGeometry& g = d.g;
    const std::string scale1 = std::string(g.name) + "/scale1";
    switch (stage) {
      case Stage::converted: p.arrays.push_back({g.name, g.w, g.h, true, download(d.converted)}); break;
      case Stage::vertical: p.arrays.push_back({g.name, g.w, g.h, true, download(d.vertical)}); break;
      case Stage::blurred: p.arrays.push_back({g.name, g.w, g.h, true, download(d.blurred[cur])}); break;
      case Stage::downscaled: p.arrays.push_back({g.name, g.sw, g.sh, true, download(d.down[cur])}); break;
      case Stage::row_sums:
        p.arrays.push_back({g.name, 1, g.h, true, {d.host_rows.begin(), d.host_rows.end()}});
        if (add_scale1_) p.arrays.push_back({scale1, 1, g.sh, true, {d.host_rows_down.begin(), d.host_rows_down.end()}});
        break;
      case Stage::plane_totals: {
        // fp32 when the backend adds row sums in fp32; fp64 when it adds block sums in double.
        const bool fp32 = has_stage(Stage::row_sums);
        p.arrays.push_back({g.name, 1, 1, fp32, {d.total}});
        if (add_scale1_) p.arrays.push_back({scale1, 1, 1, fp32, {d.total_down}});
        break;
      }
      case Stage::plane_scores: p.arrays.push_back({g.name, 1, 1, true, {d.score}}); break;
      default: return std::nullopt;
    }
  }
  return p;
}

}  // namespace twinproof::float_motion
