// float_ansnr's cpu-simd filter kernel, compiled once per ISA (extractors/simd_lanes.hpp): V::lanes
// output samples a vector, each lane the reference's chain of fp32 operations for its sample.
#include <immintrin.h>

#include "extractors/float_ansnr/cpu_simd.hpp"
#include "extractors/simd_lanes.hpp"

namespace twinproof::float_ansnr {
namespace {

using V = simd::IsaFloat;

// V::lanes samples of a row from column x, as fp32 less 128 (exact: a power-of-two divisor).
template <class Sample>
V::reg samples(const FilterRow& r, int row, int x, V::reg inverse_scaler, V::reg minus_128) {
  const auto* p = reinterpret_cast<const Sample*>(r.data + r.stride * row) + x;
  return V::add(V::mul(V::convert(p), inverse_scaler), minus_128);
}

template <class Sample>
int filter(const FilterRow& r, int taps, int begin, int end) {
  const float scaler = r.bitdepth == 8 ? 1.0f : static_cast<float>(1 << (r.bitdepth - 8));
  const V::reg inverse_scaler = V::set1(1.0f / scaler), minus_128 = V::set1(-128.0f);
  int x = begin;
  for (; x + V::lanes <= end; x += V::lanes) {
    V::reg accum = V::zero();
    for (int fi = 0; fi < taps; ++fi) {
      V::reg inner = V::zero();
      for (int fj = 0; fj < taps; ++fj)
        inner = V::add(inner, V::mul(V::set1(r.taps[fi * taps + fj]),
                                     samples<Sample>(r, r.rows[fi], x - taps / 2 + fj, inverse_scaler, minus_128)));
      accum = V::add(accum, inner);
    }
    V::store(r.out + x, accum);
  }
  return x;
}

}  // namespace

int TWINPROOF_ISA_NAME(filter_interior)(const FilterRow& r, int taps, int begin, int end) {
  return r.bitdepth == 8 ? filter<std::uint8_t>(r, taps, begin, end) : filter<std::uint16_t>(r, taps, begin, end);
}

}  // namespace twinproof::float_ansnr
