// adm's cpu-simd kernels, one set per ISA (cpu_simd_isa.cpp, compiled once per ISA,
// each copy for that ISA alone), chosen at run time by cpu_simd.cpp. Each does what the CpuAdmEngine hook of
// the same name does, for the rows it is given.
#pragma once

#include "extractors/adm/cpu.hpp"

namespace twinproof::adm {

// What the kernels need of the engine for one scale.
struct SimdScale {
  int scale;
  const ScaleGeometry* geometry;
  const SumShifts* shifts;
  const CsfWeights* weights;
  bool skip_aim;
  double gain_limit;  // decoupling's
  float cos_1deg_sq;
};

#define TP_ADM_SIMD_KERNELS(isa)                                                                   \
  void dwt_rows_##isa(const ScaleInput& in, int begin, int end, ScaleBands& out, DwtScratch& t);   \
  void decouple_rows_##isa(const SimdScale& s, int begin, int end, ScaleBands& b);                 \
  void csf_rows_##isa(const SimdScale& s, int begin, int end, const ScaleBands& b, ScaleMasks& m); \
  void sum_rows_##isa(const SimdScale& s, int begin, int end, const ScaleBands& b, const ScaleMasks& m, ScaleSums* rows);
TP_ADM_SIMD_KERNELS(avx2)
TP_ADM_SIMD_KERNELS(avx512)
#undef TP_ADM_SIMD_KERNELS

}  // namespace twinproof::adm
