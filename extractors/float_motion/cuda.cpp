// cuda: the fast exact CUDA twin users run. Same bits as the reference, by the same order of
// every operation (see extractors/float_motion/blur_row_sad.cu); the speed comes from
//  - one fused kernel per plane and batch of frames: blur and row SADs in shared memory, each
//    frame blurred once, blurred planes never written to device memory; small planes take
//    larger batches (up to 64 frames) so that one launch fills the device;
//  - pictures already in page-locked memory uploaded straight from it; others copied by several
//    threads into a small ring of pinned staging frames, each frame uploaded as soon as it is
//    copied (pinned memory for whole batches took longer to allocate than a short clip takes
//    to score); uploads on their own stream, so that they overlap the kernels;
//  - the host adding each pair's row sums with score_from_row_sums, as the CPU does.
#include <algorithm>
#include <deque>
#include <span>

#include "extractors/cuda/batch_timeline.hpp"
#include "extractors/cuda/copy_pool.hpp"
#include "extractors/cuda/merged_upload.hpp"
#include "extractors/cuda/runtime.hpp"
#include "extractors/float_motion/kernels.hpp"
#include "extractors/float_motion/motion.hpp"

namespace twinproof::float_motion {
namespace {

constexpr int kRing = 3;  // batches in the pipeline: staging, uploading/computing, collecting
constexpr std::size_t kMaxRingBytes = std::size_t{512} << 20;  // device samples of the ring's batches
constexpr int kStagingFrames = 4;                              // pinned frames the copy threads fill while earlier ones upload
constexpr int kMergedFrames = 4;                               // frames of one block uploaded a copy (cuda::MergedUpload)

class CudaEngine final : public MotionEngine {
 public:
  explicit CudaEngine(const ExtractorContext& ctx)
      : ctx_(ctx), pool_(std::clamp(std::thread::hardware_concurrency() / 2, 1u, 8u) - 1) {}

  void init(const Format& fmt, const std::vector<PlaneGeometry>& planes, const MotionOptions& o) override {
    cuda::use_device(ctx_.device);
    timeline_.reset();
    fmt_ = fmt;
    taps_ = taps_for(o.filter_size);
    add_scale1_ = o.add_scale1;
    // Stage capture inspects every frame: batches of one, blurred planes kept.
    batch_ = ctx_.capture_stages ? 1 : batch_frames(planes);
    keep_blurred_ = ctx_.capture_stages || add_scale1_;
    planes_.clear();
    planes_.resize(planes.size());
    for (std::size_t i = 0; i < planes.size(); ++i) {
      Plane& p = planes_[i];
      p.g = planes[i];
      p.frame_bytes = plane_bytes(p.g);
      for (int k = 0; k < kRing; ++k) {
        p.samples[k].resize(p.frame_bytes * batch_);
        p.rows[k].resize(static_cast<std::size_t>(p.g.h) * batch_);
        p.host_rows[k].resize(static_cast<std::size_t>(p.g.h) * batch_);
      }
      p.staging.resize(p.frame_bytes * kStagingFrames);
      if (keep_blurred_) p.blurred.resize(static_cast<std::size_t>(p.g.w) * p.g.h * batch_);
      if (add_scale1_) {
        const std::size_t sn = static_cast<std::size_t>(p.g.sw) * p.g.sh;
        p.down.resize(sn * (batch_ + 1));
        for (int k = 0; k < kRing; ++k) {
          p.rows_down[k].resize(static_cast<std::size_t>(p.g.sh) * batch_);
          p.host_rows_down[k].resize(static_cast<std::size_t>(p.g.sh) * batch_);
        }
      }
    }
    for (auto& e : staging_free_) e = std::make_unique<cuda::Event>();
    staging_next_ = 0;
    staged_ = 0;
    batches_ = 0;
    collected_ = false;
  }

  void submit(const PictureView& pic) override {
    if (staged_ == 0) begin_batch();
    const int k = batches_ % kRing;
    // A picture in page-locked memory is uploaded straight from there; any other one is copied
    // into a pinned staging frame by the copy threads and uploaded from it at once.
    const bool direct = cuda::is_page_locked(pic.data[0]);
    const int s = direct ? -1 : take_staging_frame();
    for (Plane& p : planes_) {
      const std::size_t row_bytes = static_cast<std::size_t>(p.g.w) * fmt_.bytes_per_sample();
      std::uint8_t* to = p.samples[k].get() + p.frame_bytes * staged_;
      if (direct) {
        p.upload.add(to, pic.data[p.g.plane], static_cast<std::size_t>(pic.stride[p.g.plane]), row_bytes,
                     static_cast<std::size_t>(p.g.h), pic.keep.get(), timeline_.upload());
      } else {
        std::uint8_t* staged = p.staging.get() + p.frame_bytes * s;
        pool_.copy_rows(staged, pic.data[p.g.plane], pic.stride[p.g.plane], row_bytes, static_cast<std::size_t>(p.g.h));
        TP_CUDA(cudaMemcpyAsync(to, staged, p.frame_bytes, cudaMemcpyHostToDevice, timeline_.upload()));
      }
    }
    if (!direct) staging_free_[s]->record(timeline_.upload());
    // Samples whose owner keeps them unchanged are held until the batch is collected (its upload
    // is done by then); others are the caller's again once submit returns.
    if (direct) {
      if (pic.keep) {
        timeline_.keep(k, pic.keep);
      } else {
        for (Plane& p : planes_) p.upload.flush();
        timeline_.finish_uploads();
      }
    }
    if (++staged_ == batch_) launch();
  }

  std::optional<double> take(bool wait) override {
    return timeline_.take(
        wait, staged_, [&] { collect(); }, [&] { launch(); });
  }

  std::optional<Probe> inspect_stage(Stage stage) const override {
    if (!ctx_.capture_stages || !collected_) return std::nullopt;
    Probe probe{std::string(stage_id(stage)), {}};
    for (const Plane& p : planes_) {
      const PlaneGeometry& g = p.g;
      const std::string scale1 = std::string(g.name) + "/scale1";
      switch (stage) {
        case Stage::blurred:
          probe.arrays.push_back({g.name, g.w, g.h, true, download(p.blurred, 0, std::size_t(g.w) * g.h)});
          break;
        case Stage::downscaled:
          if (!add_scale1_) return std::nullopt;
          probe.arrays.push_back(
              {g.name, g.sw, g.sh, true, download(p.down, std::size_t(g.sw) * g.sh, std::size_t(g.sw) * g.sh)});
          break;
        case Stage::row_sums:
          if (p.last_rows.empty()) return std::nullopt;
          probe.arrays.push_back({g.name, 1, g.h, true, {p.last_rows.begin(), p.last_rows.end()}});
          if (add_scale1_) probe.arrays.push_back({scale1, 1, g.sh, true, {p.last_rows_down.begin(), p.last_rows_down.end()}});
          break;
        case Stage::plane_totals:
          if (p.last_rows.empty()) return std::nullopt;
          probe.arrays.push_back({g.name, 1, 1, true, {p.last_total}});
          if (add_scale1_) probe.arrays.push_back({scale1, 1, 1, true, {p.last_total_down}});
          break;
        case Stage::plane_scores:
          if (p.last_rows.empty()) return std::nullopt;
          probe.arrays.push_back({g.name, 1, 1, true, {p.last_score}});
          break;
        default: return std::nullopt;  // converted and vertical planes never leave shared memory
      }
    }
    return probe;
  }

  std::optional<double> device_ms() const override { return timeline_.device_ms(); }

 private:
  struct Plane {
    PlaneGeometry g{};
    std::size_t frame_bytes = 0;
    cuda::DeviceBuffer<std::uint8_t> samples[kRing];
    static constexpr auto kStaging = cuda::HostUse::kHostWritesOnly;
    cuda::PinnedBuffer<std::uint8_t> staging{kStaging};  // kStagingFrames frames
    cuda::MergedUpload upload{kMergedFrames};            // frames uploaded from where they are, a run a copy
    cuda::DeviceBuffer<float> rows[kRing], rows_down[kRing];
    cuda::PinnedBuffer<float> host_rows[kRing], host_rows_down[kRing];
    cuda::DeviceBuffer<float> blurred;             // the batch's blurred planes (capture, scale1)
    cuda::DeviceBuffer<float> down;                // slot 0: the previous frame's half-size plane, then the batch's
    std::vector<float> last_rows, last_rows_down;  // the latest pair, for inspection
    float last_total = 0, last_total_down = 0, last_score = 0;
  };
  static std::vector<double> download(const cuda::DeviceBuffer<float>& d, std::size_t offset, std::size_t n) {
    std::vector<float> h(n);
    TP_CUDA(cudaMemcpy(h.data(), d.get() + offset, n * sizeof(float), cudaMemcpyDeviceToHost));
    return {h.begin(), h.end()};
  }

  std::size_t plane_bytes(const PlaneGeometry& g) const { return static_cast<std::size_t>(g.w) * g.h * fmt_.bytes_per_sample(); }

  // Frames a launch takes: what fills the device for these planes (the luma plane is the
  // tallest), within kMaxRingBytes of samples for the ring, and never fewer than one group.
  int batch_frames(const std::vector<PlaneGeometry>& planes) const {
    int frames = 0;
    TP_CUDA(kernels::blur_row_sad_batch(planes.front().h, fmt_.bytes_per_sample(), &frames));
    std::size_t frame_bytes = 0;
    for (const PlaneGeometry& g : planes) frame_bytes += plane_bytes(g);
    while (frames > kernels::kGroupFrames && kRing * frame_bytes * frames > kMaxRingBytes) frames -= kernels::kGroupFrames;
    return frames;
  }

  // The next pinned staging frame, once its last upload is done.
  int take_staging_frame() {
    const std::uint64_t n = staging_next_++;
    const int s = static_cast<int>(n % kStagingFrames);
    if (n >= kStagingFrames) staging_free_[s]->sync();  // used before: an upload was recorded
    return s;
  }

  // Slot k is reused by this batch; the batch before the previous one read it (as `prev`) and
  // wrote its staging, so everything up to it must be complete and collected.
  void begin_batch() {
    while (timeline_.in_flight() >= kRing - 1) collect();
  }

  void launch() {
    const int k = batches_ % kRing;
    const int n = staged_;
    const bool has_prev = batches_ > 0;
    for (Plane& p : planes_) p.upload.flush();  // every frame of the batch is now queued for upload
    const int pairs = has_prev ? n : n - 1;
    const int prev_slot = (batches_ + kRing - 1) % kRing;
    // The row sums' copies back are part of the timed work: each plane's follows its kernels.
    timeline_.launch(
        k, pairs,
        [&](cudaStream_t s) {
          for (Plane& p : planes_) {
            const PlaneGeometry& g = p.g;
            const std::uint8_t* prev = has_prev ? p.samples[prev_slot].get() + p.frame_bytes * (prev_frames_ - 1) : nullptr;
            TP_CUDA(kernels::blur_row_sad(prev, p.samples[k].get(), n, fmt_.bytes_per_sample(), fmt_.bitdepth, g.w, g.h, taps_,
                                          p.rows[k].get(), keep_blurred_ ? p.blurred.get() : nullptr, s));
            if (pairs > 0)
              TP_CUDA(
                  cudaMemcpyAsync(p.host_rows[k].get(), p.rows[k].get(), sizeof(float) * g.h * pairs, cudaMemcpyDeviceToHost, s));
            if (add_scale1_) scale1(p, k, n, has_prev, s);
          }
        },
        [](cudaStream_t) {});
    prev_frames_ = n;
    staged_ = 0;
    ++batches_;
  }

  // motion_add_scale1: half-size planes of the batch into down[1..n] (down[0] holds the frame
  // before), row sums of each pair with the row-thread kernel, then the last plane moves to slot 0.
  void scale1(Plane& p, int k, int n, bool has_prev, cudaStream_t s) {
    const PlaneGeometry& g = p.g;
    const std::size_t plane = static_cast<std::size_t>(g.w) * g.h, small = static_cast<std::size_t>(g.sw) * g.sh;
    for (int f = 0; f < n; ++f)
      TP_CUDA(kernels::downscale(p.blurred.get() + plane * f, g.w, g.h, g.sw, g.sh, p.down.get() + small * (f + 1), s));
    const int first = has_prev ? 0 : 1;
    for (int a = first; a < n; ++a)
      TP_CUDA(kernels::row_sad(p.down.get() + small * a, p.down.get() + small * (a + 1), g.sw, g.sh,
                               p.rows_down[k].get() + static_cast<std::size_t>(g.sh) * (a - first), s));
    const int pairs = n - first;
    if (pairs > 0)
      TP_CUDA(cudaMemcpyAsync(p.host_rows_down[k].get(), p.rows_down[k].get(), sizeof(float) * g.sh * pairs,
                              cudaMemcpyDeviceToHost, s));
    TP_CUDA(cudaMemcpyAsync(p.down.get(), p.down.get() + small * n, small * sizeof(float), cudaMemcpyDeviceToDevice, s));
  }

  // Waits for the oldest batch and turns its row sums into pair scores, as the CPU does.
  void collect() {
    timeline_.collect([&](const auto& b, ReadyQueue<double>& ready) { queue_scores(b.slot, b.count, ready); });
    collected_ = true;
  }

  void queue_scores(int slot, int pairs, ReadyQueue<double>& ready) {
    for (int pair = 0; pair < pairs; ++pair) {
      double score = 0;
      for (Plane& p : planes_) {
        const std::span<const float> rows(p.host_rows[slot].get() + static_cast<std::size_t>(p.g.h) * pair, p.g.h);
        const float sad0 = score_from_row_sums(rows, p.g.w);
        float sad1 = 0;
        std::span<const float> rows_down;
        if (add_scale1_) {
          rows_down = {p.host_rows_down[slot].get() + static_cast<std::size_t>(p.g.sh) * pair, static_cast<std::size_t>(p.g.sh)};
          sad1 = score_from_row_sums(rows_down, p.g.sw);
        }
        const float ps = plane_score(sad0, sad1, add_scale1_);
        score += static_cast<double>(ps);
        if (ctx_.capture_stages) {
          p.last_rows.assign(rows.begin(), rows.end());
          p.last_total = total_of_row_sums(rows);
          p.last_rows_down.assign(rows_down.begin(), rows_down.end());
          p.last_total_down = total_of_row_sums(rows_down);
          p.last_score = ps;
        }
      }
      ready.push(score);
    }
  }

  const ExtractorContext ctx_;
  cuda::CopyPool pool_;
  Format fmt_{};
  Taps taps_{};
  bool add_scale1_ = false, keep_blurred_ = false;
  int batch_ = 1;  // set by init
  std::vector<Plane> planes_;
  cuda::BatchTimeline<double, kRing> timeline_;                // streams and events made in init, on the chosen device
  std::unique_ptr<cuda::Event> staging_free_[kStagingFrames];  // the last upload from each staging frame
  std::uint64_t staging_next_ = 0;                             // staging frames taken so far
  int staged_ = 0, prev_frames_ = 0;
  unsigned batches_ = 0;
  bool collected_ = false;
};

}  // namespace
std::unique_ptr<Extractor> make_cuda(const ExtractorContext& ctx) { return with_engine<MotionExtractor, CudaEngine>(ctx); }

}  // namespace twinproof::float_motion
