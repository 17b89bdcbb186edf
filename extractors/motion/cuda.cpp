// cuda: integer motion's exact CUDA twin. Luma planes live in a ring of device slots; each batch
// of up to 8 frames is uploaded on its own stream (page-locked pictures straight from their
// memory, others through pinned staging filled by several copy threads), and one fused kernel
// launch (kernels/motion/sad.cu) adds every pair's rows of |X| into 32-bit row sums. The host
// adds each pair's row sums into the 64-bit total, the contract's T, and the shared frame loop
// does the rest. Two batches are in flight: the next uploads while this one computes.
#include <algorithm>
#include <deque>
#include <memory>
#include <thread>

#include "extractors/cuda/copy_pool.hpp"
#include "extractors/cuda/runtime.hpp"
#include "extractors/motion/frame_loop.hpp"
#include "kernels/motion/kernels.hpp"

namespace twinproof::motion {
namespace {

constexpr int kBatch = 8;     // new frames per launch
constexpr int kInFlight = 2;  // batches uploading or computing at once
constexpr int kSlots = kInFlight * kBatch + 2;  // + the two frames a window looks back to

class CudaSadEngine final : public SadEngine {
 public:
  explicit CudaSadEngine(const ExtractorContext& ctx)
      : ctx_(ctx), pool_(std::clamp(std::thread::hardware_concurrency() / 2, 1u, 8u) - 1) {}

  void init(const Format& fmt, unsigned distance) override {
    cuda::use_device(ctx_.device);
    upload_ = std::make_unique<cuda::Stream>();
    compute_ = std::make_unique<cuda::Stream>();
    fmt_ = fmt;
    distance_ = distance;
    batch_ = ctx_.capture_stages ? 1 : kBatch;  // capture inspects every pair
    frame_bytes_ = static_cast<std::size_t>(fmt.width) * fmt.height * fmt.bytes_per_sample();
    slots_.resize(frame_bytes_ * kSlots);
    for (int k = 0; k < kInFlight; ++k) {
      staging_[k] = cuda::PinnedBuffer<std::uint8_t>(true);  // the host only writes it
      staging_[k].resize(frame_bytes_ * batch_);
      rows_[k].resize(static_cast<std::size_t>(fmt.height) * batch_);
      host_rows_[k].resize(static_cast<std::size_t>(fmt.height) * batch_);
      uploaded_[k] = std::make_unique<cuda::Event>();
      done_[k] = std::make_unique<cuda::Event>();
      start_[k] = std::make_unique<cuda::Event>(true);
      stop_[k] = std::make_unique<cuda::Event>(true);
    }
    inflight_.clear();
    queue_.clear();
    frames_ = staged_ = 0;
    batches_ = 0;
    device_ms_ = 0;
    last_rows_.clear();
  }

  void submit(const PictureView& pic) override {
    if (staged_ == 0)
      while (inflight_.size() >= kInFlight) collect();  // slot k's staging and rows are free again
    const int k = batches_ % kInFlight;
    const std::size_t row_bytes = static_cast<std::size_t>(fmt_.width) * fmt_.bytes_per_sample();
    std::uint8_t* slot = slots_.get() + frame_bytes_ * ((frames_ + staged_) % kSlots);
    direct_[staged_] = cuda::is_page_locked(pic.data[0]);
    if (direct_[staged_]) {
      TP_CUDA(cudaMemcpy2DAsync(slot, row_bytes, pic.data[0], static_cast<std::size_t>(pic.stride[0]), row_bytes,
                                static_cast<std::size_t>(fmt_.height), cudaMemcpyHostToDevice, upload_->get()));
      upload_->sync();  // the caller may reuse its picture once submit returns
    } else {
      pool_.copy_rows(staging_[k].get() + frame_bytes_ * staged_, pic.data[0], pic.stride[0], row_bytes,
                      static_cast<std::size_t>(fmt_.height));
    }
    if (++staged_ == batch_) launch();
  }

  std::optional<std::uint64_t> take(bool wait) override {
    for (;;) {
      if (auto t = queue_.take()) return t;
      if (!inflight_.empty() && (wait || done_[inflight_.front().slot]->done())) {
        collect();
        continue;
      }
      if (wait && inflight_.empty() && staged_ > 0) {
        launch();  // a partial batch: the caller needs its totals now
        continue;
      }
      return std::nullopt;
    }
  }

  std::optional<Probe> inspect(std::string_view stage) const override {
    if (!ctx_.capture_stages || last_rows_.empty()) return std::nullopt;
    if (stage == "row_sums")
      return Probe{std::string(stage), {ProbeArray{"Y", 1, fmt_.height, false, {last_rows_.begin(), last_rows_.end()}}}};
    if (stage == "total") return Probe{std::string(stage), {ProbeArray{"Y", 1, 1, false, {static_cast<double>(last_total_)}}}};
    return std::nullopt;  // the difference and both passes never leave registers and shared memory
  }

  std::optional<double> device_ms() const override { return device_ms_; }

 private:
  struct Batch {
    int slot = 0;
    int pairs = 0;
  };


  void launch() {
    const int k = batches_ % kInFlight;
    const int n = staged_;
    cudaStream_t up = upload_->get(), s = compute_->get();
    for (int f = 0; f < n; ++f)
      if (!direct_[f])
        TP_CUDA(cudaMemcpyAsync(slots_.get() + frame_bytes_ * ((frames_ + f) % kSlots), staging_[k].get() + frame_bytes_ * f,
                                frame_bytes_, cudaMemcpyHostToDevice, up));
    uploaded_[k]->record(up);
    TP_CUDA(cudaStreamWaitEvent(s, uploaded_[k]->get(), 0));
    // Pairs (t - distance, t) for the batch's frames t that have an earlier frame.
    kernels::PairSlots pairs{};
    int count = 0;
    for (int f = 0; f < n; ++f) {
      const unsigned t = frames_ + f;
      if (t < distance_) continue;
      pairs.earlier[count] = static_cast<int>((t - distance_) % kSlots);
      pairs.later[count] = static_cast<int>(t % kSlots);
      ++count;
    }
    start_[k]->record(s);
    if (count > 0) {
      TP_CUDA(cudaMemsetAsync(rows_[k].get(), 0, sizeof(std::uint32_t) * fmt_.height * count, s));
      TP_CUDA(kernels::pair_row_sums(slots_.get(), static_cast<std::size_t>(fmt_.width) * fmt_.height, fmt_.bytes_per_sample(),
                                     fmt_.bitdepth, fmt_.width, fmt_.height, pairs, count, rows_[k].get(), s));
      TP_CUDA(cudaMemcpyAsync(host_rows_[k].get(), rows_[k].get(), sizeof(std::uint32_t) * fmt_.height * count,
                              cudaMemcpyDeviceToHost, s));
    }
    stop_[k]->record(s);
    done_[k]->record(s);
    inflight_.push_back({k, count});
    frames_ += n;
    staged_ = 0;
    ++batches_;
  }

  // Waits for the oldest batch and adds each pair's row sums into its total, in frame order.
  void collect() {
    const Batch b = inflight_.front();
    inflight_.pop_front();
    done_[b.slot]->sync();
    device_ms_ += cuda::elapsed_ms(*start_[b.slot], *stop_[b.slot]);
    const std::size_t h = static_cast<std::size_t>(fmt_.height);
    for (int p = 0; p < b.pairs; ++p) {
      const std::uint32_t* rows = host_rows_[b.slot].get() + h * p;
      std::uint64_t total = 0;
      for (std::size_t i = 0; i < h; ++i) total += rows[i];
      queue_.push(total);
      if (ctx_.capture_stages) {
        last_rows_.assign(rows, rows + h);
        last_total_ = total;
      }
    }
  }

  const ExtractorContext ctx_;
  cuda::CopyPool pool_;
  Format fmt_{};
  unsigned distance_ = 1;
  int batch_ = kBatch;
  std::size_t frame_bytes_ = 0;
  cuda::DeviceBuffer<std::uint8_t> slots_;  // frame t's luma in slot t % kSlots
  cuda::PinnedBuffer<std::uint8_t> staging_[kInFlight];
  cuda::DeviceBuffer<std::uint32_t> rows_[kInFlight];
  cuda::PinnedBuffer<std::uint32_t> host_rows_[kInFlight];
  std::unique_ptr<cuda::Stream> upload_, compute_;
  std::unique_ptr<cuda::Event> uploaded_[kInFlight], done_[kInFlight], start_[kInFlight], stop_[kInFlight];
  std::deque<Batch> inflight_;
  ReadyQueue<std::uint64_t> queue_;
  bool direct_[kBatch] = {};
  unsigned frames_ = 0;  // frames launched
  int staged_ = 0;
  unsigned batches_ = 0;
  double device_ms_ = 0;
  std::vector<std::uint32_t> last_rows_;
  std::uint64_t last_total_ = 0;
};

}  // namespace
}  // namespace twinproof::motion

namespace twinproof {
std::unique_ptr<Extractor> make_motion_cuda(const ExtractorContext& ctx) {
  return motion::make_integer_motion<motion::CudaSadEngine>(ctx);
}
}  // namespace twinproof
