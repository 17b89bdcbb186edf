// Launchers of float_moment's CUDA kernels. Each enqueues on `stream` and returns the launch's
// error for the host to check; none synchronises.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "extractors/cuda/luma_batch.hpp"

namespace twinproof::float_moment::kernels {

using cuda::LumaBatch;  // the luma of up to 8 frame pairs (extractors/cuda/luma_batch.hpp)

// units[(f * h + y) * 4 + k] = row y of frame f's sum k (ref samples, dist samples, ref squares,
// dist squares) as a whole number of its unit (arithmetic.hpp).
cudaError_t row_units(const LumaBatch& batch, unsigned long long* units, cudaStream_t stream);

// For each frame f: its four sums (sums[f * 4 + k]) and their running values after each row
// (after_row[(f * h + y) * 4 + k]), from its rows' units while the squares' totals stay below 2^53
// (exact), else by the reference's sequential loop over the samples (one thread: rare, and the
// contract's order).
cudaError_t frame_sums(const LumaBatch& batch, const unsigned long long* units, double* after_row, double* sums,
                       cudaStream_t stream);

}  // namespace twinproof::float_moment::kernels
