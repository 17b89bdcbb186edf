// float_ansnr's kernels. Every sum of the contract is in fp32 and so depends on its order: one
// thread a row computes the row's filtered samples and adds their energies left to right, and one
// thread a frame adds the rows top to bottom, exactly as the reference (arithmetic.hpp, the same
// functions, -fmad=false). The parallelism is across rows and frames only.
#include "extractors/float_ansnr/kernels.hpp"

namespace twinproof::float_ansnr::kernels {
namespace {

constexpr int kThreads = 128;

template <class Sample>
__global__ void __launch_bounds__(kThreads)
    row_energy_kernel(const LumaBatch batch, Energy* __restrict__ rows, float* ref_filtered, float* dis_filtered) {
  const int y = blockIdx.x * kThreads + threadIdx.x, f = blockIdx.y;
  if (y >= batch.h) return;
  const Filters taps = filters();
  const int w = batch.w, h = batch.h, bitdepth = batch.bitdepth, pitch = batch.pitch;
  const Sample* ref = static_cast<const Sample*>(batch.ref[f]);
  const Sample* dis = static_cast<const Sample*>(batch.dist[f]);
  const auto at_ref = [&](int ii, int jj) { return to_float(ref[static_cast<std::size_t>(ii) * pitch + jj], bitdepth); };
  const auto at_dis = [&](int ii, int jj) { return to_float(dis[static_cast<std::size_t>(ii) * pitch + jj], bitdepth); };
  Energy e;
  for (int x = 0; x < w; ++x) {
    const float r = filtered<kRefTaps>(taps.ref, y, x, w, h, at_ref);
    const float d = filtered<kDisTaps>(taps.dis, y, x, w, h, at_dis);
    if (ref_filtered != nullptr && f == 0) {
      ref_filtered[static_cast<std::size_t>(y) * w + x] = r;
      dis_filtered[static_cast<std::size_t>(y) * w + x] = d;
    }
    add_sample(e, r, d);
  }
  rows[static_cast<std::size_t>(f) * h + y] = e;
}

__global__ void frame_energy_kernel(const LumaBatch batch, const Energy* __restrict__ rows, Energy* __restrict__ frames) {
  const int f = blockIdx.x;
  Energy total;
  for (int y = 0; y < batch.h; ++y) {
    total.sig += rows[static_cast<std::size_t>(f) * batch.h + y].sig;
    total.noise += rows[static_cast<std::size_t>(f) * batch.h + y].noise;
  }
  frames[f] = total;
}

}  // namespace

cudaError_t row_energy(const LumaBatch& batch, Energy* rows, float* ref_filtered, float* dis_filtered, cudaStream_t stream) {
  if (!cuda::well_formed(batch)) return cudaErrorInvalidValue;
  if (!cuda::has_work(batch)) return cudaSuccess;
  const dim3 grid(static_cast<unsigned>((batch.h + kThreads - 1) / kThreads), static_cast<unsigned>(batch.count));
  if (batch.bitdepth == 8)
    row_energy_kernel<unsigned char><<<grid, kThreads, 0, stream>>>(batch, rows, ref_filtered, dis_filtered);
  else row_energy_kernel<unsigned short><<<grid, kThreads, 0, stream>>>(batch, rows, ref_filtered, dis_filtered);
  return cudaGetLastError();
}

cudaError_t frame_energy(const LumaBatch& batch, const Energy* rows, Energy* frames, cudaStream_t stream) {
  if (!cuda::well_formed(batch)) return cudaErrorInvalidValue;
  if (!cuda::has_work(batch)) return cudaSuccess;
  frame_energy_kernel<<<batch.count, 1, 0, stream>>>(batch, rows, frames);
  return cudaGetLastError();
}

}  // namespace twinproof::float_ansnr::kernels
