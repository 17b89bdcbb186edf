#include "extractors/simd.hpp"

#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "extractors/extractor.hpp"

namespace twinproof {

SimdLevel detected_simd_level() {
  __builtin_cpu_init();
  // The AVX-512 kernels are compiled for F, CD, BW, DQ and VL together (extractors/CMakeLists.txt).
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
    return SimdLevel::avx512;
  if (__builtin_cpu_supports("avx2")) return SimdLevel::avx2;
  return SimdLevel::scalar;
}

SimdLevel simd_level() {
  const SimdLevel best = detected_simd_level();
  const char* env = std::getenv("TWINPROOF_SIMD");
  if (env == nullptr || *env == '\0') return best;
  const std::string_view want(env);
  SimdLevel asked;
  if (want == "scalar") asked = SimdLevel::scalar;
  else if (want == "avx2") asked = SimdLevel::avx2;
  else if (want == "avx512") asked = SimdLevel::avx512;
  else  // a typo must not quietly run another code path than the one asked for
    throw UsageError("TWINPROOF_SIMD", std::string(want),
                     fmt::format("TWINPROOF_SIMD='{}' is not one of scalar, avx2, avx512", want));
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
