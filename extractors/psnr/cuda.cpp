// cuda: psnr's exact CUDA twin. Each frame pair's scored planes are uploaded into compact device
// planes, one kernel launch per plane (kernels/psnr/sse.cu) writes every row's 64-bit squared
// error, and the rows come back to the host, which adds them in order (integer sums: the same
// bits in any order). The shared frame loop turns the sums into scores. One frame at a time: the
// plain design, exact first; overlap of uploads and kernels is left to a later change.
#include <algorithm>
#include <array>
#include <span>
#include <vector>

#include "extractors/cuda/runtime.hpp"
#include "extractors/psnr/frame_loop.hpp"
#include "extractors/ready_queue.hpp"
#include "kernels/psnr/kernels.hpp"

namespace twinproof::psnr {
namespace {

class CudaSseEngine final : public SseEngine {
 public:
  explicit CudaSseEngine(const ExtractorContext& ctx) : ctx_(ctx) {}

  void init(const Format& fmt, int planes) override {
    cuda::use_device(ctx_.device);
    stream_ = std::make_unique<cuda::Stream>();
    start_ = std::make_unique<cuda::Event>(true);
    stop_ = std::make_unique<cuda::Event>(true);
    fmt_ = fmt;
    planes_ = planes;
    std::size_t samples = 0, rows = 0;
    for (int k = 0; k < planes; ++k) {
      const PlaneSize ps = read_plane(fmt, k);
      offset_[k] = samples;
      row_offset_[k] = rows;
      samples += static_cast<std::size_t>(ps.w) * ps.h;
      rows += static_cast<std::size_t>(ps.h);
    }
    ref_.resize(samples * fmt.bytes_per_sample());
    dist_.resize(samples * fmt.bytes_per_sample());
    rows_dev_.resize(rows);
    rows_host_ = cuda::PinnedBuffer<std::uint64_t>(cuda::HostUse::kCopies);
    rows_host_.resize(rows);
    queue_.clear();
    device_ms_ = 0;
    have_frame_ = false;
  }

  void submit(const PictureView& ref, const PictureView& dist) override {
    cuda::use_device(ctx_.device);
    const int bytes = fmt_.bytes_per_sample();
    const cudaStream_t s = stream_->get();
    for (int k = 0; k < planes_; ++k) {
      const PlaneSize ps = read_plane(fmt_, k);
      if (ps.w == 0 || ps.h == 0) continue;
      const std::size_t row_bytes = static_cast<std::size_t>(ps.w) * bytes;
      TP_CUDA(cudaMemcpy2DAsync(ref_.get() + offset_[k] * bytes, row_bytes, ref.data[k], ref.stride[k], row_bytes, ps.h,
                                cudaMemcpyHostToDevice, s));
      TP_CUDA(cudaMemcpy2DAsync(dist_.get() + offset_[k] * bytes, row_bytes, dist.data[k], dist.stride[k], row_bytes, ps.h,
                                cudaMemcpyHostToDevice, s));
    }
    start_->record(s);
    for (int k = 0; k < planes_; ++k) {
      const PlaneSize ps = read_plane(fmt_, k);
      if (ps.w == 0 || ps.h == 0) continue;
      TP_CUDA(kernels::row_sse(ref_.get() + offset_[k] * bytes, dist_.get() + offset_[k] * bytes, ps.w, ps.h, bytes,
                               rows_dev_.get() + row_offset_[k], s));
    }
    stop_->record(s);
    TP_CUDA(cudaMemcpyAsync(rows_host_.get(), rows_dev_.get(), rows_dev_.bytes(), cudaMemcpyDeviceToHost, s));
    stream_->sync();
    float ms = 0;
    TP_CUDA(cudaEventElapsedTime(&ms, start_->get(), stop_->get()));
    device_ms_ += ms;
    sse_ = {};
    for (int k = 0; k < planes_; ++k) {
      const PlaneSize ps = read_plane(fmt_, k);
      std::uint64_t* rows = rows_host_.get() + row_offset_[k];
      if (ps.w == 0) std::fill(rows, rows + ps.h, std::uint64_t{0});  // rows of no sample: no kernel wrote them
      for (int y = 0; y < ps.h; ++y) sse_[k] += rows[y];
    }
    have_frame_ = true;
    queue_.push(sse_);
  }

  std::optional<PlaneSse> take(bool) override { return queue_.take(); }
  std::optional<double> device_ms() const override { return device_ms_; }

  std::optional<Probe> inspect(std::string_view stage) const override {
    if (!ctx_.capture_stages || !have_frame_) return std::nullopt;
    if (stage == "plane_sse") return plane_sse_probe(sse_, planes_);
    if (stage != "row_sums") return std::nullopt;
    std::array<std::span<const std::uint64_t>, 3> rows;
    for (int k = 0; k < planes_; ++k)
      rows[k] = {rows_host_.get() + row_offset_[k],
                 static_cast<std::size_t>(read_plane(fmt_, k).h)};
    return row_sums_probe(rows, planes_);
  }

 private:
  const ExtractorContext ctx_;
  std::unique_ptr<cuda::Stream> stream_;
  std::unique_ptr<cuda::Event> start_, stop_;
  Format fmt_{};
  int planes_ = 3;
  std::size_t offset_[3] = {0, 0, 0}, row_offset_[3] = {0, 0, 0};
  cuda::DeviceBuffer<std::uint8_t> ref_, dist_;
  cuda::DeviceBuffer<unsigned long long> rows_dev_;
  cuda::PinnedBuffer<std::uint64_t> rows_host_{cuda::HostUse::kCopies};  // the device's 64-bit rows, copied as bytes
  PlaneSse sse_{};
  bool have_frame_ = false;
  double device_ms_ = 0;
  ReadyQueue<PlaneSse> queue_;
};

}  // namespace
}  // namespace twinproof::psnr

namespace twinproof {
std::unique_ptr<Extractor> make_psnr_cuda(const ExtractorContext& ctx) { return psnr::make_psnr<psnr::CudaSseEngine>(ctx); }
}  // namespace twinproof
