// cuda: psnr's exact CUDA twin. Frame pairs go to the device in batches of up to 8, two batches in
// flight (extractors/cuda/pair_batches.hpp). One kernel launch a batch (extractors/psnr/sse.cu) adds
// every plane's squared errors into its 64-bit total, which comes back to the host with one small
// copy. Integer sums: the same bits in any order, so the split over blocks changes nothing.
// With stages captured, frames go one a batch and a row kernel writes each row's sum too.
#include <array>
#include <span>

#include "extractors/cuda/pair_batches.hpp"
#include "extractors/psnr/frame_loop.hpp"
#include "extractors/psnr/kernels.hpp"

namespace twinproof::psnr {
namespace {

using Batches = cuda::PairBatches<SseEngine>;
static_assert(Batches::kMaxBatch * 3 <= kernels::kMaxPlanes);

class CudaSseEngine final : public Batches {
 public:
  explicit CudaSseEngine(const ExtractorContext& ctx) : Batches(ctx) {}

  void init(const Format& fmt, int planes) override {
    cuda::use_device(context().device);
    planes_ = planes;
    const int batch = context().capture_stages ? 1 : kMaxBatch;  // capture inspects every frame
    std::size_t rows = 0;
    for (int k = 0; k < planes; ++k) {
      row_offset_[k] = rows;
      rows += static_cast<std::size_t>(read_plane(fmt, k).h);
    }
    for (int k = 0; k < kInFlight; ++k) {
      totals_[k].resize(3 * batch);
      totals_host_[k] = cuda::PinnedBuffer<unsigned long long>(cuda::HostUse::kCopies);
      totals_host_[k].resize(3 * batch);
    }
    rows_dev_.resize(context().capture_stages ? rows : 0);
    rows_host_ = cuda::PinnedBuffer<std::uint64_t>(cuda::HostUse::kCopies);
    rows_host_.resize(context().capture_stages ? rows : 0);
    have_frame_ = false;
    setup(fmt, planes, batch);
  }

  std::optional<Probe> inspect(std::string_view stage) const override {
    if (!context().capture_stages || !have_frame_) return std::nullopt;
    if (stage == "plane_sse") return plane_sse_probe(last_sse_, planes_);
    if (stage != "row_sums") return std::nullopt;
    std::array<std::span<const std::uint64_t>, 3> rows;
    for (int k = 0; k < planes_; ++k)
      rows[k] = {rows_host_.get() + row_offset_[k], static_cast<std::size_t>(read_plane(format(), k).h)};
    return row_sums_probe(rows, planes_);
  }

 private:
  void compute(int slot, int n, cudaStream_t s) override {
    kernels::PlaneBatch planes;
    const int bytes = format().bytes_per_sample();
    for (int f = 0; f < n; ++f)
      for (int p = 0; p < planes_; ++p) {
        const PlaneSize ps = read_plane(format(), p);
        planes.plane[f * planes_ + p] = {frame_plane(0, slot, f, p), frame_plane(1, slot, f, p), ps.w, ps.h,
                                         stored_plane_size(format(), p).w};
      }
    planes.count = n * planes_;
    TP_CUDA(cudaMemsetAsync(totals_[slot].get(), 0, totals_[slot].bytes(), s));
    TP_CUDA(kernels::plane_sse(planes, bytes, totals_[slot].get(), s));
    if (context().capture_stages)
      for (int p = 0; p < planes_; ++p) {
        const kernels::PlanePair& pp = planes.plane[p];
        TP_CUDA(kernels::row_sse(pp.ref, pp.dist, pp.w, pp.h, pp.pitch, bytes, rows_dev_.get() + row_offset_[p], s));
      }
  }

  void read_back(int slot, int n, cudaStream_t s) override {
    TP_CUDA(cudaMemcpyAsync(totals_host_[slot].get(), totals_[slot].get(), sizeof(unsigned long long) * 3 * n,
                            cudaMemcpyDeviceToHost, s));
    if (context().capture_stages)
      TP_CUDA(cudaMemcpyAsync(rows_host_.get(), rows_dev_.get(), rows_dev_.bytes(), cudaMemcpyDeviceToHost, s));
  }

  PlaneSse result(int slot, int f) override {
    PlaneSse sse{};
    for (int p = 0; p < planes_; ++p) sse[p] = totals_host_[slot].get()[f * planes_ + p];
    last_sse_ = sse;
    have_frame_ = true;
    return sse;
  }

  int planes_ = 3;
  std::size_t row_offset_[3] = {0, 0, 0};
  cuda::DeviceBuffer<unsigned long long> totals_[kInFlight];
  cuda::PinnedBuffer<unsigned long long> totals_host_[kInFlight];
  cuda::DeviceBuffer<unsigned long long> rows_dev_;  // only when stages are captured
  cuda::PinnedBuffer<std::uint64_t> rows_host_{cuda::HostUse::kCopies};
  PlaneSse last_sse_{};
  bool have_frame_ = false;
};

}  // namespace
std::unique_ptr<Extractor> make_cuda(const ExtractorContext& ctx) { return with_engine<PsnrExtractor, CudaSseEngine>(ctx); }

}  // namespace twinproof::psnr
