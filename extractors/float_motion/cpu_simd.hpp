// cpu-simd's instruction-set levels, chosen at run time, and the per-ISA kernels behind them
// (cpu_simd_avx2.cpp, cpu_simd_avx512.cpp: each compiled for its ISA only).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "extractors/float_motion/arithmetic.hpp"
#include "extractors/simd.hpp"

namespace twinproof::float_motion {

using ::twinproof::detected_simd_level;
using ::twinproof::simd_level;
using ::twinproof::SimdLevel;
using ::twinproof::to_string;

// One plane of consecutive frames for the fused kernels, in one pass: each band blurs row i of
// every frame of the batch before row i + 1, and adds each pair's row SADs while both frames'
// blurred rows are in cache. Only the last frame's blurred plane goes to memory (the next
// batch's `previous`): the fp32 plane's trip through memory, 8 of a sample's 9 bytes at 8 bits,
// is paid once a batch. A batch of one frame is the frame-by-frame pass stage capture uses.
inline constexpr int kMaxBatchFrames = 4;
struct SimdBatchJob {
  const std::uint8_t* samples[kMaxBatchFrames];  // first sample of the plane, per frame
  std::ptrdiff_t stride[kMaxBatchFrames];        // bytes per row, per frame
  int frames;                                    // 1 to kMaxBatchFrames
  int bitdepth, w, h;
  Taps taps;
  const float* previous;           // the blurred plane of the frame before the batch, or nullptr (none)
  float* last_blurred;             // w x h out: the batch's last frame blurred (may be `previous`: in place)
  float* row_sums;                 // h out per pair, pairs in frame order (the first pairs with `previous`)
  float* converted;                // w x h out for stage capture (a batch of one frame), or nullptr
  float* vertical;                 // w x h out for stage capture (a batch of one frame), or nullptr
  int first_row = 0, end_row = 0;  // the output rows to compute, [first_row, end_row) of h
};

void fused_batch_avx2(const SimdBatchJob& job, SimdScratch<float>& scratch);
void fused_batch_avx512(const SimdBatchJob& job, SimdScratch<float>& scratch);
// Row SADs of `rows` rows of w samples (row i of a at a + i * a_stride, of b likewise), 8 rows
// per vector, each row added left to right (AVX2).
void row_sums_avx2(const float* a, std::size_t a_stride, const float* b, std::size_t b_stride, int w, int rows, float* out);

}  // namespace twinproof::float_motion
