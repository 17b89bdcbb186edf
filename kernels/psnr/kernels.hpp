// Launchers of psnr's CUDA kernels. Each enqueues on `stream` and returns the launch's error for
// the host to check; none synchronises.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace twinproof::psnr::kernels {

// For each row y < h of one plane of a frame pair (compact w x h planes, `bytes` per sample, 1 or
// 2): rows_out[y] = sum over x of (ref[y][x] - dist[y][x])^2, in 64 bits. Integer sums: exact in
// any order.
cudaError_t row_sse(const void* ref, const void* dist, int w, int h, int bytes, unsigned long long* rows_out, cudaStream_t stream);

}  // namespace twinproof::psnr::kernels
