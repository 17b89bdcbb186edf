// float_psnr's cpu-simd row kernels: one row's terms as integers of the term unit
// (arithmetic.hpp, term_unit_log2). The scalar loop is the baseline; the per-ISA kernels
// (cpu_simd_isa.cpp, compiled once per ISA) take rows below 16 bits, where a term is the integer
// difference squared, and hand 16-bit rows (an fp32 square that may round) to the scalar loop.
#pragma once

#include <cstdint>

namespace twinproof::float_psnr {

// `ref` and `dist` point at a row of w samples (bytes at 8 bits, else 16-bit samples).
std::uint64_t scalar_row_units(const std::uint8_t* ref, const std::uint8_t* dist, int w, int bitdepth);
std::uint64_t row_units_avx2(const std::uint8_t* ref, const std::uint8_t* dist, int w, int bitdepth);
std::uint64_t row_units_avx512(const std::uint8_t* ref, const std::uint8_t* dist, int w, int bitdepth);

}  // namespace twinproof::float_psnr
