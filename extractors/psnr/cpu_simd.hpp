// psnr's cpu-simd kernels per ISA (cpu_simd_isa.cpp, compiled once per ISA,
// each copy for its ISA alone), chosen at run time by cpu_simd.cpp.
#pragma once

#include "extractors/psnr/cpu.hpp"

namespace twinproof::psnr {

void rows_avx2(const PlaneJob& job);
void rows_avx512(const PlaneJob& job);

}  // namespace twinproof::psnr
