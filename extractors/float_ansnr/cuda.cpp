// cuda: float_ansnr's exact CUDA twin. Frame pairs go to the device in batches of up to 8, two
// batches in flight (extractors/cuda/pair_batches.hpp), the luma alone. One thread a row filters
// and sums the row (extractors/float_ansnr/ansnr.cu), one thread a frame adds the rows, and the
// batch's energies come back with one small copy.
#include "extractors/cuda/pair_batches.hpp"
#include "extractors/float_ansnr/frame_loop.hpp"
#include "extractors/float_ansnr/kernels.hpp"

namespace twinproof::float_ansnr {
namespace {

using Batches = cuda::PairBatches<EnergyEngine>;

class CudaEnergyEngine final : public Batches {
 public:
  explicit CudaEnergyEngine(const ExtractorContext& ctx) : Batches(ctx) {}

  void init(const Format& fmt) override {
    cuda::use_device(context().device);
    const bool capture = context().capture_stages;
    frames_a_batch_ = capture ? 1 : kMaxBatch;  // capture inspects every frame
    const std::size_t samples = static_cast<std::size_t>(fmt.width) * fmt.height;
    for (int k = 0; k < kInFlight; ++k) {
      rows_[k].resize(static_cast<std::size_t>(frames_a_batch_) * fmt.height);
      frames_[k].resize(frames_a_batch_);
      frames_host_[k] = cuda::PinnedBuffer<Energy>(cuda::HostUse::kCopies);
      frames_host_[k].resize(frames_a_batch_);
    }
    for (auto* b : {&ref_filtered_, &dis_filtered_}) b->resize(capture ? samples : 0);
    for (auto* b : {&ref_filtered_host_, &dis_filtered_host_}) {
      *b = cuda::PinnedBuffer<float>(cuda::HostUse::kCopies);
      b->resize(capture ? samples : 0);
    }
    rows_host_ = cuda::PinnedBuffer<Energy>(cuda::HostUse::kCopies);
    rows_host_.resize(capture ? static_cast<std::size_t>(fmt.height) : 0);
    have_frame_ = false;
    setup(fmt, /*planes=*/1, frames_a_batch_);
  }

  std::optional<Probe> inspect(std::string_view stage) const override {
    if (!context().capture_stages || !have_frame_) return std::nullopt;
    if (stage == "filtered")
      return filtered_probe({ref_filtered_host_.get(), ref_filtered_host_.size()},
                            {dis_filtered_host_.get(), dis_filtered_host_.size()}, format().width, format().height);
    if (stage == "row_energy") return row_energy_probe({rows_host_.get(), rows_host_.size()});
    if (stage == "energy") return energy_probe(last_);
    return std::nullopt;
  }

 private:
  void compute(int slot, int n, cudaStream_t s) override {
    const kernels::LumaBatch b = luma_batch(slot, n);
    const bool capture = context().capture_stages;
    TP_CUDA(kernels::row_energy(b, rows_[slot].get(), capture ? ref_filtered_.get() : nullptr,
                                capture ? dis_filtered_.get() : nullptr, s));
    TP_CUDA(kernels::frame_energy(b, rows_[slot].get(), frames_[slot].get(), s));
  }

  void read_back(int slot, int n, cudaStream_t s) override {
    TP_CUDA(cudaMemcpyAsync(frames_host_[slot].get(), frames_[slot].get(), sizeof(Energy) * n, cudaMemcpyDeviceToHost, s));
    if (!context().capture_stages) return;
    TP_CUDA(cudaMemcpyAsync(rows_host_.get(), rows_[slot].get(), sizeof(Energy) * rows_host_.size(), cudaMemcpyDeviceToHost, s));
    TP_CUDA(cudaMemcpyAsync(ref_filtered_host_.get(), ref_filtered_.get(), ref_filtered_.bytes(), cudaMemcpyDeviceToHost, s));
    TP_CUDA(cudaMemcpyAsync(dis_filtered_host_.get(), dis_filtered_.get(), dis_filtered_.bytes(), cudaMemcpyDeviceToHost, s));
  }

  Energy result(int slot, int f) override {
    last_ = frames_host_[slot].get()[f];
    have_frame_ = true;
    return last_;
  }

  int frames_a_batch_ = kMaxBatch;
  cuda::DeviceBuffer<Energy> rows_[kInFlight];
  cuda::DeviceBuffer<Energy> frames_[kInFlight];
  cuda::PinnedBuffer<Energy> frames_host_[kInFlight];
  cuda::DeviceBuffer<float> ref_filtered_, dis_filtered_;  // only when stages are captured
  cuda::PinnedBuffer<float> ref_filtered_host_{cuda::HostUse::kCopies}, dis_filtered_host_{cuda::HostUse::kCopies};
  cuda::PinnedBuffer<Energy> rows_host_{cuda::HostUse::kCopies};
  Energy last_{};
  bool have_frame_ = false;
};

}  // namespace

std::unique_ptr<Extractor> make_cuda(const ExtractorContext& ctx) {
  return with_engine<FloatAnsnrExtractor, CudaEnergyEngine>(ctx);
}

}  // namespace twinproof::float_ansnr
