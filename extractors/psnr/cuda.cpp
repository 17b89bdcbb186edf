// cuda: psnr's exact CUDA twin. Frame pairs go in batches of up to 8: each picture's scored planes
// are uploaded into a device slot laid out as the file lays them out (page-locked pictures straight
// from their memory, consecutive frames of one allocation merged into one copy; others through
// pinned staging filled by several copy threads), on an upload stream. One kernel launch a batch
// (kernels/psnr/sse.cu) adds every plane's squared errors into its 64-bit total, which comes back
// to the host with one small copy. Two batches are in flight: the next uploads while this one
// computes. Integer sums: the same bits in any order, so the split over blocks changes nothing.
// With stages captured, frames go one a batch and a row kernel writes each row's sum too.
#include <algorithm>
#include <deque>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "extractors/cuda/copy_pool.hpp"
#include "extractors/cuda/merged_upload.hpp"
#include "extractors/cuda/runtime.hpp"
#include "extractors/psnr/frame_loop.hpp"
#include "extractors/ready_queue.hpp"
#include "kernels/psnr/kernels.hpp"

namespace twinproof::psnr {
namespace {

constexpr int kBatch = 8;     // frame pairs a launch
constexpr int kInFlight = 2;  // batches uploading or computing at once
constexpr int kMergedFrames = 4;  // frames of one allocation a copy (cuda::MergedUpload)
static_assert(kBatch * 3 <= kernels::kMaxPlanes);

class CudaSseEngine final : public SseEngine {
 public:
  explicit CudaSseEngine(const ExtractorContext& ctx)
      : ctx_(ctx), pool_(std::clamp(std::thread::hardware_concurrency() / 2, 1u, 8u) - 1) {}

  void init(const Format& fmt, int planes) override {
    cuda::use_device(ctx_.device);
    upload_ = std::make_unique<cuda::Stream>();
    compute_ = std::make_unique<cuda::Stream>();
    fmt_ = fmt;
    planes_ = planes;
    batch_ = ctx_.capture_stages ? 1 : kBatch;  // capture inspects every frame
    // A slot holds the scored planes as the file stores them, back to back.
    frame_bytes_ = 0;
    std::size_t rows = 0;
    for (int k = 0; k < planes; ++k) {
      const PlaneSize stored = stored_plane_size(fmt, k);
      offset_[k] = frame_bytes_;
      row_offset_[k] = rows;
      frame_bytes_ += static_cast<std::size_t>(stored.w) * stored.h * fmt.bytes_per_sample();
      rows += static_cast<std::size_t>(read_plane(fmt, k).h);
    }
    for (auto* slots : {&ref_slots_, &dist_slots_}) slots->resize(frame_bytes_ * kInFlight * batch_);
    for (int k = 0; k < kInFlight; ++k) {
      staging_[k] = cuda::PinnedBuffer<std::uint8_t>(cuda::HostUse::kHostWritesOnly);
      staging_[k].resize(2 * frame_bytes_ * batch_);  // the batch's reference pictures, then its distorted ones
      totals_[k].resize(3 * batch_);
      totals_host_[k] = cuda::PinnedBuffer<unsigned long long>(cuda::HostUse::kCopies);
      totals_host_[k].resize(3 * batch_);
      uploaded_[k] = std::make_unique<cuda::Event>();
      done_[k] = std::make_unique<cuda::Event>();
      start_[k] = std::make_unique<cuda::Event>(true);
      stop_[k] = std::make_unique<cuda::Event>(true);
      kept_[k].clear();
    }
    rows_dev_.resize(ctx_.capture_stages ? rows : 0);
    rows_host_ = cuda::PinnedBuffer<std::uint64_t>(cuda::HostUse::kCopies);
    rows_host_.resize(ctx_.capture_stages ? rows : 0);
    inflight_.clear();
    queue_.clear();
    staged_ = 0;
    batches_ = 0;
    device_ms_ = 0;
    have_frame_ = false;
  }

  void submit(const PictureView& ref, const PictureView& dist) override {
    cuda::use_device(ctx_.device);  // the calling thread may not be the one that ran init
    if (staged_ == 0)
      while (inflight_.size() >= kInFlight) collect();  // slot k's staging and device slots are free again
    const bool ref_in_place = place(ref, 0), dist_in_place = place(dist, 1);
    // A page-locked picture whose owner does not keep it is the caller's again once submit
    // returns: its upload must be done by then.
    if ((ref_in_place && !ref.keep) || (dist_in_place && !dist.keep)) {
      flush_uploads();
      upload_->sync();
    }
    if (++staged_ == batch_) launch();
  }

  std::optional<PlaneSse> take(bool wait) override {
    cuda::use_device(ctx_.device);
    for (;;) {
      if (auto t = queue_.take()) return t;
      if (!inflight_.empty() && (wait || done_[inflight_.front().slot]->done())) {
        collect();
        continue;
      }
      if (wait && inflight_.empty() && staged_ > 0) {
        launch();  // a partial batch: the caller needs its sums now
        continue;
      }
      return std::nullopt;
    }
  }

  std::optional<double> device_ms() const override { return device_ms_; }

  std::optional<Probe> inspect(std::string_view stage) const override {
    if (!ctx_.capture_stages || !have_frame_) return std::nullopt;
    if (stage == "plane_sse") return plane_sse_probe(last_sse_, planes_);
    if (stage != "row_sums") return std::nullopt;
    std::array<std::span<const std::uint64_t>, 3> rows;
    for (int k = 0; k < planes_; ++k)
      rows[k] = {rows_host_.get() + row_offset_[k], static_cast<std::size_t>(read_plane(fmt_, k).h)};
    return row_sums_probe(rows, planes_);
  }

 private:
  struct Batch {
    int slot = 0;
    int frames = 0;
  };

  // Whether the picture's scored planes lie back to back as in a slot: then one copy takes them all.
  bool packed(const PictureView& pic) const {
    for (int k = 0; k < planes_; ++k) {
      const PlaneSize stored = stored_plane_size(fmt_, k);
      if (pic.stride[k] != static_cast<std::ptrdiff_t>(stored.w) * fmt_.bytes_per_sample()) return false;
      if (pic.data[k] != pic.data[0] + offset_[k]) return false;
    }
    return true;
  }

  // Puts one picture of the frame being staged on its way to its device slot: uploaded from where
  // it is when page-locked (true), else copied into the batch's staging. half 0: the reference.
  bool place(const PictureView& pic, int half) {
    const int k = batches_ % kInFlight;
    const bool in_place = cuda::is_page_locked(pic.data[0]);
    staged_from_host_[half][staged_] = !in_place;
    if (!in_place) {
      stage_picture(pic, staging_[k].get() + frame_bytes_ * static_cast<std::size_t>(half * batch_ + staged_));
      return false;
    }
    std::uint8_t* slot = (half == 0 ? ref_slots_ : dist_slots_).get() + frame_bytes_ * static_cast<std::size_t>(k * batch_ + staged_);
    upload_picture(pic, slot, half == 0 ? ref_runs_ : dist_runs_);
    // Samples whose owner keeps them unchanged are held until the batch is collected (its upload
    // is done by then).
    if (pic.keep) kept_[k].push_back(pic.keep);
    return true;
  }

  void upload_picture(const PictureView& pic, std::uint8_t* dst, cuda::MergedUpload& runs) {
    const cudaStream_t up = upload_->get();
    if (packed(pic)) {
      runs.add(dst, pic.data[0], frame_bytes_, frame_bytes_, 1, pic.keep.get(), up);
      return;
    }
    for (int k = 0; k < planes_; ++k) {
      const PlaneSize stored = stored_plane_size(fmt_, k);
      const std::size_t row_bytes = static_cast<std::size_t>(stored.w) * fmt_.bytes_per_sample();
      runs.add(dst + offset_[k], pic.data[k], static_cast<std::size_t>(pic.stride[k]), row_bytes, static_cast<std::size_t>(stored.h),
               pic.keep.get(), up);
    }
  }

  void stage_picture(const PictureView& pic, std::uint8_t* dst) {
    for (int k = 0; k < planes_; ++k) {
      const PlaneSize stored = stored_plane_size(fmt_, k);
      const std::size_t row_bytes = static_cast<std::size_t>(stored.w) * fmt_.bytes_per_sample();
      pool_.copy_rows(dst + offset_[k], pic.data[k], pic.stride[k], row_bytes, static_cast<std::size_t>(stored.h));
    }
  }

  void flush_uploads() {
    ref_runs_.flush();
    dist_runs_.flush();
  }

  void launch() {
    const int k = batches_ % kInFlight;
    const int n = staged_;
    const cudaStream_t up = upload_->get(), s = compute_->get();
    const std::size_t first = static_cast<std::size_t>(k * batch_) * frame_bytes_;
    for (int half = 0; half < 2; ++half) {
      cuda::MergedUpload& runs = half == 0 ? ref_runs_ : dist_runs_;
      std::uint8_t* slots = (half == 0 ? ref_slots_ : dist_slots_).get() + first;
      const std::uint8_t* staged = staging_[k].get() + frame_bytes_ * static_cast<std::size_t>(half) * batch_;
      for (int f = 0; f < n; ++f)
        if (staged_from_host_[half][f])
          runs.add(slots + frame_bytes_ * f, staged + frame_bytes_ * f, frame_bytes_, frame_bytes_, 1, staging_[k].get(), up);
    }
    flush_uploads();
    uploaded_[k]->record(up);
    TP_CUDA(cudaStreamWaitEvent(s, uploaded_[k]->get(), 0));
    kernels::PlaneBatch planes;
    const int bytes = fmt_.bytes_per_sample();
    for (int f = 0; f < n; ++f)
      for (int p = 0; p < planes_; ++p) {
        const std::size_t at = first + frame_bytes_ * f + offset_[p];
        const PlaneSize ps = read_plane(fmt_, p);
        planes.plane[f * planes_ + p] = {ref_slots_.get() + at, dist_slots_.get() + at, ps.w, ps.h, stored_plane_size(fmt_, p).w};
      }
    planes.count = n * planes_;
    start_[k]->record(s);
    TP_CUDA(cudaMemsetAsync(totals_[k].get(), 0, totals_[k].bytes(), s));
    TP_CUDA(kernels::plane_sse(planes, bytes, totals_[k].get(), s));
    if (ctx_.capture_stages)
      for (int p = 0; p < planes_; ++p) {
        const kernels::PlanePair& pp = planes.plane[p];
        TP_CUDA(kernels::row_sse(pp.ref, pp.dist, pp.w, pp.h, pp.pitch, bytes, rows_dev_.get() + row_offset_[p], s));
      }
    stop_[k]->record(s);
    TP_CUDA(cudaMemcpyAsync(totals_host_[k].get(), totals_[k].get(), sizeof(unsigned long long) * 3 * n, cudaMemcpyDeviceToHost, s));
    if (ctx_.capture_stages) TP_CUDA(cudaMemcpyAsync(rows_host_.get(), rows_dev_.get(), rows_dev_.bytes(), cudaMemcpyDeviceToHost, s));
    done_[k]->record(s);
    inflight_.push_back({k, n});
    staged_ = 0;
    ++batches_;
  }

  // Waits for the oldest batch and queues each frame's sums, in frame order.
  void collect() {
    const Batch b = inflight_.front();
    inflight_.pop_front();
    done_[b.slot]->sync();
    kept_[b.slot].clear();  // uploaded: the samples go back to their owner
    device_ms_ += cuda::elapsed_ms(*start_[b.slot], *stop_[b.slot]);
    for (int f = 0; f < b.frames; ++f) {
      PlaneSse sse{};
      for (int p = 0; p < planes_; ++p) sse[p] = totals_host_[b.slot].get()[f * planes_ + p];
      queue_.push(sse);
      last_sse_ = sse;
      have_frame_ = true;
    }
  }

  const ExtractorContext ctx_;
  cuda::CopyPool pool_;
  cuda::MergedUpload ref_runs_{kMergedFrames}, dist_runs_{kMergedFrames};
  Format fmt_{};
  int planes_ = 3;
  int batch_ = kBatch;
  std::size_t frame_bytes_ = 0;  // a slot: the scored planes as stored
  std::size_t offset_[3] = {0, 0, 0}, row_offset_[3] = {0, 0, 0};
  cuda::DeviceBuffer<std::uint8_t> ref_slots_, dist_slots_;  // batch k's frame f in slot k * batch + f
  cuda::PinnedBuffer<std::uint8_t> staging_[kInFlight];
  bool staged_from_host_[2][kBatch] = {};  // [reference, distorted][frame of the batch]
  std::vector<std::shared_ptr<const void>> kept_[kInFlight];  // samples uploaded from in place, per batch slot
  cuda::DeviceBuffer<unsigned long long> totals_[kInFlight];
  cuda::PinnedBuffer<unsigned long long> totals_host_[kInFlight];
  cuda::DeviceBuffer<unsigned long long> rows_dev_;  // only when stages are captured
  cuda::PinnedBuffer<std::uint64_t> rows_host_{cuda::HostUse::kCopies};
  std::unique_ptr<cuda::Stream> upload_, compute_;
  std::unique_ptr<cuda::Event> uploaded_[kInFlight], done_[kInFlight], start_[kInFlight], stop_[kInFlight];
  std::deque<Batch> inflight_;
  ReadyQueue<PlaneSse> queue_;
  int staged_ = 0;
  unsigned batches_ = 0;
  double device_ms_ = 0;
  PlaneSse last_sse_{};
  bool have_frame_ = false;
};

}  // namespace
}  // namespace twinproof::psnr

namespace twinproof {
std::unique_ptr<Extractor> make_psnr_cuda(const ExtractorContext& ctx) { return psnr::make_psnr<psnr::CudaSseEngine>(ctx); }
}  // namespace twinproof
