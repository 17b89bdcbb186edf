// Launchers of float_psnr's CUDA kernels. Each enqueues on `stream` and returns the launch's error
// for the host to check; none synchronises.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "extractors/cuda/luma_batch.hpp"

namespace twinproof::float_psnr::kernels {

using cuda::LumaBatch;  // the luma of up to 8 frame pairs (extractors/cuda/luma_batch.hpp)

// units[f * h + y] = row y's terms of frame f as whole multiples of the term unit (arithmetic.hpp).
cudaError_t row_units(const LumaBatch& batch, unsigned long long* units, cudaStream_t stream);

// For each frame f: its noise sum (noise[f]) and the running sum after each row
// (after_row[f * h + y]), from its rows' units while their total stays below 2^53 (exact), else by
// the reference's sequential loop over the samples (one thread: rare, and the contract's order).
cudaError_t frame_noise(const LumaBatch& batch, const unsigned long long* units, double* after_row, double* noise,
                        cudaStream_t stream);

}  // namespace twinproof::float_psnr::kernels
