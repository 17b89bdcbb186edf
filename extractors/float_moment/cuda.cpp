// cuda: float_moment's exact CUDA twin. Frame pairs go to the device in batches of up to 8, two
// batches in flight (extractors/cuda/pair_batches.hpp), the luma alone. One launch a batch adds
// each row's samples and squares as integers of their units (extractors/float_moment/moments.cu), a
// second turns each frame's rows into its four sums (exact below 2^53 units; the reference's
// sequential loop above), and the batch's sums come back with one small copy.
#include "extractors/cuda/pair_batches.hpp"
#include "extractors/float_moment/frame_loop.hpp"
#include "extractors/float_moment/kernels.hpp"

namespace twinproof::float_moment {
namespace {

using Batches = cuda::PairBatches<MomentEngine>;

class CudaMomentEngine final : public Batches {
 public:
  explicit CudaMomentEngine(const ExtractorContext& ctx) : Batches(ctx) {}

  void init(const Format& fmt) override {
    cuda::use_device(context().device);
    frames_a_batch_ = context().capture_stages ? 1 : kMaxBatch;  // capture inspects every frame
    const std::size_t rows = static_cast<std::size_t>(frames_a_batch_) * fmt.height;
    for (int k = 0; k < kInFlight; ++k) {
      units_[k].resize(4 * rows);
      after_row_[k].resize(4 * rows);
      sums_[k].resize(4 * static_cast<std::size_t>(frames_a_batch_));
      sums_host_[k] = cuda::PinnedBuffer<double>(cuda::HostUse::kCopies);
      sums_host_[k].resize(4 * static_cast<std::size_t>(frames_a_batch_));
    }
    after_row_host_ = cuda::PinnedBuffer<double>(cuda::HostUse::kCopies);
    after_row_host_.resize(context().capture_stages ? 4 * static_cast<std::size_t>(fmt.height) : 0);
    have_frame_ = false;
    setup(fmt, /*planes=*/1, frames_a_batch_);
  }

  std::optional<Probe> inspect(std::string_view stage) const override {
    if (!context().capture_stages || !have_frame_) return std::nullopt;
    if (stage == "sums") return sums_probe(last_sums_);
    if (stage != "running_sums") return std::nullopt;
    std::vector<MomentSums> rows(after_row_host_.size() / 4);
    for (std::size_t y = 0; y < rows.size(); ++y)
      for (int k = 0; k < 4; ++k) rows[y][k] = after_row_host_.get()[4 * y + k];
    return running_sums_probe(rows);
  }

 private:
  void compute(int slot, int n, cudaStream_t s) override {
    const kernels::LumaBatch b = luma_batch(slot, n);
    TP_CUDA(kernels::row_units(b, units_[slot].get(), s));
    TP_CUDA(kernels::frame_sums(b, units_[slot].get(), after_row_[slot].get(), sums_[slot].get(), s));
  }

  void read_back(int slot, int n, cudaStream_t s) override {
    TP_CUDA(cudaMemcpyAsync(sums_host_[slot].get(), sums_[slot].get(), sizeof(double) * 4 * n, cudaMemcpyDeviceToHost, s));
    if (context().capture_stages)
      TP_CUDA(cudaMemcpyAsync(after_row_host_.get(), after_row_[slot].get(), sizeof(double) * after_row_host_.size(),
                              cudaMemcpyDeviceToHost, s));
  }

  MomentSums result(int slot, int f) override {
    for (int k = 0; k < 4; ++k) last_sums_[k] = sums_host_[slot].get()[4 * f + k];
    have_frame_ = true;
    return last_sums_;
  }

  int frames_a_batch_ = kMaxBatch;
  cuda::DeviceBuffer<unsigned long long> units_[kInFlight];
  cuda::DeviceBuffer<double> after_row_[kInFlight];
  cuda::DeviceBuffer<double> sums_[kInFlight];
  cuda::PinnedBuffer<double> sums_host_[kInFlight];
  cuda::PinnedBuffer<double> after_row_host_{cuda::HostUse::kCopies};
  MomentSums last_sums_{};
  bool have_frame_ = false;
};

}  // namespace

std::unique_ptr<Extractor> make_cuda(const ExtractorContext& ctx) {
  return with_engine<FloatMomentExtractor, CudaMomentEngine>(ctx);
}

}  // namespace twinproof::float_moment
