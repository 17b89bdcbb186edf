// cuda: float_psnr's exact CUDA twin. Frame pairs go to the device in batches of up to 8, two
// batches in flight (extractors/cuda/pair_batches.hpp), the luma alone. One launch a batch adds
// each row's terms as integers of the term unit (extractors/float_psnr/noise.cu), a second turns
// each frame's rows into its noise sum (exact below 2^53 units; the reference's sequential loop
// above), and the batch's sums come back with one small copy.
#include "extractors/cuda/pair_batches.hpp"
#include "extractors/float_psnr/frame_loop.hpp"
#include "extractors/float_psnr/kernels.hpp"

namespace twinproof::float_psnr {
namespace {

using Batches = cuda::PairBatches<NoiseEngine>;

class CudaNoiseEngine final : public Batches {
 public:
  explicit CudaNoiseEngine(const ExtractorContext& ctx) : Batches(ctx) {}

  void init(const Format& fmt) override {
    cuda::use_device(context().device);
    frames_a_batch_ = context().capture_stages ? 1 : kMaxBatch;  // capture inspects every frame
    const std::size_t rows = static_cast<std::size_t>(frames_a_batch_) * fmt.height;
    for (int k = 0; k < kInFlight; ++k) {
      units_[k].resize(rows);
      after_row_[k].resize(rows);
      noise_[k].resize(frames_a_batch_);
      noise_host_[k] = cuda::PinnedBuffer<double>(cuda::HostUse::kCopies);
      noise_host_[k].resize(frames_a_batch_);
    }
    after_row_host_ = cuda::PinnedBuffer<double>(cuda::HostUse::kCopies);
    after_row_host_.resize(context().capture_stages ? static_cast<std::size_t>(fmt.height) : 0);
    have_frame_ = false;
    setup(fmt, /*planes=*/1, frames_a_batch_);
  }

  std::optional<Probe> inspect(std::string_view stage) const override {
    if (!context().capture_stages || !have_frame_) return std::nullopt;
    if (stage == "running_noise") return running_noise_probe({after_row_host_.get(), after_row_host_.size()});
    if (stage == "noise") return noise_probe(last_noise_);
    return std::nullopt;
  }

 private:
  void compute(int slot, int n, cudaStream_t s) override {
    const kernels::LumaBatch b = luma_batch(slot, n);
    TP_CUDA(kernels::row_units(b, units_[slot].get(), s));
    TP_CUDA(kernels::frame_noise(b, units_[slot].get(), after_row_[slot].get(), noise_[slot].get(), s));
  }

  void read_back(int slot, int n, cudaStream_t s) override {
    TP_CUDA(cudaMemcpyAsync(noise_host_[slot].get(), noise_[slot].get(), sizeof(double) * n, cudaMemcpyDeviceToHost, s));
    if (context().capture_stages)
      TP_CUDA(cudaMemcpyAsync(after_row_host_.get(), after_row_[slot].get(), sizeof(double) * after_row_host_.size(),
                              cudaMemcpyDeviceToHost, s));
  }

  double result(int slot, int f) override {
    last_noise_ = noise_host_[slot].get()[f];
    have_frame_ = true;
    return last_noise_;
  }

  int frames_a_batch_ = kMaxBatch;
  cuda::DeviceBuffer<unsigned long long> units_[kInFlight];
  cuda::DeviceBuffer<double> after_row_[kInFlight];
  cuda::DeviceBuffer<double> noise_[kInFlight];
  cuda::PinnedBuffer<double> noise_host_[kInFlight];
  cuda::PinnedBuffer<double> after_row_host_{cuda::HostUse::kCopies};
  double last_noise_ = 0;
  bool have_frame_ = false;
};

}  // namespace

std::unique_ptr<Extractor> make_cuda(const ExtractorContext& ctx) {
  return with_engine<FloatPsnrExtractor, CudaNoiseEngine>(ctx);
}

}  // namespace twinproof::float_psnr
