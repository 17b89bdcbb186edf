// Launchers of psnr's CUDA kernels. Each enqueues on `stream` and returns the launch's error for
// the host to check; none synchronises.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace twinproof::psnr::kernels {

// One plane of a frame pair in device memory: w x h samples read, `pitch` samples from one row to
// the next in both pictures (pitch > w where libvmaf reads fewer chroma columns than the file
// holds, at odd widths).
struct PlanePair {
  const void* ref = nullptr;
  const void* dist = nullptr;
  int w = 0, h = 0, pitch = 0;
};

// Planes one launch takes: 8 frames of 3 planes.
inline constexpr int kMaxPlanes = 24;
struct PlaneBatch {
  PlanePair plane[kMaxPlanes];
  int count = 0;
};

// totals[i] += sum over the plane's w x h samples of (ref - dist)^2, in 64 bits, for every plane i
// of the batch (`bytes` per sample, 1 or 2). The caller zeroes totals first. Integer sums: exact in
// any order, so the plane is split into chunks of many blocks, each adding its share atomically.
cudaError_t plane_sse(const PlaneBatch& batch, int bytes, unsigned long long* totals, cudaStream_t stream);

// For each row y < h of one plane of a frame pair (compact w x h planes, `bytes` per sample, 1 or
// 2): rows_out[y] = sum over x of (ref[y][x] - dist[y][x])^2, in 64 bits. The row sums stage, run
// only when stages are captured.
cudaError_t row_sse(const void* ref, const void* dist, int w, int h, int pitch, int bytes, unsigned long long* rows_out,
                    cudaStream_t stream);

}  // namespace twinproof::psnr::kernels
