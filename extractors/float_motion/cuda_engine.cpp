#include "extractors/float_motion/cuda_engine.hpp"

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

std::optional<double> CudaEngineBase::take(bool) {
  if (ready_.empty()) return std::nullopt;
  const double s = ready_.front();
  ready_.pop_front();
  return s;
}

std::optional<Probe> CudaEngineBase::inspect(Stage stage) const {
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
  Probe p{stage, {}};
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
