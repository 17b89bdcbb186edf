// float_moment's cpu-simd kernel, compiled once per ISA (extractors/simd_lanes.hpp): below 16 bits
// a square is the integer sample squared, so a row's units are its exact sums
// (simd::row_sum_and_squares); 16-bit rows go to the scalar loop (cpu_simd.hpp).
#include <immintrin.h>

#include "extractors/float_moment/cpu_simd.hpp"
#include "extractors/simd_lanes.hpp"

namespace twinproof::float_moment {

RowUnits TWINPROOF_ISA_NAME(row_units)(const std::uint8_t* ref, const std::uint8_t* dist, int w, int bitdepth) {
  using V = simd::IsaInt32;
  if (bitdepth > 12) return scalar_row_units(ref, dist, w, bitdepth);
  std::pair<std::uint64_t, std::uint64_t> r, d;
  if (bitdepth == 8) {
    r = simd::row_sum_and_squares<V>(ref, w);
    d = simd::row_sum_and_squares<V>(dist, w);
  } else {
    r = simd::row_sum_and_squares<V>(reinterpret_cast<const std::uint16_t*>(ref), w);
    d = simd::row_sum_and_squares<V>(reinterpret_cast<const std::uint16_t*>(dist), w);
  }
  return {r.first, d.first, r.second, d.second};
}

}  // namespace twinproof::float_moment
