// The CPU's SIMD levels, chosen at run time, shared by every feature's cpu-simd twin: each ISA's
// kernels are compiled for that ISA alone (<feature>/*_avx2.cpp, *_avx512.cpp).
#pragma once

#include <cstddef>
#include <new>
#include <string_view>
#include <vector>

namespace twinproof {

enum class SimdLevel { scalar, avx2, avx512 };

SimdLevel detected_simd_level();  // the best this CPU has
// The detected level, lowered by TWINPROOF_SIMD=scalar|avx2|avx512 (exactly these words; any
// other non-empty value is a ConfigError).
SimdLevel simd_level();
std::string_view to_string(SimdLevel l);

// Scratch rows of the vector kernels start on a cache line. The heap gives 16-byte alignment,
// so every 64-byte AVX-512 access at a lane-aligned offset of such a row would span two lines
// (and half the 32-byte AVX2 ones would).
inline constexpr std::size_t kCacheLineBytes = 64;

template <class T>
struct CacheLineAllocator {
  using value_type = T;
  CacheLineAllocator() = default;
  template <class U>
  CacheLineAllocator(const CacheLineAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{kCacheLineBytes}));
  }
  void deallocate(T* p, std::size_t) noexcept { ::operator delete (p, std::align_val_t{kCacheLineBytes}); }
  template <class U>
  bool operator==(const CacheLineAllocator<U>&) const noexcept {
    return true;
  }
};

template <class T>
using SimdScratch = std::vector<T, CacheLineAllocator<T>>;

// n rounded up to whole cache lines of T: the stride of scratch rows, so that each row starts
// on a line as the first does.
template <class T>
constexpr std::size_t cache_line_stride(std::size_t n) {
  constexpr std::size_t per_line = kCacheLineBytes / sizeof(T);
  return (n + per_line - 1) / per_line * per_line;
}

}  // namespace twinproof
