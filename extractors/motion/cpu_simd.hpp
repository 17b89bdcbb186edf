// Integer motion's cpu-simd kernels per ISA (cpu_simd_isa.cpp, compiled once per ISA,
// each copy for its ISA alone), chosen at run time by cpu_simd.cpp.
#pragma once

#include <cstdint>

#include "extractors/simd.hpp"

namespace twinproof::motion {

// One frame pair: the luma of the earlier (P) and later (C) frame, w x h row-major.
struct SadJob {
  const std::uint16_t* earlier;
  const std::uint16_t* later;
  int w, h, bitdepth;
  std::uint32_t* row_sums;         // h out
  int first_row = 0, end_row = 0;  // the rows to compute, [first_row, end_row) of h
};

// The row sums of rows [first_row, end_row) of the pair, written to row_sums. `scratch` is the
// kernels' own (resized as needed).
void row_sums_avx2(const SadJob& job, SimdScratch<std::int32_t>& scratch);
void row_sums_avx512(const SadJob& job, SimdScratch<std::int32_t>& scratch);

}  // namespace twinproof::motion
