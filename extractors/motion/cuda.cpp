// cuda: integer motion's exact CUDA twin. Luma planes live in a ring of device slots; each batch
// of up to 8 frames is uploaded on its own stream (page-locked pictures straight from their
// memory, others through pinned staging filled by several copy threads), and one fused kernel
// launch (extractors/motion/sad.cu) turns every pair into its 32-bit row sums of |X| and their 64-bit
// total, the contract's T, which it writes into mapped host memory (the row sums too when stages
// are captured): a batch queues no memset and no copy-back. The shared frame loop does the rest.
// Two batches are in flight: the next uploads while this one computes.
#include <algorithm>
#include <deque>
#include <memory>
#include <thread>

#include "extractors/cuda/batch_timeline.hpp"
#include "extractors/cuda/copy_pool.hpp"
#include "extractors/cuda/merged_upload.hpp"
#include "extractors/cuda/runtime.hpp"
#include "extractors/motion/frame_loop.hpp"
#include "extractors/motion/kernels.hpp"

namespace twinproof::motion {
namespace {

constexpr int kBatch = 8;                       // new frames per launch
constexpr int kInFlight = 2;                    // batches uploading or computing at once
constexpr int kSlots = kInFlight * kBatch + 2;  // + the two frames a window looks back to
constexpr int kMergedFrames = 4;                // frames of one block uploaded a copy (cuda::MergedUpload)
static_assert(kBatch <= kernels::kMaxPairs);

class CudaSadEngine final : public SadEngine {
 public:
  explicit CudaSadEngine(const ExtractorContext& ctx)
      : ctx_(ctx), pool_(std::clamp(std::thread::hardware_concurrency() / 2, 1u, 8u) - 1) {}

  void init(const Format& fmt, unsigned distance) override {
    cuda::use_device(ctx_.device);
    timeline_.reset();
    fmt_ = fmt;
    distance_ = distance;
    TP_CUDA(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, ctx_.device));  // one attribute, not every property
    batch_ = ctx_.capture_stages ? 1 : kBatch;                                            // capture inspects every pair
    frame_bytes_ = static_cast<std::size_t>(fmt.width) * fmt.height * fmt.bytes_per_sample();
    slots_.resize(frame_bytes_ * kSlots);
    for (int k = 0; k < kInFlight; ++k) {
      staging_[k] = cuda::PinnedBuffer<std::uint8_t>(cuda::HostUse::kHostWritesOnly);
      staging_[k].resize(frame_bytes_ * batch_);
      // The kernel leaves its sums, tickets and row sums zero for the next launch: zeroed once here.
      sums_[k].resize(batch_);
      tickets_[k].resize(batch_);
      TP_CUDA(cudaMemsetAsync(sums_[k].get(), 0, sums_[k].bytes(), timeline_.compute()));
      TP_CUDA(cudaMemsetAsync(tickets_[k].get(), 0, tickets_[k].bytes(), timeline_.compute()));
      totals_[k] = cuda::PinnedBuffer<unsigned long long>(cuda::HostUse::kDeviceWrites);
      totals_[k].resize(batch_);
      rows_out_[k] = cuda::PinnedBuffer<std::uint32_t>(cuda::HostUse::kDeviceWrites);
      const std::size_t rows = ctx_.capture_stages ? static_cast<std::size_t>(fmt.height) * batch_ : 0;
      rows_[k].resize(rows);
      rows_out_[k].resize(rows);
      if (rows > 0) TP_CUDA(cudaMemsetAsync(rows_[k].get(), 0, rows_[k].bytes(), timeline_.compute()));
      scratch_[k] = {sums_[k].get(), tickets_[k].get(), rows_[k].get(), totals_[k].device(), rows_out_[k].device()};
    }
    frames_ = staged_ = 0;
    batches_ = 0;
    last_rows_.clear();
  }

  void submit(const PictureView& pic) override {
    if (staged_ == 0)
      while (timeline_.in_flight() >= kInFlight) collect();  // slot k's staging and rows are free again
    const int k = batches_ % kInFlight;
    const std::size_t row_bytes = static_cast<std::size_t>(fmt_.width) * fmt_.bytes_per_sample();
    std::uint8_t* slot = slots_.get() + frame_bytes_ * ((frames_ + staged_) % kSlots);
    direct_[staged_] = cuda::is_page_locked(pic.data[0]);
    if (direct_[staged_]) {
      upload_runs_.add(slot, pic.data[0], static_cast<std::size_t>(pic.stride[0]), row_bytes,
                       static_cast<std::size_t>(fmt_.height), pic.keep.get(), timeline_.upload());
      // Samples whose owner keeps them unchanged are held until the batch is collected (its
      // upload is done by then); others are the caller's again once submit returns.
      if (pic.keep) {
        timeline_.keep(k, pic.keep);
      } else {
        upload_runs_.flush();
        timeline_.finish_uploads();
      }
    } else {
      pool_.copy_rows(staging_[k].get() + frame_bytes_ * staged_, pic.data[0], pic.stride[0], row_bytes,
                      static_cast<std::size_t>(fmt_.height));
    }
    if (++staged_ == batch_) launch();
  }

  std::optional<std::uint64_t> take(bool wait) override {
    return timeline_.take(
        wait, staged_, [&] { collect(); }, [&] { launch(); });
  }

  std::optional<Probe> inspect(std::string_view stage) const override {
    if (!ctx_.capture_stages || last_rows_.empty()) return std::nullopt;
    if (stage == "row_sums")
      return Probe{std::string(stage), {ProbeArray{"Y", 1, fmt_.height, false, {last_rows_.begin(), last_rows_.end()}}}};
    if (stage == "total") return Probe{std::string(stage), {ProbeArray{"Y", 1, 1, false, {static_cast<double>(last_total_)}}}};
    return std::nullopt;  // the difference and both passes never leave registers and shared memory
  }

  std::optional<double> device_ms() const override { return timeline_.device_ms(); }

 private:
  void launch() {
    const int k = batches_ % kInFlight;
    const int n = staged_;
    const cudaStream_t up = timeline_.upload();
    for (int f = 0; f < n; ++f)
      if (!direct_[f])
        upload_runs_.add(slots_.get() + frame_bytes_ * ((frames_ + f) % kSlots), staging_[k].get() + frame_bytes_ * f,
                         frame_bytes_, frame_bytes_, 1, staging_[k].get(), up);
    upload_runs_.flush();
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
    timeline_.launch(
        k, count,
        [&](cudaStream_t s) {
          if (count > 0)
            TP_CUDA(kernels::pair_totals(slots_.get(), static_cast<std::size_t>(fmt_.width) * fmt_.height, fmt_.bitdepth,
                                         fmt_.width, fmt_.height, pairs, count, scratch_[k], sms_, s));
        },
        [](cudaStream_t) {});  // the kernel writes the totals into mapped host memory
    frames_ += n;
    staged_ = 0;
    ++batches_;
  }

  // Waits for the oldest batch and queues each pair's total, in frame order.
  void collect() {
    timeline_.collect([&](const auto& b, ReadyQueue<std::uint64_t>& ready) { queue_totals(b.slot, b.count, ready); });
  }

  void queue_totals(int slot, int pairs, ReadyQueue<std::uint64_t>& ready) {
    const std::size_t h = static_cast<std::size_t>(fmt_.height);
    for (int p = 0; p < pairs; ++p) {
      const std::uint64_t total = totals_[slot].get()[p];
      ready.push(total);
      if (ctx_.capture_stages) {
        const std::uint32_t* rows = rows_out_[slot].get() + h * p;
        last_rows_.assign(rows, rows + h);
        last_total_ = total;
      }
    }
  }

  const ExtractorContext ctx_;
  cuda::CopyPool pool_;
  cuda::MergedUpload upload_runs_{kMergedFrames};
  Format fmt_{};
  unsigned distance_ = 1;
  int batch_ = kBatch;
  std::size_t frame_bytes_ = 0;
  cuda::DeviceBuffer<std::uint8_t> slots_;  // frame t's luma in slot t % kSlots
  cuda::PinnedBuffer<std::uint8_t> staging_[kInFlight];
  cuda::DeviceBuffer<unsigned long long> sums_[kInFlight];
  cuda::DeviceBuffer<unsigned> tickets_[kInFlight];
  cuda::DeviceBuffer<std::uint32_t> rows_[kInFlight];         // only when stages are captured
  cuda::PinnedBuffer<unsigned long long> totals_[kInFlight];  // mapped: written by the kernel
  cuda::PinnedBuffer<std::uint32_t> rows_out_[kInFlight];     // mapped; only when stages are captured
  kernels::PairScratch scratch_[kInFlight];
  int sms_ = 1;
  cuda::BatchTimeline<std::uint64_t, kInFlight> timeline_;
  bool direct_[kBatch] = {};
  unsigned frames_ = 0;  // frames launched
  int staged_ = 0;
  unsigned batches_ = 0;
  std::vector<std::uint32_t> last_rows_;
  std::uint64_t last_total_ = 0;
};

}  // namespace
std::unique_ptr<Extractor> make_cuda(const ExtractorContext& ctx) {
  return with_engine<IntegerMotionExtractor, CudaSadEngine>(ctx);
}

}  // namespace twinproof::motion
