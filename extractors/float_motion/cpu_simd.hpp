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

using ::twinproof::SimdLevel;
using ::twinproof::detected_simd_level;
using ::twinproof::simd_level;
using ::twinproof::to_string;

// One plane of one frame for the fused kernels.
struct SimdPlaneJob {
  const std::uint8_t* samples;  // first sample of the plane
  std::ptrdiff_t stride;        // bytes per row
  int bitdepth, w, h;
  Taps taps;
  float* blurred;               // w x h out
  const float* previous;        // the previous frame's blurred plane, or nullptr (first frame)
  float* row_sums;              // h out (when previous)
  float* converted;             // w x h out for stage capture, or nullptr
  float* vertical;              // w x h out for stage capture, or nullptr
  int first_row = 0, end_row = 0;  // the output rows to compute, [first_row, end_row) of h
};

void fused_plane_avx2(const SimdPlaneJob& job, std::vector<float>& scratch);
void fused_plane_avx512(const SimdPlaneJob& job, std::vector<float>& scratch);
// Row SADs of `rows` rows, 8 rows per vector, each row added left to right (AVX2).
void row_sums_avx2(const float* a, const float* b, int w, int rows, float* out);

}  // namespace twinproof::float_motion
