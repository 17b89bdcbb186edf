// Launchers of integer motion's CUDA kernels. Each enqueues on `stream` and returns the launch's
// error for the host to check; none synchronises.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace twinproof::motion::kernels {

// Up to kMaxPairs frame pairs per launch: pair p reads the luma planes in slots earlier[p] and
// later[p] of `frames` (compact w x h planes, `frame_elems` samples apart).
inline constexpr int kMaxPairs = 16;
struct PairSlots {
  int earlier[kMaxPairs];
  int later[kMaxPairs];
};

// Adds, for every pair p and row i, sum over j of |X[i][j]| into row_sums[p * h + i] (uint32,
// modulo 2^32, as the contract keeps row sums; rows must be zeroed first). Fused: the difference
// P - C, the vertical pass and the horizontal pass of a tile stay in registers and shared memory.
cudaError_t pair_row_sums(const void* frames, std::size_t frame_elems, int bytes_per_sample, int bitdepth, int w, int h,
                          const PairSlots& slots, int pairs, std::uint32_t* row_sums, cudaStream_t stream);

}  // namespace twinproof::motion::kernels
