#include "extractors/large_pages.hpp"

#include <new>

#include <sys/mman.h>

namespace twinproof {
namespace {

// Whether a buffer of `bytes` gets a mapping of its own (else the heap serves it).
bool mapped(std::size_t bytes) { return kMapLargeBuffers && bytes >= kLargeBufferBytes; }

std::size_t mapped_length(std::size_t bytes) { return (bytes + kLargeBufferBytes - 1) / kLargeBufferBytes * kLargeBufferBytes; }

// Maps `length` bytes (a multiple of kLargeBufferBytes) at an address aligned to it: a huge page
// can back only an aligned 2 MiB range of a mapping.
void* map_aligned(std::size_t length) {
  const std::size_t reserve = length + kLargeBufferBytes;
  void* p = mmap(nullptr, reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  const auto base = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t aligned = (base + kLargeBufferBytes - 1) / kLargeBufferBytes * kLargeBufferBytes;
  if (aligned > base) munmap(p, aligned - base);
  if (const std::uintptr_t tail = base + reserve - (aligned + length); tail > 0)
    munmap(reinterpret_cast<void*>(aligned + length), tail);
  // Advice only: a kernel without transparent huge pages keeps small pages, and nothing changes
  // but the count of faults.
  madvise(reinterpret_cast<void*>(aligned), length, MADV_HUGEPAGE);
  return reinterpret_cast<void*>(aligned);
}

}  // namespace

void* large_allocate(std::size_t bytes) {
  if (mapped(bytes)) return map_aligned(mapped_length(bytes));
  return ::operator new(bytes);
}

void large_free(void* p, std::size_t bytes) noexcept {
  if (!p) return;
  if (mapped(bytes)) munmap(p, mapped_length(bytes));
  else ::operator delete(p);  // unsized: clang before 19 leaves sized deallocation off by default
}

std::shared_ptr<std::uint8_t> allocate_zeroed(std::size_t bytes) {
  if (mapped(bytes))  // a fresh anonymous mapping reads as zeros: nothing to clear
    return {static_cast<std::uint8_t*>(large_allocate(bytes)), [bytes](std::uint8_t* p) { large_free(p, bytes); }};
  return {new std::uint8_t[bytes](), std::default_delete<std::uint8_t[]>()};
}

}  // namespace twinproof
