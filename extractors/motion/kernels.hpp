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

// Where a launch keeps and leaves its results. `sums` and `tickets` (kMaxPairs device words each)
// and `rows` (kMaxPairs * h device words, used only with rows_out) must be zero before the first
// launch; every launch leaves them zero again, so one stream can reuse them without a memset.
// `totals` (kMaxPairs) and, when not null, `rows_out` (kMaxPairs * h) must be writable by the
// device: page-locked mapped host memory lets the host read them once the launch is complete.
struct PairScratch {
  unsigned long long* sums = nullptr;
  unsigned* tickets = nullptr;
  std::uint32_t* rows = nullptr;
  unsigned long long* totals = nullptr;
  std::uint32_t* rows_out = nullptr;
};

// For every pair p: the contract's row sums rs[i] = sum over j of |X[i][j]| (uint32, modulo 2^32)
// into rows_out[p * h + i] when asked, and their 64-bit total T into totals[p]. Fused: the
// difference P - C and both passes stay in registers. `sms` (the device's multiprocessors) sizes
// the tasks; any positive value gives the same results.
cudaError_t pair_totals(const void* frames, std::size_t frame_elems, int bitdepth, int w, int h, const PairSlots& slots,
                        int pairs, const PairScratch& scratch, int sms, cudaStream_t stream);

}  // namespace twinproof::motion::kernels
