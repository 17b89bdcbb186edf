// float_ansnr's cpu-simd filter kernels: a row's filtered samples for the columns whose window lies
// inside the picture, each lane one output sample computed in the reference's order (per filter
// row, taps left to right in fp32, then the rows top to bottom), so each lane's value is the
// reference's. Compiled once per ISA (cpu_simd_isa.cpp); columns near the edges and the energy
// sum (one fp32 chain) stay in cpu_simd.cpp.
#pragma once

#include <cstdint>

#include "extractors/float_ansnr/arithmetic.hpp"

namespace twinproof::float_ansnr {

// What a kernel reads: one picture's luma, its format, and the rows of the window of row y
// (mirrored indices, `Taps` of them).
struct FilterRow {
  const std::uint8_t* data;  // the picture's luma
  std::ptrdiff_t stride;     // bytes a row
  int bitdepth;
  const int* rows;    // the window's row indices, Taps of them
  const float* taps;  // Taps x Taps
  float* out;         // the row's filtered samples (w)
};

// out[x] for x in [begin, end), where begin >= 2 and end + 2 <= w (the window inside the picture);
// returns the first column it did not write (a whole number of vectors from begin).
int filter_interior_avx2(const FilterRow& r, int taps, int begin, int end);
int filter_interior_avx512(const FilterRow& r, int taps, int begin, int end);

}  // namespace twinproof::float_ansnr
