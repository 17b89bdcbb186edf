// The CUDA devices of this host, described without CUDA types (for reports and schedulers).
// Empty when built without CUDA or when there is no driver or device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace twinproof {

struct DeviceDescription {
  int ordinal = 0;
  std::string name;
  std::string compute_capability;  // "9.0"
  std::size_t memory = 0;
  int multiprocessors = 0;
};

std::vector<DeviceDescription> cuda_devices();
std::string cuda_runtime_version();
std::string cuda_driver_version();

}  // namespace twinproof

namespace twinproof {

// Copy bandwidths of a device, measured now with CUDA events (median of several copies):
// device-to-device counts bytes read plus bytes written; host-to-device is from pinned memory.
struct DeviceBandwidth {
  double d2d_gbps = 0;
  double h2d_pinned_gbps = 0;
};
std::optional<DeviceBandwidth> measure_bandwidth(int device);  // nullopt without a device

// Milliseconds to start the device from nothing: the driver's initialisation and the creation of
// the device's context (what every process that runs a device twin pays once). Meaningful only
// as the process's first CUDA call; nullopt without a device.
std::optional<double> measure_device_startup(int device);

// Host memory for frames: page-locked when `pinned` and a CUDA device exists (device twins then
// upload from it directly, without a staging copy), ordinary memory otherwise.
struct HostBuffer {
  std::shared_ptr<std::uint8_t> data;
  bool pinned = false;
};
HostBuffer allocate_host_buffer(std::size_t bytes, bool pinned);

}  // namespace twinproof
