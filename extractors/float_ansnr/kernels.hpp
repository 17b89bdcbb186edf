// Launchers of float_ansnr's CUDA kernels. Each enqueues on `stream` and returns the launch's
// error for the host to check; none synchronises.
#pragma once

#include <cuda_runtime_api.h>

#include "extractors/cuda/luma_batch.hpp"
#include "extractors/float_ansnr/arithmetic.hpp"

namespace twinproof::float_ansnr::kernels {

using cuda::LumaBatch;  // the luma of up to 8 frame pairs (extractors/cuda/luma_batch.hpp)

// rows[f * h + y] = row y of frame f's energy: one thread a row filters its samples and adds them
// left to right, as the reference does. ref_filtered / dis_filtered (w x h, frame 0 only; null
// when stages are not captured) receive the filtered pictures.
cudaError_t row_energy(const LumaBatch& batch, Energy* rows, float* ref_filtered, float* dis_filtered, cudaStream_t stream);

// frames[f] = frame f's energy: its rows' energies added in fp32 top to bottom (one thread a frame).
cudaError_t frame_energy(const LumaBatch& batch, const Energy* rows, Energy* frames, cudaStream_t stream);

}  // namespace twinproof::float_ansnr::kernels
