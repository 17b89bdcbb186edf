// Launchers of float_motion's CUDA kernels. Each enqueues on `stream` and returns the launch's
// error (cudaGetLastError) for the host to check; none synchronises.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "extractors/float_motion/arithmetic.hpp"

namespace twinproof::float_motion::kernels {

// ---- blur.cu: the reference's three stages, one thread per output sample -----------------------
// samples: w x h, row pitch w samples of `bytes_per_sample` (1 or 2) bytes.
cudaError_t convert(const std::uint8_t* samples, int bytes_per_sample, int bitdepth, int w, int h, float* out,
                    cudaStream_t stream);
cudaError_t blur_vertical(const float* in, int w, int h, const Taps& taps, float* tmp, cudaStream_t stream);
cudaError_t blur_horizontal(const float* tmp, int w, int h, const Taps& taps, float* out, cudaStream_t stream);

// ---- row_sad.cu: one thread walks one row left to right; h floats out ---------------------------
cudaError_t row_sad(const float* a, const float* b, int w, int h, float* rows, cudaStream_t stream);

// ---- scale1.cu: bilinear half-size downscale, the spec's double-then-fp32 coordinates ------------
cudaError_t downscale(const float* in, int w, int h, int sw, int sh, float* out, cudaStream_t stream);

// ---- blur_row_sad.cu: the fast exact design (cuda) ----------------------------------------------
// Blurs `frames` consecutive frames (compact w x h planes one after another in `batch`) and, for
// each consecutive pair (prev, batch[0]), (batch[0], batch[1]), ..., writes the h row sums of
// |A - B|, each row walked left to right by one thread, to row_sums[pair * h + row]. Without
// `prev` (the clip's first batch) the pairs start at (batch[0], batch[1]). When `blurred` is not
// null the batch's blurred planes are written there too (stage capture, motion_add_scale1).
// A block takes kBandRows rows of a group of kGroupFrames frames (and the frame before them).
inline constexpr int kBandRows = 8;
inline constexpr int kGroupFrames = 8;
inline constexpr int kMaxBatchFrames = 64;  // frames one launch takes
cudaError_t blur_row_sad(const std::uint8_t* prev, const std::uint8_t* batch, int frames, int bytes_per_sample, int bitdepth,
                         int w, int h, const Taps& taps, float* row_sums, float* blurred, cudaStream_t stream);
// Frames a launch should take for h-row planes on the current device: as many groups of
// kGroupFrames as keep every multiprocessor's blocks busy (one group for a 4K plane, eight for
// a small one), at most kMaxBatchFrames.
cudaError_t blur_row_sad_batch(int h, int bytes_per_sample, int* frames);

// ---- block_sad.cu: the non-exact design (cuda-block) ----------------------------------------------
// Fused 2D blur from samples (convert, vertical and horizontal through shared memory).
cudaError_t fused_blur(const std::uint8_t* samples, int bytes_per_sample, int bitdepth, int w, int h, const Taps& taps,
                       float* out, cudaStream_t stream);
// Sum of |A - B| over each 16x16 block, reduced with warp shuffles: one float per block, row-major
// over ceil(w/16) x ceil(h/16) blocks.
inline constexpr int kSadBlock = 16;
cudaError_t block_sad(const float* a, const float* b, int w, int h, float* block_sums, cudaStream_t stream);

}  // namespace twinproof::float_motion::kernels
