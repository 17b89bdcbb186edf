// psnr's kernels. Every value is an exact integer: |e| <= 65535, so e * e fits 32 bits unsigned,
// and 64-bit sums of them cannot wrap below 2^32 samples a plane. Integer addition is
// associative, so the order of the sums (threads, warps, blocks, atomics) changes no bit.
//
// plane_sse reads each plane as one flat run of samples where its rows are back to back (every
// luma plane, and chroma wherever libvmaf reads the whole row): 16-byte loads of both pictures, 8
// a thread in flight, and at 8 bits the absolute differences of 4 bytes (vabsdiffu4) squared and
// added by one dp4a. The run's first and last 16 bytes may hold samples of the plane before or
// after, so those two vectors are read sample by sample. Planes read narrower than their rows,
// and pairs whose pictures are not equally aligned, take a plain sample-by-sample path.
#include "extractors/psnr/kernels.hpp"

namespace twinproof::psnr::kernels {
namespace {

constexpr int kThreads = 256;
constexpr int kVectorsPerThread = 8;  // 16-byte loads of each picture a thread keeps in flight
constexpr unsigned long long kVectorsPerBlock = kThreads * kVectorsPerThread;
constexpr int kSamplesPerThread = 16;  // the sample-by-sample path

struct Launch {
  PlanePair plane[kMaxPlanes];
  unsigned long long first_block[kMaxPlanes + 1];  // plane i's blocks: [first_block[i], first_block[i + 1])
  bool flat[kMaxPlanes];                           // the vector path
  int count;
};

template <int Bytes>
__device__ unsigned long long squared_error(const unsigned char* r, const unsigned char* d) {
  int e;
  if constexpr (Bytes == 1) e = static_cast<int>(*r) - static_cast<int>(*d);
  else
    e = static_cast<int>(*reinterpret_cast<const unsigned short*>(r)) -
        static_cast<int>(*reinterpret_cast<const unsigned short*>(d));
  const unsigned m = static_cast<unsigned>(e < 0 ? -e : e);
  return m * m;
}

// Sum of squared errors of the samples of one 16-byte vector that lie in [lo, hi) (byte addresses).
template <int Bytes>
__device__ unsigned long long partial_vector(const unsigned char* r, const unsigned char* d, const unsigned char* lo,
                                             const unsigned char* hi) {
  unsigned long long s = 0;
  for (int b = 0; b < 16; b += Bytes)
    if (r + b >= lo && r + b < hi) s += squared_error<Bytes>(r + b, d + b);
  return s;
}

__device__ unsigned long long full_vector(const uint4 r, const uint4 d, unsigned& acc8, unsigned long long s, int bytes) {
  const unsigned rw[4] = {r.x, r.y, r.z, r.w}, dw[4] = {d.x, d.y, d.z, d.w};
  if (bytes == 1) {
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const unsigned e = __vabsdiffu4(rw[k], dw[k]);
      acc8 = __dp4a(e, e, acc8);  // each call adds at most 4 * 255^2
    }
    return s;
  }
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const unsigned e = __vabsdiffu2(rw[k], dw[k]);
    const unsigned lo = e & 0xffffu, hi = e >> 16;
    s += static_cast<unsigned long long>(lo * lo) + static_cast<unsigned long long>(hi * hi);
  }
  return s;
}

template <int Bytes>
__device__ unsigned long long flat_chunk(const PlanePair& p, unsigned long long chunk) {
  const auto* r0 = static_cast<const unsigned char*>(p.ref);
  const auto* d0 = static_cast<const unsigned char*>(p.dist);
  const unsigned long long n = static_cast<unsigned long long>(p.w) * p.h * Bytes;
  const unsigned long long skew = reinterpret_cast<unsigned long long>(r0) & 15;  // the same for d0 (checked by the launcher)
  const unsigned long long vectors = (skew + n + 15) / 16;
  const unsigned char* r_base = r0 - skew;  // vector v covers [r_base + 16 v, r_base + 16 v + 16)
  const unsigned char* d_base = d0 - skew;
  unsigned acc8 = 0;  // 8-bit squares: at most 8 vectors * 16 * 255^2 a thread, far below 2^32
  unsigned long long s = 0;
  const unsigned long long first = chunk * kVectorsPerBlock + threadIdx.x;
  uint4 rv[kVectorsPerThread], dv[kVectorsPerThread];
#pragma unroll
  for (int i = 0; i < kVectorsPerThread; ++i) {
    const unsigned long long v = first + static_cast<unsigned long long>(i) * kThreads;
    const bool whole = v < vectors && (v > 0 || skew == 0) && 16 * (v + 1) <= skew + n;
    rv[i] = whole ? __ldg(reinterpret_cast<const uint4*>(r_base) + v) : make_uint4(0, 0, 0, 0);
    dv[i] = whole ? __ldg(reinterpret_cast<const uint4*>(d_base) + v) : make_uint4(0, 0, 0, 0);
    if (!whole && v < vectors) s += partial_vector<Bytes>(r_base + 16 * v, d_base + 16 * v, r0, r0 + n);
  }
#pragma unroll
  for (int i = 0; i < kVectorsPerThread; ++i) s = full_vector(rv[i], dv[i], acc8, s, Bytes);
  return s + acc8;
}

template <int Bytes>
__device__ unsigned long long pitched_chunk(const PlanePair& p, unsigned long long chunk) {
  const auto* r0 = static_cast<const unsigned char*>(p.ref);
  const auto* d0 = static_cast<const unsigned char*>(p.dist);
  const unsigned long long n = static_cast<unsigned long long>(p.w) * p.h;
  unsigned long long s = 0;
  for (int i = 0; i < kSamplesPerThread; ++i) {
    const unsigned long long k = (chunk * kSamplesPerThread + i) * kThreads + threadIdx.x;
    if (k >= n) break;
    const unsigned long long y = k / static_cast<unsigned>(p.w), x = k - y * static_cast<unsigned>(p.w);
    const unsigned long long at = (y * static_cast<unsigned>(p.pitch) + x) * Bytes;
    s += squared_error<Bytes>(r0 + at, d0 + at);
  }
  return s;
}

template <int Bytes>
__global__ void __launch_bounds__(kThreads) plane_sse_kernel(const Launch launch, unsigned long long* __restrict__ totals) {
  __shared__ unsigned long long warp_sums[kThreads / 32];
  int i = 0;
  while (i + 1 < launch.count && blockIdx.x >= launch.first_block[i + 1]) ++i;
  const unsigned long long chunk = blockIdx.x - launch.first_block[i];
  unsigned long long s =
      launch.flat[i] ? flat_chunk<Bytes>(launch.plane[i], chunk) : pitched_chunk<Bytes>(launch.plane[i], chunk);
  for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(0xffffffffu, s, offset);
  if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long block = 0;
    for (int w = 0; w < kThreads / 32; ++w) block += warp_sums[w];
    if (block != 0) atomicAdd(totals + i, block);
  }
}

template <class Sample>
__global__ void row_sse_kernel(const Sample* __restrict__ ref, const Sample* __restrict__ dist, int w, int pitch,
                               unsigned long long* __restrict__ rows_out) {
  __shared__ unsigned long long partial[kThreads];
  const int y = blockIdx.x;
  const Sample* r = ref + static_cast<std::size_t>(y) * pitch;
  const Sample* d = dist + static_cast<std::size_t>(y) * pitch;
  unsigned long long s = 0;
  for (int x = threadIdx.x; x < w; x += kThreads) {
    const int e = static_cast<int>(r[x]) - static_cast<int>(d[x]);
    const unsigned magnitude = static_cast<unsigned>(e < 0 ? -e : e);
    s += static_cast<unsigned long long>(magnitude * magnitude);
  }
  partial[threadIdx.x] = s;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) rows_out[y] = partial[0];
}

}  // namespace

cudaError_t plane_sse(const PlaneBatch& batch, int bytes, unsigned long long* totals, cudaStream_t stream) {
  if (batch.count < 0 || batch.count > kMaxPlanes || (bytes != 1 && bytes != 2)) return cudaErrorInvalidValue;
  Launch launch{};
  launch.count = batch.count;
  unsigned long long blocks = 0;
  for (int i = 0; i < batch.count; ++i) {
    const PlanePair& p = batch.plane[i];
    launch.plane[i] = p;
    launch.first_block[i] = blocks;
    const unsigned long long samples = static_cast<unsigned long long>(p.w) * p.h;
    const auto skew = [](const void* a) { return reinterpret_cast<unsigned long long>(a) & 15; };
    launch.flat[i] = p.pitch == p.w && skew(p.ref) == skew(p.dist);
    if (samples == 0) continue;
    if (launch.flat[i]) {
      const unsigned long long vectors = (skew(p.ref) + samples * bytes + 15) / 16;
      blocks += (vectors + kVectorsPerBlock - 1) / kVectorsPerBlock;
    } else {
      const unsigned long long per_block = static_cast<unsigned long long>(kThreads) * kSamplesPerThread;
      blocks += (samples + per_block - 1) / per_block;
    }
  }
  launch.first_block[batch.count] = blocks;
  if (blocks == 0) return cudaSuccess;
  if (blocks > 0x7fffffffull) return cudaErrorInvalidValue;
  const auto grid = static_cast<unsigned>(blocks);
  if (bytes == 1) plane_sse_kernel<1><<<grid, kThreads, 0, stream>>>(launch, totals);
  else plane_sse_kernel<2><<<grid, kThreads, 0, stream>>>(launch, totals);
  return cudaGetLastError();
}

cudaError_t row_sse(const void* ref, const void* dist, int w, int h, int pitch, int bytes, unsigned long long* rows_out,
                    cudaStream_t stream) {
  if (h <= 0) return cudaSuccess;
  if (bytes == 1)
    row_sse_kernel<<<h, kThreads, 0, stream>>>(static_cast<const unsigned char*>(ref), static_cast<const unsigned char*>(dist), w,
                                               pitch, rows_out);
  else
    row_sse_kernel<<<h, kThreads, 0, stream>>>(static_cast<const unsigned short*>(ref), static_cast<const unsigned short*>(dist),
                                               w, pitch, rows_out);
  return cudaGetLastError();
}

}  // namespace twinproof::psnr::kernels
