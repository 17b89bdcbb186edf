#include "extractors/simd.hpp"

#include <cstdlib>

namespace twinproof {

SimdLevel detected_simd_level() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return SimdLevel::avx512;
  if (__builtin_cpu_supports("avx2")) return SimdLevel::avx2;
  return SimdLevel::scalar;
}

SimdLevel simd_level() {
  const SimdLevel best = detected_simd_level();
  const char* env = std::getenv("TWINPROOF_SIMD");
  if (env == nullptr) return best;
  const std::string_view want(env);
  const SimdLevel asked = want == "scalar" ? SimdLevel::scalar : want == "avx2" ? SimdLevel::avx2 : SimdLevel::avx512;
  return asked < best ? asked : best;
}

std::string_view to_string(SimdLevel l) {
  switch (l) {
    case SimdLevel::scalar: return "scalar";
    case SimdLevel::avx2: return "avx2";
    case SimdLevel::avx512: return "avx512";
  }
  return "?";
}

}  // namespace twinproof
