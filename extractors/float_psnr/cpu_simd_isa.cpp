// float_psnr's cpu-simd kernel, compiled once per ISA (extractors/simd_lanes.hpp): below 16 bits a
// term is the integer difference squared, so a row's units are its exact squared error
// (simd::row_squared_error); 16-bit rows go to the scalar loop (cpu_simd.hpp).
#include <immintrin.h>

#include "extractors/float_psnr/cpu_simd.hpp"
#include "extractors/simd_lanes.hpp"

namespace twinproof::float_psnr {

std::uint64_t TWINPROOF_ISA_NAME(row_units)(const std::uint8_t* ref, const std::uint8_t* dist, int w, int bitdepth) {
  using V = simd::IsaInt32;
  if (bitdepth == 8) return simd::row_squared_error<V>(ref, dist, w);
  if (bitdepth <= 12)
    return simd::row_squared_error<V>(reinterpret_cast<const std::uint16_t*>(ref), reinterpret_cast<const std::uint16_t*>(dist),
                                      w);
  return scalar_row_units(ref, dist, w, bitdepth);
}

}  // namespace twinproof::float_psnr
