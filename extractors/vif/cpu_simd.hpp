// vif's cpu-simd kernels, one set per ISA (cpu_simd_isa.cpp, compiled once per ISA,
// each copy for that ISA alone), chosen at run time by cpu_simd.cpp.
#pragma once

#include "extractors/vif/cpu.hpp"

namespace twinproof::vif {

// The sums of rows [begin, end) of a scale's pictures (as CpuVifEngine::statistic_rows), with the
// vertical pass's shifts of that scale.
void statistic_rows_avx2(const ScalePictures& p, const VerticalShift& vs, int begin, int end, ScaleSums* rows, RowScratch& t,
                         const std::uint16_t* log2t, double gain_limit);
void statistic_rows_avx512(const ScalePictures& p, const VerticalShift& vs, int begin, int end, ScaleSums* rows, RowScratch& t,
                           const std::uint16_t* log2t, double gain_limit);
// Rows [begin, end) of the next scale's pictures (as CpuVifEngine::subsample_rows).
void subsample_rows_avx2(const ScalePictures& p, const VerticalShift& vs, int begin, int end, std::uint16_t* ref_out,
                         std::uint16_t* dist_out, std::ptrdiff_t out_stride, RowScratch& t);
void subsample_rows_avx512(const ScalePictures& p, const VerticalShift& vs, int begin, int end, std::uint16_t* ref_out,
                           std::uint16_t* dist_out, std::ptrdiff_t out_stride, RowScratch& t);

}  // namespace twinproof::vif
