// float_moment's cpu-simd row kernels: one row's four sums as integers of their units
// (arithmetic.hpp): the two pictures' samples and squares. The scalar loop is the baseline; the
// per-ISA kernels (cpu_simd_isa.cpp, compiled once per ISA) take rows below 16 bits, where a
// square is the integer sample squared, and hand 16-bit rows (an fp32 square that may round) to
// the scalar loop.
#pragma once

#include <array>
#include <cstdint>

namespace twinproof::float_moment {

using RowUnits = std::array<std::uint64_t, 4>;  // ref samples, dist samples, ref squares, dist squares

// `ref` and `dist` point at a row of w samples (bytes at 8 bits, else 16-bit samples).
RowUnits scalar_row_units(const std::uint8_t* ref, const std::uint8_t* dist, int w, int bitdepth);
RowUnits row_units_avx2(const std::uint8_t* ref, const std::uint8_t* dist, int w, int bitdepth);
RowUnits row_units_avx512(const std::uint8_t* ref, const std::uint8_t* dist, int w, int bitdepth);

}  // namespace twinproof::float_moment
