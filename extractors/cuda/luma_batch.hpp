// The luma of a batch of frame pairs in device memory, as a kernel of a feature that reads the
// luma alone takes it (a plain struct: .cu files include it without the host runtime).
// PairBatches::luma_batch fills it from a batch slot.
#pragma once

namespace twinproof::cuda {

inline constexpr int kMaxLumaBatch = 8;  // PairBatches::kMaxBatch
struct LumaBatch {
  const void* ref[kMaxLumaBatch] = {};
  const void* dist[kMaxLumaBatch] = {};
  int count = 0;
  int w = 0, h = 0, pitch = 0, bitdepth = 8;  // pitch: samples from one row to the next
};

// Whether a launch over the batch is well formed: at most kMaxLumaBatch frames, and rows that fit
// a grid's y dimension when a kernel takes a block a row.
inline bool well_formed(const LumaBatch& b) { return b.count >= 0 && b.count <= kMaxLumaBatch && b.h <= 65535; }
// Whether the batch holds any sample to compute on.
inline bool has_work(const LumaBatch& b) { return b.count > 0 && b.h > 0 && b.w >= 0; }

}  // namespace twinproof::cuda
