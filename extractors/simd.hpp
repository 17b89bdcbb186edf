// The CPU's SIMD levels, chosen at run time, shared by every feature's cpu-simd twin: each ISA's
// kernels are compiled for that ISA alone (<feature>/*_avx2.cpp, *_avx512.cpp).
#pragma once

#include <string_view>

namespace twinproof {

enum class SimdLevel { scalar, avx2, avx512 };

SimdLevel detected_simd_level();  // the best this CPU has
// The detected level, lowered by TWINPROOF_SIMD=scalar|avx2|avx512 (exactly these words; any
// other non-empty value is a ConfigError).
SimdLevel simd_level();
std::string_view to_string(SimdLevel l);

}  // namespace twinproof
