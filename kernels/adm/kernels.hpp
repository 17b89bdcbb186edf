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
// base + f * frame_stride + k * elems. Bands: k = picture * 4 + band (a, h, v, d); work: k =
// restored h, v, d, impairment h, v, d, then CSF values and shares of the impairment (mask 0) and of
// the restored bands (mask 1), each h, v, d.
struct Arrays {
  std::int32_t* base = nullptr;
  std::size_t frame_stride = 0;
  std::size_t elems = 0;
  int frames = 0;
};
inline constexpr int kRestored = 0, kImpairment = 3, kCsf = 6, kShare = 12, kWorkArrays = 18;

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

// The decoupled bands, CSF values and shares of the written rect of every frame.
cudaError_t decouple(const Arrays& bands, const Arrays& work, const ScaleParams& p, cudaStream_t stream);

// Each scored row's nine sums (DLM, AIM, denominator per angle, 64-bit two's complement), shifted
// and added into frame f's sums at sums + frame_stride * f; with `rows` set (frame 0 alone), row
// y's nine at rows + 9 * y too. The caller zeroes both first.
cudaError_t sums(const Arrays& bands, const Arrays& work, const ScaleParams& p, unsigned long long* sums, int frame_stride,
                 unsigned long long* rows, cudaStream_t stream);

}  // namespace twinproof::adm::kernels
