// The device side of a pair feature's CUDA twin, written once: frame pairs go to the device in
// batches, each picture's scored planes into a device slot laid out as the file lays them out
// (page-locked pictures straight from their memory, consecutive frames of one allocation merged
// into one copy; others through pinned staging filled by several copy threads), on an upload
// stream. The feature enqueues its kernels for a whole batch on a compute stream that waits for
// the batch's uploads, and the copy of the batch's sums back; kInFlight batches are in flight, so
// the next one uploads while this one computes. Sums come back in frame order.
// A feature's engine derives from PairBatches<ItsEngineInterface> and supplies compute(),
// read_back() and result(); its init() calls setup().
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "extractors/cuda/batch_timeline.hpp"
#include "extractors/cuda/copy_pool.hpp"
#include "extractors/cuda/luma_batch.hpp"
#include "extractors/cuda/merged_upload.hpp"
#include "extractors/cuda/runtime.hpp"
#include "extractors/extractor.hpp"

namespace twinproof::cuda {

template <class Engine>
class PairBatches : public Engine {
 public:
  using Sums = typename Engine::Result;
  static constexpr int kMaxBatch = 8;  // frame pairs a launch
  static_assert(kMaxBatch == kMaxLumaBatch);
  static constexpr int kInFlight = 2;      // batches uploading or computing at once
  static constexpr int kMergedFrames = 4;  // frames of one allocation a copy (MergedUpload)

  void submit(const PictureView& ref, const PictureView& dist) final {
    use_device(ctx_.device);  // the calling thread may not be the one that ran init
    if (staged_ == 0)
      while (timeline_.in_flight() >= kInFlight) collect();  // slot k's staging and device slots are free again
    const bool ref_in_place = place(ref, 0), dist_in_place = place(dist, 1);
    // A page-locked picture whose owner does not keep it is the caller's again once submit
    // returns: its upload must be done by then.
    if ((ref_in_place && !ref.keep) || (dist_in_place && !dist.keep)) {
      flush_uploads();
      timeline_.finish_uploads();
    }
    if (++staged_ == batch_) launch();
  }

  std::optional<Sums> take(bool wait) final {
    use_device(ctx_.device);
    return timeline_.take(
        wait, staged_, [&] { collect(); }, [&] { launch(); });
  }

  std::optional<double> device_ms() const final { return timeline_.device_ms(); }

 protected:
  explicit PairBatches(const ExtractorContext& ctx)
      : ctx_(ctx), pool_(std::clamp(std::thread::hardware_concurrency() / 2, 1u, 8u) - 1) {}

  // Sets the batches up for pairs of `fmt` whose first `planes` planes are read, `batch` pairs a
  // launch (at most kMaxBatch). The end of the feature's init, once its own buffers are sized.
  void setup(const Format& fmt, int planes, int batch) {
    use_device(ctx_.device);
    timeline_.reset();
    fmt_ = fmt;
    planes_ = planes;
    batch_ = std::clamp(batch, 1, kMaxBatch);
    frame_bytes_ = 0;
    for (int k = 0; k < planes; ++k) {
      const PlaneSize stored = stored_plane_size(fmt, k);
      offset_[k] = frame_bytes_;
      frame_bytes_ += static_cast<std::size_t>(stored.w) * stored.h * fmt.bytes_per_sample();
    }
    for (auto* slots : {&ref_slots_, &dist_slots_}) slots->resize(frame_bytes_ * kInFlight * batch_);
    for (int k = 0; k < kInFlight; ++k) {
      staging_[k] = PinnedBuffer<std::uint8_t>(HostUse::kHostWritesOnly);
      staging_[k].resize(2 * frame_bytes_ * batch_);  // the batch's reference pictures, then its distorted ones
    }
    staged_ = 0;
    batches_ = 0;
  }

  // The feature's kernels for the `frames` pairs of batch slot `slot` (frame_plane() gives their
  // planes), on `stream`, after their uploads. Timed as the batch's device time.
  virtual void compute(int slot, int frames, cudaStream_t stream) = 0;
  // The copies that bring the batch's sums to the host, on `stream`, after compute().
  virtual void read_back(int slot, int frames, cudaStream_t stream) = 0;
  // Frame `frame` of batch slot `slot`'s sums, once the batch is done (called in frame order).
  virtual Sums result(int slot, int frame) = 0;

  // Plane `plane` of the reference (half 0) or distorted (half 1) picture of frame `frame` of
  // batch slot `slot`, on the device: stored_plane_size(format(), plane) samples as the file
  // stores them.
  const std::uint8_t* frame_plane(int half, int slot, int frame, int plane) const {
    const std::size_t at = frame_bytes_ * static_cast<std::size_t>(slot * batch_ + frame) + offset_[plane];
    return (half == 0 ? ref_slots_ : dist_slots_).get() + at;
  }
  // The luma of the `frames` pairs of batch slot `slot`, for a feature that reads the luma alone.
  LumaBatch luma_batch(int slot, int frames) const {
    LumaBatch b;
    for (int f = 0; f < frames; ++f) {
      b.ref[f] = frame_plane(0, slot, f, 0);
      b.dist[f] = frame_plane(1, slot, f, 0);
    }
    b.count = frames;
    b.w = fmt_.width;
    b.h = fmt_.height;
    b.pitch = stored_plane_size(fmt_, 0).w;
    b.bitdepth = fmt_.bitdepth;
    return b;
  }
  const ExtractorContext& context() const { return ctx_; }
  const Format& format() const { return fmt_; }
  int batch() const { return batch_; }

 private:
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
    const int k = static_cast<int>(batches_ % kInFlight);
    const bool in_place = is_page_locked(pic.data[0]);
    staged_from_host_[half][staged_] = !in_place;
    if (!in_place) {
      stage_picture(pic, staging_[k].get() + frame_bytes_ * static_cast<std::size_t>(half * batch_ + staged_));
      return false;
    }
    upload_picture(pic, const_cast<std::uint8_t*>(frame_plane(half, k, staged_, 0)), half == 0 ? ref_runs_ : dist_runs_);
    // Samples whose owner keeps them unchanged are held until the batch is collected (its upload
    // is done by then).
    if (pic.keep) timeline_.keep(k, pic.keep);
    return true;
  }

  void upload_picture(const PictureView& pic, std::uint8_t* dst, MergedUpload& runs) {
    const cudaStream_t up = timeline_.upload();
    if (packed(pic)) {
      runs.add(dst, pic.data[0], frame_bytes_, frame_bytes_, 1, pic.keep.get(), up);
      return;
    }
    for (int k = 0; k < planes_; ++k) {
      const PlaneSize stored = stored_plane_size(fmt_, k);
      const std::size_t row_bytes = static_cast<std::size_t>(stored.w) * fmt_.bytes_per_sample();
      runs.add(dst + offset_[k], pic.data[k], static_cast<std::size_t>(pic.stride[k]), row_bytes,
               static_cast<std::size_t>(stored.h), pic.keep.get(), up);
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
    const int k = static_cast<int>(batches_ % kInFlight);
    const int n = staged_;
    const cudaStream_t up = timeline_.upload();
    for (int half = 0; half < 2; ++half) {
      MergedUpload& runs = half == 0 ? ref_runs_ : dist_runs_;
      const std::uint8_t* staged = staging_[k].get() + frame_bytes_ * static_cast<std::size_t>(half) * batch_;
      for (int f = 0; f < n; ++f)
        if (staged_from_host_[half][f])
          runs.add(const_cast<std::uint8_t*>(frame_plane(half, k, f, 0)), staged + frame_bytes_ * f, frame_bytes_, frame_bytes_,
                   1, staging_[k].get(), up);
    }
    flush_uploads();
    timeline_.launch(
        k, n, [&](cudaStream_t s) { compute(k, n, s); }, [&](cudaStream_t s) { read_back(k, n, s); });
    staged_ = 0;
    ++batches_;
  }

  // Waits for the oldest batch and queues each frame's sums, in frame order.
  void collect() {
    timeline_.collect([&](const auto& b, ReadyQueue<Sums>& ready) {
      for (int f = 0; f < b.count; ++f) ready.push(result(b.slot, f));
    });
  }

  const ExtractorContext ctx_;
  CopyPool pool_;
  MergedUpload ref_runs_{kMergedFrames}, dist_runs_{kMergedFrames};
  Format fmt_{};
  int planes_ = 1;
  int batch_ = kMaxBatch;
  std::size_t frame_bytes_ = 0;  // a slot: the scored planes as stored
  std::size_t offset_[3] = {0, 0, 0};
  DeviceBuffer<std::uint8_t> ref_slots_, dist_slots_;  // batch k's frame f in slot k * batch + f
  PinnedBuffer<std::uint8_t> staging_[kInFlight];
  bool staged_from_host_[2][kMaxBatch] = {};  // [reference, distorted][frame of the batch]
  BatchTimeline<Sums, kInFlight> timeline_;
  int staged_ = 0;
  unsigned batches_ = 0;
};

}  // namespace twinproof::cuda
