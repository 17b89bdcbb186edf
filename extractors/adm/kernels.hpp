// Launchers of adm's CUDA kernels (extractors/adm/CONTRACT.md). Each enqueues on `stream` and
// returns the launch's error for the host to check; none synchronises.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "extractors/adm/arithmetic.hpp"

namespace twinproof::adm::kernels {

inline constexpr int kMaxFrames = 8;  // frame pairs one launch takes

// A scale's input pictures of each frame of a launch: the luma planes (8- or 16-bit samples,
// `pitch` samples a row) at scale 0, the previous scale's low-pass bands (32-bit) after.
struct Input {
  const void* ref[kMaxFrames] = {};
  const void* dist[kMaxFrames] = {};
  int pitch = 0;
  int sample_bytes = 1;
  int frames = 0;
};

// A scale's arrays of every frame, w x h int32 values each: frame f's array k at
// base + f * frame_stride + k * elems. Bands: k = picture * 4 + band (a, h, v, d); decoupled bands
// (stages only): k = restored h, v, d, impairment h, v, d.
struct Arrays {
  std::int32_t* base = nullptr;
  std::size_t frame_stride = 0;
  std::size_t elems = 0;
  int frames = 0;
};
inline constexpr int kRestored = 0, kImpairment = 3, kDecoupledArrays = 6;
inline constexpr int kSums = 9;  // a row's or a scale's sums: DLM h, v, d, AIM h, v, d, denominator h, v, d

// Both pictures' bands of scale `scale` of every frame from its input (in_w x in_h).
cudaError_t dwt(const Input& in, int in_w, int in_h, int scale, int bpc, const Arrays& bands, cudaStream_t stream);

// What the decoupling and the sums read of the options.
struct ScaleParams {
  ScaleGeometry geometry;
  SumShifts shifts;
  CsfWeights weights;
  int scale = 0;
  bool skip_aim = false;
  double gain_limit = 100;
  float cos_1deg_sq = 0;
  const std::int32_t* lookup = nullptr;  // div_lookup() on the device
};

// The scored rect in tiles of kTileRows x kTileCols samples: one block each.
inline constexpr int kTileRows = 8, kTileCols = 64;
inline int tile_columns(const ScaleGeometry& g) { return (g.scored.right - g.scored.left + kTileCols - 1) / kTileCols; }
// The per-tile row sums one launch of masked_sums() writes: frames x scored rows x tile columns x 9.
inline std::size_t partial_sums(const ScaleGeometry& g, int frames) {
  return static_cast<std::size_t>(frames) * static_cast<std::size_t>(g.scored.bottom - g.scored.top) * tile_columns(g) * kSums;
}

// Per tile of the scored rect: the decoupling and CSF of its samples and their one-sample ring
// (in shared memory), then each scored row's nine masked and denominator sums over the tile's
// columns, into `partials` (frame, scored row, tile column, sum).
cudaError_t masked_sums(const Arrays& bands, const ScaleParams& p, unsigned long long* partials, cudaStream_t stream);

// Each scored row's nine sums from its tiles' (64-bit two's complement), rounded by the row shifts
// and added into frame f's at sums + frame_stride * f (written, not added to); with `rows` set
// (frame 0 alone), row y's nine at rows + 9 * y too.
cudaError_t row_sums(const unsigned long long* partials, const ScaleParams& p, int frames, unsigned long long* sums,
                     int frame_stride, unsigned long long* rows, cudaStream_t stream);

// Stages only: the decoupled bands of the written rect of every frame, as the reference keeps them.
cudaError_t decoupled_bands(const Arrays& bands, const Arrays& decoupled, const ScaleParams& p, cudaStream_t stream);

}  // namespace twinproof::adm::kernels
