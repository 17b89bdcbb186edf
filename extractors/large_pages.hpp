// Host buffers of many pages (frames, whole planes) placed on transparent huge pages where the
// kernel offers them. A process that scores a short clip touches each such buffer for the first
// time while it runs: on 4 KiB pages a 1080p float plane costs about 2000 page faults, which on a
// virtual machine took a third of a 60-frame `score`; on 2 MiB pages it costs 4.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
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
  bool operator==(const LargePageAllocator<U>&) const noexcept {
    return true;
  }
};

// A whole plane (or frame) of samples or intermediate values.
template <class T>
using PlaneVector = std::vector<T, LargePageAllocator<T>>;

// The same allocator for planes that are written whole before they are read: new elements of a
// trivial type are left uninitialised (resize() makes no zeroing pass), so a fresh plane's pages
// are first touched where its rows are first written, by the threads that write them. On a
// virtual machine a page's first touch can cost more than the pass that fills it: zeroing two
// 1080p fp32 planes at init took 12% of a 2-frame `score` on the project's VM.
template <class T>
struct WrittenFirstAllocator : LargePageAllocator<T> {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = WrittenFirstAllocator<U>;
  };
  WrittenFirstAllocator() = default;
  template <class U>
  WrittenFirstAllocator(const WrittenFirstAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    static_assert(std::is_trivially_default_constructible_v<U>);
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... A>
  void construct(U* p, A&&... a) {
    ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
  }
};

// A whole plane its user writes before reading (WrittenFirstAllocator).
template <class T>
using WrittenFirstPlane = std::vector<T, WrittenFirstAllocator<T>>;

}  // namespace twinproof
