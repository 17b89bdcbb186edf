// Host buffers of many pages (frames, whole planes) placed on transparent huge pages where the
// kernel offers them. A process that scores a short clip touches each such buffer for the first
// time while it runs: on 4 KiB pages a 1080p float plane costs about 2000 page faults, which on a
// virtual machine took a third of a 60-frame `score`; on 2 MiB pages it costs 4.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

namespace twinproof {

// At and above this size a buffer is mapped on its own, aligned to and rounded up to whole huge
// pages, and offered to the kernel for them (madvise). Below it, the ordinary heap serves.
inline constexpr std::size_t kLargeBufferBytes = std::size_t{2} << 20;
#if defined(__SANITIZE_ADDRESS__)
// Under AddressSanitizer every buffer comes from the heap, where an overflow past a plane is caught.
inline constexpr bool kMapLargeBuffers = false;
#else
inline constexpr bool kMapLargeBuffers = true;
#endif

// `bytes` zero-filled bytes; never null for bytes > 0. Throws std::bad_alloc when memory cannot be had.
std::shared_ptr<std::uint8_t> allocate_zeroed(std::size_t bytes);

// The raw pair behind LargePageAllocator: large_allocate(n) gives n bytes, zero-filled when they
// were mapped for it, aligned to at least alignof(std::max_align_t); large_free takes the same n.
void* large_allocate(std::size_t bytes);
void large_free(void* p, std::size_t bytes) noexcept;

// std::allocator's contract (value-initialising containers stay value-initialised), with the
// large buffers placed as above.
template <class T>
struct LargePageAllocator {
  using value_type = T;
  LargePageAllocator() = default;
  template <class U>
  LargePageAllocator(const LargePageAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(large_allocate(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept { large_free(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const LargePageAllocator<U>&) const noexcept { return true; }
};

// A whole plane (or frame) of samples or intermediate values.
template <class T>
using PlaneVector = std::vector<T, LargePageAllocator<T>>;

}  // namespace twinproof
