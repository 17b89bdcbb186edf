// What the frame-at-a-time CUDA engines of float_motion share: the device, per-plane buffers,
// the per-frame flow (upload, blur, downscale, reduce, download, host sum), and stage downloads
// for inspection. Each backend's own file says how a frame is blurred, how a pair is reduced on
// the device, and how the host turns the reduction into a plane's SAD.
#pragma once

#include <deque>
#include <vector>

#include "extractors/cuda/runtime.hpp"
#include "extractors/float_motion/motion.hpp"
#include "extractors/ready_queue.hpp"

namespace twinproof::float_motion {

class CudaEngineBase : public MotionEngine {
 public:
  explicit CudaEngineBase(const ExtractorContext& ctx) : ctx_(ctx) {}
  void init(const Format& fmt, const std::vector<PlaneGeometry>& planes, const MotionOptions& o) override;
  void submit(const PictureView& pic) override;
  // These engines upload each frame as it comes and wait for it: from page-locked frames that wait
  // is a DMA alone, with no staging copy. (The batched `cuda` engines do not ask: their own
  // staging by several copy threads measured faster from a file on an H200, 421 ms against
  // 522-540 ms for 240 4K frames, than reading into page-locked frames, whose allocations contend
  // with the engine's own CUDA calls.)
  std::shared_ptr<HostMemory> frame_memory() const override { return cuda::page_locked_frames(ctx_.device); }
  std::optional<double> take(bool wait) override;
  std::optional<Probe> inspect_stage(Stage s) const override;
  std::optional<double> device_ms() const override { return device_ms_; }

 protected:
  struct DevicePlane {
    PlaneGeometry g{};
    cuda::DeviceBuffer<std::uint8_t> samples;       // w x h samples, compact
    cuda::DeviceBuffer<float> converted, vertical;  // latest frame (when the backend has them)
    cuda::DeviceBuffer<float> blurred[2], down[2];  // [frame parity]
    cuda::DeviceBuffer<float> rows, rows_down;      // row sums of the latest pair
    std::vector<float> host_rows, host_rows_down;
    double total = 0, total_down = 0;  // fp32 totals widened, or the double block total
    float score = 0;
  };

  // Which stages this backend computes (others are reported as not exposed).
  virtual bool has_stage(Stage s) const = 0;
  // Called by init once the planes exist; allocate what the backend needs.
  virtual void allocate(DevicePlane& p) = 0;
  // Blurs the plane's uploaded samples into `out`.
  virtual void blur(DevicePlane& p, float* out, cudaStream_t s) = 0;
  // Reduces |A - B| of two w x h planes into `sums` (row sums, or block sums).
  virtual void reduce(const float* a, const float* b, int w, int h, float* sums, cudaStream_t s) = 0;
  // The plane's SAD from the downloaded sums of a w x h plane; `total` receives their sum.
  virtual float sad_from_sums(const std::vector<float>& sums, int w, int h, double& total) const = 0;

  // Copies the plane's w x h samples (libvmaf geometry) into p.samples on `stream`.
  void upload(const PictureView& pic, DevicePlane& p, cudaStream_t stream);
  std::size_t bytes_per_sample() const { return static_cast<std::size_t>(fmt_.bytes_per_sample()); }

  const ExtractorContext ctx_;
  Format fmt_{};
  Taps taps_{};
  bool add_scale1_ = false;
  std::vector<DevicePlane> planes_;
  unsigned frames_ = 0;
  ReadyQueue<double> ready_;
  std::unique_ptr<cuda::Stream> stream_;  // created in init, on the chosen device
  double device_ms_ = 0;
};

}  // namespace twinproof::float_motion
