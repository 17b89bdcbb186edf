// TP_HD marks arithmetic written once for host C++ and CUDA device code alike.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define TP_HD __host__ __device__ __forceinline__
#else
#define TP_HD inline
#endif

// Functions here that a cpu-simd kernel calls are templates on `Isa`, a tag of the calling
// file: a kernel compiled for AVX2 instantiates its own copies (a tag in its anonymous namespace),
// so the linker can never hand the scalar code a copy built with instructions this CPU may lack.
template <class Isa = void>
TP_HD int leading_zeros32(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __clz(static_cast<int>(x));
#else
  return __builtin_clz(x);
#endif
}
template <class Isa = void>
TP_HD int leading_zeros64(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __clzll(static_cast<long long>(x));
#else
  return __builtin_clzll(x);
#endif
}
