#include "extractors/cuda/runtime.hpp"
#include "extractors/devices.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

#include <fmt/format.h>

namespace twinproof {

// The registry's availability check for every CUDA backend.
Availability cuda_availability() {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error so later queries start clean
    return {false, fmt::format("no usable CUDA device: {}: {}", cudaGetErrorName(e), cudaGetErrorString(e))};
  }
  if (n == 0) return {false, "no CUDA device"};
  return {true, {}};
}

namespace cuda {

void check(cudaError_t e, const char* call) {
  if (e == cudaSuccess) return;
  // The runtime also keeps the error as its last one, which the next launch check
  // (cudaGetLastError) would report as its own: it is this call's, and is reported here.
  cudaGetLastError();
  throw DeviceError(fmt::format("{} failed: {}: {}", call, cudaGetErrorName(e), cudaGetErrorString(e)));
}

int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return n;
}

void use_device(int device) {
  const int n = device_count();
  if (device < 0 || device >= n)
    throw DeviceError(
        fmt::format("device {}: this host has {} CUDA device(s) visible (CUDA_VISIBLE_DEVICES applies)", device, n));
  TP_CUDA(cudaSetDevice(device));
}

DeviceInfo device_info(int device) {
  cudaDeviceProp p{};
  TP_CUDA(cudaGetDeviceProperties(&p, device));
  return {device, p.name, p.major, p.minor, p.totalGlobalMem, p.multiProcessorCount};
}

static std::string version_text(int v) { return fmt::format("{}.{}", v / 1000, (v % 1000) / 10); }

std::string runtime_version() {
  int v = 0;
  return cudaRuntimeGetVersion(&v) == cudaSuccess ? version_text(v) : "unknown";
}

std::string driver_version() {
  int v = 0;
  return cudaDriverGetVersion(&v) == cudaSuccess && v > 0 ? version_text(v) : "none";
}

}  // namespace cuda

std::vector<DeviceDescription> cuda_devices() {
  std::vector<DeviceDescription> out;
  for (int d = 0; d < cuda::device_count(); ++d) {
    const cuda::DeviceInfo i = cuda::device_info(d);
    out.push_back({d, i.name, fmt::format("{}.{}", i.cc_major, i.cc_minor), i.memory, i.sms});
  }
  return out;
}
std::string cuda_runtime_version() { return cuda::runtime_version(); }

HostBuffer allocate_host_buffer(std::size_t bytes, bool pinned) {
  if (pinned && cuda::device_count() > 0) {
    void* p = nullptr;
    if (cudaHostAlloc(&p, bytes, cudaHostAllocDefault) == cudaSuccess)
      return {std::shared_ptr<std::uint8_t>(static_cast<std::uint8_t*>(p), [](std::uint8_t* q) { cudaFreeHost(q); }), true};
    cudaGetLastError();
  }
  return {std::shared_ptr<std::uint8_t>(new std::uint8_t[bytes], std::default_delete<std::uint8_t[]>()), false};
}

std::optional<DeviceBandwidth> measure_bandwidth(int device) {
  if (device >= cuda::device_count()) return std::nullopt;
  cuda::use_device(device);
  constexpr std::size_t kDeviceBytes = std::size_t(1) << 30, kHostBytes = std::size_t(256) << 20;
  cuda::DeviceBuffer<std::uint8_t> a(kDeviceBytes), b(kDeviceBytes);
  cuda::PinnedBuffer<std::uint8_t> host;
  host.resize(kHostBytes);
  std::memset(host.get(), 1, kHostBytes);
  TP_CUDA(cudaMemset(a.get(), 1, kDeviceBytes));
  cuda::Stream s;
  cuda::Event start(true), stop(true);
  const auto median_ms = [&](auto&& copy) {
    copy();  // warm-up
    std::vector<float> ms;
    for (int i = 0; i < 7; ++i) {
      start.record(s.get());
      copy();
      stop.record(s.get());
      stop.sync();
      ms.push_back(cuda::elapsed_ms(start, stop));
    }
    std::sort(ms.begin(), ms.end());
    return static_cast<double>(ms[ms.size() / 2]);
  };
  const double d2d =
      median_ms([&] { TP_CUDA(cudaMemcpyAsync(b.get(), a.get(), kDeviceBytes, cudaMemcpyDeviceToDevice, s.get())); });
  const double h2d =
      median_ms([&] { TP_CUDA(cudaMemcpyAsync(a.get(), host.get(), kHostBytes, cudaMemcpyHostToDevice, s.get())); });
  return DeviceBandwidth{2.0 * kDeviceBytes / (d2d * 1e6), kHostBytes / (h2d * 1e6)};
}
std::string cuda_driver_version() { return cuda::driver_version(); }

std::optional<double> measure_device_startup(int device) {
  const auto t0 = std::chrono::steady_clock::now();
  if (device >= cuda::device_count()) return std::nullopt;
  cuda::use_device(device);
  TP_CUDA(cudaFree(nullptr));  // creates the context
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

namespace cuda {

bool Event::done() const {
  const cudaError_t e = cudaEventQuery(e_);
  if (e == cudaErrorNotReady) return false;
  check(e, "cudaEventQuery");
  return true;
}

bool is_page_locked(const void* p) {
  cudaPointerAttributes a{};
  const bool pinned = cudaPointerGetAttributes(&a, p) == cudaSuccess && a.type == cudaMemoryTypeHost;
  cudaGetLastError();  // an ordinary pointer is no error worth keeping
  return pinned;
}

namespace {
class PageLockedFrames final : public HostMemory {
 public:
  explicit PageLockedFrames(int device) : device_(device) {}
  std::shared_ptr<std::uint8_t> allocate(std::size_t bytes) override {
    TP_CUDA(cudaSetDevice(device_));  // this thread's device: the allocation belongs to its context
    void* p = nullptr;
    TP_CUDA(cudaHostAlloc(&p, bytes, cudaHostAllocPortable));
    return {static_cast<std::uint8_t*>(p), [](std::uint8_t* q) { cudaFreeHost(q); }};
  }

 private:
  const int device_;
};
}  // namespace

std::shared_ptr<HostMemory> page_locked_frames(int device) { return std::make_shared<PageLockedFrames>(device); }

float elapsed_ms(const Event& start, const Event& stop) {
  float ms = 0;
  TP_CUDA(cudaEventElapsedTime(&ms, start.get(), stop.get()));
  return ms;
}

}  // namespace cuda
}  // namespace twinproof
