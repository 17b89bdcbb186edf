// Launchers of vif's CUDA kernels (extractors/vif/CONTRACT.md). Each enqueues on `stream` and
// returns the launch's error for the host to check; none synchronises.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

namespace twinproof::vif::kernels {

inline constexpr int kMaxFrames = 8;  // frame pairs one launch takes
// Each scale's four sums are added into kBins copies (a block adds into copy blockIdx % kBins),
// so that the atomics of a frame's blocks do not all queue on one address; the host adds the
// copies. Integer sums: the same bits in any order.
inline constexpr int kBins = 32;

// A scale's picture pair of each frame of a launch, on the device: `pitch` samples from one row
// to the next in both pictures.
struct Pictures {
  const void* ref[kMaxFrames] = {};
  const void* dist[kMaxFrames] = {};
  int pitch = 0;
  int frames = 0;
};

// Where a launch's sums go: frame f's bin b of this scale at sums + f * frame_stride + 4 * b
// (num_log, den_log, num_non_log, den_non_log, as two's-complement 64-bit values); with `rows`
// set (stages captured, frame 0 alone), each row y's four sums at rows + 4 * y too. The caller
// zeroes both first.
struct Sums {
  unsigned long long* sums = nullptr;
  int frame_stride = 0;
  unsigned long long* rows = nullptr;
};

// The statistics of scale `scale` (w x h pictures: at scale 0 the clip's samples of `bpc` bits,
// 16-bit in memory when `wide`; at later scales the 16-bit pictures of subsample) of every frame: each pixel's contribution
// (add_pixel of extractors/vif/arithmetic.hpp, through the log2 table `log2t` on the device, with
// the enhancement gain limit) added into its frame's sums.
cudaError_t statistics(const Pictures& in, int w, int h, int scale, int bpc, bool wide, const std::uint16_t* log2t,
                       double gain_limit, const Sums& out, cudaStream_t stream);

// Scale `next`'s pictures ((w / 2) x (h / 2), 16-bit, packed) of every frame from scale next - 1's
// (w x h, read as `statistics` reads them): filtered vertically at the even rows and horizontally at the even
// columns with scale next's filter, rounded as the contract says.
cudaError_t subsample(const Pictures& in, int w, int h, int next, int bpc, bool wide, std::uint16_t* const ref_out[kMaxFrames],
                      std::uint16_t* const dist_out[kMaxFrames], cudaStream_t stream);

}  // namespace twinproof::vif::kernels
