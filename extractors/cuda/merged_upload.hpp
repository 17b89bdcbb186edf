// Host-to-device uploads of consecutive frames' planes, merged into one copy while they continue
// each other: each plane packed (its rows back to back), all in one host allocation (the same
// owner: a 2D copy may not span two page-locked allocations, even adjacent ones), each at one
// constant host stride after the one before (frames of one block of memory), and each right after
// the one before on the device. Such a run goes as one 2D copy, a row per frame. On the H200 every
// copy costs the copy engine about 2.8 us beyond its bytes (extractors/float_motion/KERNELS.md: 64 1080p luma
// planes took 40.3 us a frame one copy each, 38.1 four a copy and 37.5 all in one), 7% of a
// 1080p plane's upload. Planes that do not continue the run start a new one; frames read into
// buffers of their own rarely do, and then go one a copy, one frame later than they would alone.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

namespace twinproof::cuda {

class MergedUpload {
 public:
  // At most `max_planes` planes a copy: the first plane of a run waits for the run's last.
  explicit MergedUpload(int max_planes) : max_(max_planes) {}

  // Queues the upload of a plane of `rows` rows of `row_bytes`, at `src` with `src_pitch` bytes
  // from one row to the next, to `dst` packed, on `stream`. A packed plane (pitch == row bytes)
  // may join a run; any other goes at once as a 2D copy of its own, after the run before it.
  // `owner` names the host allocation that holds the plane (nullptr: unknown, never merged). The
  // source must stay unchanged until the stream has done the copy, queued by flush() at the latest.
  void add(std::uint8_t* dst, const std::uint8_t* src, std::size_t src_pitch, std::size_t row_bytes, std::size_t rows,
           const void* owner, cudaStream_t stream);
  // Queues the run held so far (nothing when none).
  void flush();
  // Planes queued so far in runs of more than one (tests).
  std::uint64_t merged() const { return merged_; }

 private:
  bool continues(const std::uint8_t* dst, const std::uint8_t* src, std::size_t bytes, const void* owner,
                 cudaStream_t stream) const;

  int max_;
  std::uint8_t* dst_ = nullptr;        // the run's first plane on the device
  const std::uint8_t* src_ = nullptr;  // and on the host
  std::size_t bytes_ = 0;              // every plane's bytes
  std::size_t pitch_ = 0;              // host bytes from one plane to the next (once the run has two)
  int count_ = 0;
  const void* owner_ = nullptr;
  cudaStream_t stream_ = nullptr;
  std::uint64_t merged_ = 0;
};

}  // namespace twinproof::cuda
