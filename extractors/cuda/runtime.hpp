// Host-side CUDA helpers shared by the GPU backends: checked calls, device selection, owned
// device and pinned buffers, streams and events. Every failure is a DeviceError naming the call.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include <cuda_runtime_api.h>

#include "extractors/extractor.hpp"
#include "extractors/registry.hpp"

namespace twinproof::cuda {

// Throws DeviceError "CALL failed: <CUDA error name>: <text>" unless e is cudaSuccess. Kernel
// launchers return their launch error, so TP_CUDA(kernels::row_sad(...)) checks a launch too.
void check(cudaError_t e, const char* call);
#define TP_CUDA(call) ::twinproof::cuda::check((call), #call)

// Makes `device` current for this thread; ConfigError when no such device.
void use_device(int device);

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  std::size_t memory = 0;
  int sms = 0;
};
DeviceInfo device_info(int device);
int device_count();  // 0 when there is no driver or device
std::string runtime_version();
std::string driver_version();

// What page-locked host memory is for. Write-combined memory is for buffers the host only writes
// (upload staging): faster to fill with streaming stores and to DMA over PCIe, very slow to read
// back on the host. Mapped memory is written by kernels in place (small results the host reads
// once the work is complete), so no copy-back is queued.
enum class HostUse { kCopies, kHostWritesOnly, kDeviceWrites };

// Owned CUDA memory: device memory (cudaMalloc), or page-locked host memory (cudaHostAlloc),
// so that copies are truly asynchronous and run at full bandwidth.
template <class T, bool Host>
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t n) requires(!Host) { resize(n); }
  explicit Buffer(HostUse use) requires Host : flags_(use == HostUse::kHostWritesOnly ? cudaHostAllocWriteCombined
                                                      : use == HostUse::kDeviceWrites ? cudaHostAllocMapped
                                                                                      : cudaHostAllocDefault) {}
  ~Buffer() { release(); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)), flags_(o.flags_) {}
  Buffer& operator=(Buffer&& o) noexcept {
    if (this != &o) {
      release();
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
      flags_ = o.flags_;
    }
    return *this;
  }
  void resize(std::size_t n) {
    if (n == n_) return;
    release();
    if (n > 0) {
      if constexpr (Host) TP_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&p_), n * sizeof(T), flags_));
      else TP_CUDA(cudaMalloc(reinterpret_cast<void**>(&p_), n * sizeof(T)));
    }
    n_ = n;
  }
  T* get() const { return p_; }
  // The address kernels use for mapped host memory (HostUse::kDeviceWrites).
  T* device() const requires Host {
    T* d = nullptr;
    if (p_ != nullptr) TP_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&d), p_, 0));
    return d;
  }
  std::size_t size() const { return n_; }
  std::size_t bytes() const { return n_ * sizeof(T); }

 private:
  void release() {
    if (p_ != nullptr) {
      if constexpr (Host) cudaFreeHost(p_);
      else cudaFree(p_);
    }
    p_ = nullptr;
    n_ = 0;
  }
  T* p_ = nullptr;
  std::size_t n_ = 0;
  unsigned flags_ = cudaHostAllocDefault;
};

template <class T>
using DeviceBuffer = Buffer<T, false>;
template <class T>
using PinnedBuffer = Buffer<T, true>;

class Stream {
 public:
  Stream() { TP_CUDA(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() {
    if (s_ != nullptr) cudaStreamDestroy(s_);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }
  void sync() const { TP_CUDA(cudaStreamSynchronize(s_)); }

 private:
  cudaStream_t s_ = nullptr;
};

class Event {
 public:
  explicit Event(bool timing = false) {
    TP_CUDA(cudaEventCreateWithFlags(&e_, timing ? cudaEventDefault : cudaEventDisableTiming));
  }
  ~Event() {
    if (e_ != nullptr) cudaEventDestroy(e_);
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return e_; }
  void record(cudaStream_t s) { TP_CUDA(cudaEventRecord(e_, s)); }
  void sync() const { TP_CUDA(cudaEventSynchronize(e_)); }
  bool done() const;  // true once reached; DeviceError on a fault

 private:
  cudaEvent_t e_ = nullptr;
};

// Whether host memory is page-locked (cudaHostAlloc, cudaHostRegister), so that a copy from it
// can start without staging. Asked every time: an address says nothing about what is there now.
bool is_page_locked(const void* p);

// Page-locked host memory for frames that a reader fills and an engine on `device` uploads from
// directly. Portable (page-locked for every context), as readers allocate on their own threads.
std::shared_ptr<HostMemory> page_locked_frames(int device);

// Milliseconds between two recorded timing events.
float elapsed_ms(const Event& start, const Event& stop);

}  // namespace twinproof::cuda
