// Integer motion's fused kernel. Each warp owns a task: kRows output rows of one frame pair over a
// run of column strips. In a strip, lane l holds N adjacent columns; it reads them with one
// vector load per row and frame, turns the samples into differences with a few SWAR operations,
// runs the vertical pass down a five-row window kept in registers, takes the horizontal pass's
// two halo columns on each side from its neighbours by shuffles, and adds |X| of its outputs into
// its share of each row. At the end of the task one warp reduction per row gives the row's sum;
// the task adds their 64-bit sum into the pair's total with one atomic (and each row's sum into
// the row sums, when they are asked for). The warp that finishes a pair last (a ticket counter)
// writes the total (and the row sums) where the host reads them and zeroes the device sums and
// the ticket for the next launch: no memset and no copy-back per batch.
//
// Every value is the contract's exact integer (extractors/motion/arithmetic.hpp):
//  - 8 bit: the differences and the vertical pass run on the FP32 pipe, beside the integer work
//    of the horizontal pass. Every value there is a multiple of 2^-8 below 2^16 in magnitude, so
//    each half and single precision operation is exact, and the pass's floor is one addition
//    rounded toward minus infinity (vertical_fp32);
//  - 10 and 12 bit: differences are formed two to a 32-bit word with a bias B per lane (p - c + B
//    stays in [1, 2B - 1], so no lane borrows from the next); the vertical pass is linear and its
//    taps sum to 65536, so it sees the bias as 65536 * B and takes it back in its rounding constant;
//  - the taps are symmetric, so a pass is g0*(x0+x4) + g1*(x1+x3) + g2*x2: three products;
//  - 10- and 12-bit vertical sums fit int32 (|a| <= 65536 * 4095 < 2^31, with the bias < 2^29);
//    16-bit vertical sums and every horizontal sum (|b| up to 65535 * 65536 + 2^15, one bit more
//    than int32 holds) are rounded by round16, which halves the sum first (g1 and g2 are even);
//  - row sums are unsigned 32-bit sums and the total a 64-bit sum: integer sums, any order.
#include <algorithm>
#include <type_traits>

#include <cuda_fp16.h>

#include "extractors/motion/arithmetic.hpp"
#include "extractors/motion/kernels.hpp"

namespace twinproof::motion::kernels {
namespace {

constexpr int kWarps = 4;
constexpr int kThreads = 32 * kWarps;
constexpr int kRows = 11;          // output rows of a task (11 and 16 measured: PERFORMANCE.md)
constexpr int kLoads = kRows + 4;  // rows read by a task: two above and two below
constexpr int kGroup = 5;          // rows loaded together, one group ahead of the one computed
static_assert(kLoads % kGroup == 0 && kRows <= 32);
constexpr int kMinBlocks = 5;  // resident blocks asked of the register allocator: 96 registers
constexpr int kColumns = 4;    // columns per lane (PERFORMANCE.md has the shapes measured)

constexpr int g0 = 3571, g1 = 16004, g2 = 26386;

template <int Bitdepth>
struct Depth {
  using Sample = std::conditional_t<Bitdepth == 8, std::uint8_t, std::uint16_t>;
};

// floor((g (x) x + 2^15) / 2^16) for five values |x| <= 65535, in int32 although the sum b
// reaches 65535 * 65536 + 2^15 > 2^31. g1 and g2 are even, so b = f + 2e with f = g0*(x0+x4) + 2^15
// and e = (g1/2)*(x1+x3) + (g2/2)*x2; writing f = 2m + r (r in {0, 1}),
// floor(b / 2^16) = floor((m + e + r/2) / 2^15) = floor((m + e) / 2^15), since m + e is an integer
// and r/2 cannot carry it past a multiple of 2^15. |m + e| <= 2147467264 < 2^31.
//
// The inputs may carry a bias (the 8-bit vertical pass hands over its values' float bits). It is
// never taken off a value: the sums run modulo 2^32, f's constant takes back what the bias adds to
// f, and, since f is halved, twice what it adds to e (kept small by the choice of kMagic, so that
// f still fits before the halving). Each sum then lands on its true value, which fits in int32.
template <unsigned Bias = 0>
__device__ __forceinline__ int round16(int x0, int x1, int x2, int x3, int x4) {
  constexpr unsigned e_bias = (g1 + g2 / 2) * Bias;  // what the biases add to e, modulo 2^32
  constexpr long long e_bias_signed = static_cast<int>(e_bias);
  static_assert(
      static_cast<long long>(g0) * 2 * 65535 + 32768 + 2 * (e_bias_signed < 0 ? -e_bias_signed : e_bias_signed) < 0x7fffffffLL,
      "f minus twice e's bias must fit in int32");
  constexpr unsigned f_add = 32768u - 2u * g0 * Bias - 2u * e_bias;
  const auto u = [](int x) { return static_cast<unsigned>(x); };
  const int f = static_cast<int>(g0 * (u(x0) + u(x4)) + f_add);  // g0*(x0+x4) + 2^15 - 2*e_bias
  const int m = f >> 1;                                          // floor(f_true / 2) - e_bias
  return static_cast<int>(u(m) + (g1 / 2) * (u(x1) + u(x3)) + (g2 / 2) * u(x2)) >> 15;
}
static_assert(g1 % 2 == 0 && g2 % 2 == 0);
static_assert((static_cast<long long>(g0) * 2 * 65535 + 32768) / 2 + (g1 / 2) * 2LL * 65535 + (g2 / 2) * 65535LL <= 0x7fffffffLL);
static_assert((-static_cast<long long>(g0) * 2 * 65535 + 32768 - 1) / 2 - (g1 / 2) * 2LL * 65535 - (g2 / 2) * 65535LL >=
              -0x80000000LL);

// 8 bit, on the FP32 pipe, with the taps scaled by 2^-8 (exact: g < 2^15). d = p - c is an
// integer in [-255, 255], so every product and partial sum below is a multiple of 2^-8 of
// magnitude at most 65280.5: 24 significant bits, exact in binary32, and no operation rounds (so
// their order is free). floor(x) of the last one is an addition onto kMagic rounded toward minus
// infinity, where floats are spaced 1 apart: the result's bits are kMagicBits + floor(x). No fused
// multiply-add: the device contract forbids them in every kernel, exact or not.
// kMagic is 1.5 * 2^23 moved down by 47262, which leaves round16<kMagicBits> a bias of only 17402
// to take back (see there); any value within [2^23 + 65280, 2^24 - 65280] floors exactly.
constexpr int kMagicInt = (3 << 22) - 47262;
constexpr float kMagic = static_cast<float>(kMagicInt);
constexpr unsigned kMagicBits = 0x4B000000u + static_cast<unsigned>(kMagicInt - (1 << 23));  // exponent 23, then the fraction
static_assert(kMagicInt - 65280 >= (1 << 23) && kMagicInt + 65280 < (1 << 24));
static_assert(static_cast<long long>(g0 + g1 + g2 + g1 + g0) * 255 + 128 < (1 << 24));  // 2^8 * |x| < 2^24
__device__ __forceinline__ int vertical_fp32(float d0, float d1, float d2, float d3, float d4) {
  constexpr float t0 = g0 / 256.0f, t1 = g1 / 256.0f, t2 = g2 / 256.0f;
  float x = __fmul_rn(t2, d2);
  x = __fadd_rn(x, __fmul_rn(t0, __fadd_rn(d0, d4)));
  x = __fadd_rn(x, __fmul_rn(t1, __fadd_rn(d1, d3)));
  x = __fadd_rn(x, 0.5f);  // + 128 / 2^8
  return __float_as_int(__fadd_rd(x, kMagic));
}

// What the vertical pass hands the horizontal pass: its values plus this bias.
template <int Bitdepth>
constexpr unsigned kVerticalBias = Bitdepth == 8 ? kMagicBits : 0u;

// The differences a lane keeps for the vertical pass: floats at 8 bit, biased integers above.
template <int Bitdepth>
using Diff = std::conditional_t<Bitdepth == 8, float, int>;

// The vertical pass of five differences at this depth.
template <int Bitdepth>
__device__ __forceinline__ int vertical(Diff<Bitdepth> d0, Diff<Bitdepth> d1, Diff<Bitdepth> d2, Diff<Bitdepth> d3,
                                        Diff<Bitdepth> d4) {
  if constexpr (Bitdepth == 8) {
    return vertical_fp32(d0, d1, d2, d3, d4);
  } else if constexpr (Bitdepth == 16) {
    return round16(d0, d1, d2, d3, d4);  // no bias: 16-bit differences fill a 16-bit lane
  } else {
    constexpr int bias = 4096;  // of the packed differences (see differences())
    constexpr int round = 1 << (Bitdepth - 1), shift = Bitdepth;
    constexpr int add = round - (bias << 16);  // the taps sum to 65536: the bias adds 65536 * bias
    return (g0 * (d0 + d4) + g1 * (d1 + d3) + g2 * d2 + add) >> shift;
  }
}

// A lane's N samples of one row of one frame, as 32-bit words.
template <int Bitdepth, int N>
struct Words {
  static constexpr int kCount = N * sizeof(typename Depth<Bitdepth>::Sample) / 4;
  unsigned w[kCount];
};

template <int Bitdepth, int N>
__device__ __forceinline__ void load_vector(const typename Depth<Bitdepth>::Sample* at, Words<Bitdepth, N>& out) {
  constexpr int n = Words<Bitdepth, N>::kCount;
  if constexpr (n == 1) {
    out.w[0] = __ldg(reinterpret_cast<const unsigned*>(at));
  } else if constexpr (n == 2) {
    const uint2 v = __ldg(reinterpret_cast<const uint2*>(at));
    out.w[0] = v.x, out.w[1] = v.y;
  } else {
    static_assert(n == 4);
    const uint4 v = __ldg(reinterpret_cast<const uint4*>(at));
    out.w[0] = v.x, out.w[1] = v.y, out.w[2] = v.z, out.w[3] = v.w;
  }
}

// Sample by sample, for pictures whose rows do not start on a vector boundary.
template <int Bitdepth, int N>
__device__ __forceinline__ void load_samples(const typename Depth<Bitdepth>::Sample* row, const int (&col)[N],
                                             Words<Bitdepth, N>& out) {
  constexpr int per_word = 4 / sizeof(typename Depth<Bitdepth>::Sample);
#pragma unroll
  for (int k = 0; k < Words<Bitdepth, N>::kCount; ++k) out.w[k] = 0;
#pragma unroll
  for (int k = 0; k < N; ++k)
    out.w[k / per_word] |= static_cast<unsigned>(__ldg(row + col[k])) << (32 / per_word * (k % per_word));
}

// At the picture's left and right edges a lane reads the nearest vector inside the row and puts
// each column's mirrored sample in place with byte permutes; sel[q] picks output word q's bytes
// out of the (at most two) words read.
template <int Bitdepth, int N>
__device__ __forceinline__ void mirror_in_place(Words<Bitdepth, N>& x, const unsigned (&sel)[Words<Bitdepth, N>::kCount]) {
  constexpr int n = Words<Bitdepth, N>::kCount;
  static_assert(n <= 2, "a permute reaches two words");
  const unsigned lo = x.w[0], hi = n == 2 ? x.w[n - 1] : 0u;
#pragma unroll
  for (int q = 0; q < n; ++q) x.w[q] = __byte_perm(lo, hi, sel[q]);
}

// d[k] = P - C (earlier minus later), for the lane's N columns: exact floats at 8 bit, integers
// with a bias per 16-bit lane at 10 and 12 bit, plain integers at 16 bit.
template <int Bitdepth, int N>
__device__ __forceinline__ void differences(const Words<Bitdepth, N>& p, const Words<Bitdepth, N>& c, Diff<Bitdepth> (&d)[N]) {
#pragma unroll
  for (int k = 0; k < Words<Bitdepth, N>::kCount; ++k) {
    if constexpr (Bitdepth == 8) {
      // Each byte x goes under the half-precision bits 0x64, which read as 1024 + x; one
      // two-lane half subtraction gives two exact differences, widened to float.
      constexpr unsigned kHalf1024 = 0x64646464u;
      const auto half2_of = [](unsigned bits) { return *reinterpret_cast<const __half2*>(&bits); };
      const float2 lo = __half22float2(
          __hsub2(half2_of(__byte_perm(p.w[k], kHalf1024, 0x5140)), half2_of(__byte_perm(c.w[k], kHalf1024, 0x5140))));
      const float2 hi = __half22float2(
          __hsub2(half2_of(__byte_perm(p.w[k], kHalf1024, 0x7362)), half2_of(__byte_perm(c.w[k], kHalf1024, 0x7362))));
      d[4 * k] = lo.x, d[4 * k + 1] = lo.y, d[4 * k + 2] = hi.x, d[4 * k + 3] = hi.y;
    } else if constexpr (Bitdepth <= 12) {  // two 16-bit samples a word; bias 4096
      const unsigned both = p.w[k] - c.w[k] + 0x10001000u;
      d[2 * k] = static_cast<int>(both & 0xffffu);
      d[2 * k + 1] = static_cast<int>(both >> 16);
    } else {
      d[2 * k] = static_cast<int>(p.w[k] & 0xffffu) - static_cast<int>(c.w[k] & 0xffffu);
      d[2 * k + 1] = static_cast<int>(p.w[k] >> 16) - static_cast<int>(c.w[k] >> 16);
    }
  }
}

// How a strip's lanes read their columns: one vector a row (inner strips), one vector and a
// permute (strips at the picture's left or right edge), or sample by sample (unaligned rows).
enum class Cols { kInner, kEdge, kScalar };

// One strip of a task: vertical columns c0 .. c0 + 32N - 1, outputs c0 + 2 .. c0 + 31N + 1 (the
// first and last lanes' outer columns serve only as halo). Adds the lane's part of output row
// i0 + r into part[r].
template <int Bitdepth, int N, bool InnerRows, Cols Mode>
__device__ __forceinline__ void strip(const typename Depth<Bitdepth>::Sample* P, const typename Depth<Bitdepth>::Sample* C, int w,
                                      int h, int i0, int c0, int lane, unsigned (&part)[kRows]) {
  using W = Words<Bitdepth, N>;
  constexpr int bytes = sizeof(typename Depth<Bitdepth>::Sample);
  const int cb = c0 + N * lane;
  const int first = max(0, c0 + 2), end = min(w, c0 + 2 + 31 * N);
  unsigned take[N];
  int col[N];  // the column each of the lane's columns reads: mirrored at the edges
#pragma unroll
  for (int k = 0; k < N; ++k) {
    const int j = cb + k;
    take[k] = (j >= first && j < end) ? 1u : 0u;
    col[k] = (j < -2 || j > w + 1) ? 0 : mirror(j, w);  // columns outside the halo feed no output
  }
  const int src = Mode == Cols::kEdge ? min(max(cb, 0), w - N) : cb;  // the vector a lane reads
  unsigned sel[W::kCount] = {};
  if constexpr (Mode == Cols::kEdge) {
#pragma unroll
    for (int k = 0; k < N; ++k) {
      const int at = (cb + k < -2 || cb + k > w + 1) ? 0 : col[k] - src;  // sample index in the vector
      const int q = k * bytes / 4, shift = 4 * (k * bytes % 4);
#pragma unroll
      for (int b = 0; b < bytes; ++b) sel[q] |= static_cast<unsigned>(at * bytes + b) << (shift + 4 * b);
    }
  }
  W p[kLoads], c[kLoads];
  // Inner rows are consecutive and loaded in order, so a lane's vectors of the next row are w
  // samples past the last ones: one pointer step a frame and row, not a multiply and the adds of
  // a fresh 64-bit address.
  using Sample = typename Depth<Bitdepth>::Sample;
  const Sample* next_p = P + static_cast<unsigned>(InnerRows ? i0 - 2 : 0) * static_cast<unsigned>(w) + src;
  const Sample* next_c = C + (next_p - P);
  auto load = [&](int k) {
    if constexpr (InnerRows && Mode != Cols::kScalar) {
      load_vector<Bitdepth, N>(next_p, p[k]);
      load_vector<Bitdepth, N>(next_c, c[k]);
      next_p += w;
      next_c += w;
    } else {
      const int i = i0 - 2 + k;
      const int row = InnerRows ? i : mirror(min(i, h + 1), h);  // rows past the picture feed no output
      const unsigned at = static_cast<unsigned>(row) * static_cast<unsigned>(w);
      if constexpr (Mode == Cols::kScalar) {
        load_samples<Bitdepth, N>(P + at, col, p[k]);
        load_samples<Bitdepth, N>(C + at, col, c[k]);
      } else {
        load_vector<Bitdepth, N>(P + at + src, p[k]);
        load_vector<Bitdepth, N>(C + at + src, c[k]);
      }
    }
    if constexpr (Mode == Cols::kEdge) {
      mirror_in_place<Bitdepth, N>(p[k], sel);
      mirror_in_place<Bitdepth, N>(c[k], sel);
    }
  };
  // Vector loads run a group of rows ahead of the arithmetic; sample loads (2N a row) are issued
  // with their group only, or they would hold too many registers.
  constexpr bool ahead = Mode != Cols::kScalar;
  Diff<Bitdepth> d[kLoads][N];
  if constexpr (ahead) {
#pragma unroll
    for (int k = 0; k < kGroup; ++k) load(k);
  }
#pragma unroll
  for (int g = 0; g < kLoads / kGroup; ++g) {
#pragma unroll
    for (int k = 0; k < kGroup; ++k) {
      const int row = (ahead ? g + 1 : g) * kGroup + k;
      if (row < kLoads) load(row);
    }
#pragma unroll
    for (int k = g * kGroup; k < (g + 1) * kGroup; ++k) {
      differences<Bitdepth, N>(p[k], c[k], d[k]);
      if (k < 4) continue;
      const int r = k - 4;  // output row i0 + r reads rows i0 + r - 2 .. i0 + r + 2
      int v[N + 4];
#pragma unroll
      for (int q = 0; q < N; ++q) v[q + 2] = vertical<Bitdepth>(d[r][q], d[r + 1][q], d[r + 2][q], d[r + 3][q], d[r + 4][q]);
      v[0] = __shfl_up_sync(0xffffffffu, v[N], 1);
      v[1] = __shfl_up_sync(0xffffffffu, v[N + 1], 1);
      v[N + 2] = __shfl_down_sync(0xffffffffu, v[2], 1);
      v[N + 3] = __shfl_down_sync(0xffffffffu, v[3], 1);
      unsigned x[N];
#pragma unroll
      for (int q = 0; q < N; ++q)
        x[q] = static_cast<unsigned>(abs(round16<kVerticalBias<Bitdepth>>(v[q], v[q + 1], v[q + 2], v[q + 3], v[q + 4])));
      if constexpr (Mode == Cols::kInner && N == 4) {
        // An inner strip masks whole pairs of columns (lane 0's first two, lane 31's last two):
        // two masked adds a row instead of one a column.
        part[r] += take[0] * (x[0] + x[1]) + take[2] * (x[2] + x[3]);
      } else {
#pragma unroll
        for (int q = 0; q < N; ++q) part[r] += take[q] * x[q];
      }
    }
  }
}

template <int Bitdepth, bool Aligned>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    integer_motion_pair_kernel(const typename Depth<Bitdepth>::Sample* __restrict__ frames, std::size_t frame_elems,
                               const __grid_constant__ PairSlots slots, int w, int h, int strips, int groups, int tasks,
                               PairScratch out) {
  constexpr int N = kColumns;
  const int pair = blockIdx.y, lane = threadIdx.x & 31;
  const int task = blockIdx.x * kWarps + (threadIdx.x >> 5);
  if (task >= tasks) return;  // no block barrier below: a warp finishes on its own
  std::uint32_t* const rows = out.rows + static_cast<std::size_t>(pair) * h;
  const int i0 = task / groups * kRows, group = task % groups;
  const int s0 = static_cast<int>(static_cast<long long>(group) * strips / groups);  // groups of equal size, to one strip
  const int s1 = static_cast<int>(static_cast<long long>(group + 1) * strips / groups);
  const auto* P = frames + frame_elems * slots.earlier[pair];
  const auto* C = frames + frame_elems * slots.later[pair];
  const bool inner = i0 >= 2 && i0 + kRows + 2 <= h;
  unsigned part[kRows] = {};  // the lane's share of each output row, over the task's strips
  for (int s = s0; s < s1; ++s) {
    const int c0 = s * 31 * N - N;
    if constexpr (!Aligned) {
      if (inner) strip<Bitdepth, N, true, Cols::kScalar>(P, C, w, h, i0, c0, lane, part);
      else strip<Bitdepth, N, false, Cols::kScalar>(P, C, w, h, i0, c0, lane, part);
    } else if (c0 >= 0 && c0 + 32 * N <= w) {
      if (inner) strip<Bitdepth, N, true, Cols::kInner>(P, C, w, h, i0, c0, lane, part);
      else strip<Bitdepth, N, false, Cols::kInner>(P, C, w, h, i0, c0, lane, part);
    } else {
      if (inner) strip<Bitdepth, N, true, Cols::kEdge>(P, C, w, h, i0, c0, lane, part);
      else strip<Bitdepth, N, false, Cols::kEdge>(P, C, w, h, i0, c0, lane, part);
    }
  }
  // Row sums cannot wrap (w <= 65537, checked by pair_totals), so T is the plain 64-bit sum of
  // every |X|: each task adds its own into the pair's sum. Row sums are kept only when asked.
  const int rows_here = min(kRows, h - i0);  // the rows below the picture's last were computed from clamped rows
  unsigned long long task_sum = 0;
  unsigned mine = 0;  // lane r: the task's sum of row i0 + r
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const unsigned sum = __reduce_add_sync(0xffffffffu, part[r]);  // one warp-wide integer reduction (sm_80 and later)
    if (r < rows_here) task_sum += sum;
    if (lane == r) mine = sum;
  }
  if (out.rows_out != nullptr && lane < rows_here) atomicAdd(rows + i0 + lane, mine);
  if (lane == 0) atomicAdd(out.sums + pair, task_sum);

  // The warp that takes the pair's last ticket sees every task's sums: each lane fenced its
  // atomics before lane 0 took the warp's ticket.
  __threadfence();
  __syncwarp();
  unsigned ticket = 0;
  if (lane == 0) ticket = atomicAdd(out.tickets + pair, 1u);
  if (__shfl_sync(0xffffffffu, ticket, 0) != static_cast<unsigned>(tasks - 1)) return;
  __threadfence();
  if (lane == 0) {
    out.totals[pair] = __ldcg(out.sums + pair);
    out.sums[pair] = 0;
    out.tickets[pair] = 0;
  }
  if (out.rows_out != nullptr)  // stage capture: one pair a launch, speed is no concern
    for (int i = lane; i < h; i += 32) {
      out.rows_out[static_cast<std::size_t>(pair) * h + i] = __ldcg(rows + i);
      rows[i] = 0;
    }
}

// Strips per task: enough tasks to give every SM several waves of warps, and beyond that fewer,
// longer tasks (fewer atomics, reductions and per-strip set-ups).
int task_groups(int strips, int row_tiles, int pairs, int sms) {
  const long long one_each = static_cast<long long>(strips) * row_tiles * pairs;
  const long long wanted = 48LL * (sms > 0 ? sms : 1);
  const long long per_task = std::clamp<long long>(one_each / wanted, 1, strips);
  return static_cast<int>((strips + per_task - 1) / per_task);
}

template <int Bitdepth>
cudaError_t launch(const void* frames, std::size_t frame_elems, int w, int h, const PairSlots& slots, int pairs,
                   const PairScratch& out, int sms, cudaStream_t s) {
  constexpr int N = kColumns;
  const int strips = (w + N - 2 + 31 * N - 1) / (31 * N);  // strip s ends its outputs at 31N(s+1) - N + 2
  const int row_tiles = (h + kRows - 1) / kRows;
  const int groups = task_groups(strips, row_tiles, pairs, sms);
  const int tasks = row_tiles * groups;
  const dim3 grid((tasks + kWarps - 1) / kWarps, pairs);
  const auto* f = static_cast<const typename Depth<Bitdepth>::Sample*>(frames);
  if (w % N == 0)  // every row (and frame) starts on a vector boundary
    integer_motion_pair_kernel<Bitdepth, true><<<grid, kThreads, 0, s>>>(f, frame_elems, slots, w, h, strips, groups, tasks, out);
  else
    integer_motion_pair_kernel<Bitdepth, false>
        <<<grid, kThreads, 0, s>>>(f, frame_elems, slots, w, h, strips, groups, tasks, out);
  return cudaGetLastError();
}

}  // namespace

cudaError_t pair_totals(const void* frames, std::size_t frame_elems, int bitdepth, int w, int h, const PairSlots& slots,
                        int pairs, const PairScratch& scratch, int sms, cudaStream_t stream) {
  if (pairs <= 0) return cudaSuccess;
  if (pairs > kMaxPairs || w < kMinExtent || h < kMinExtent) return cudaErrorInvalidValue;
  // 32-bit sample offsets; row sums that cannot wrap (|X| <= 65535): kMaxDimension is far inside both.
  if (static_cast<unsigned long long>(w) * static_cast<unsigned long long>(h) > 0xffffffffull || w > 65537)
    return cudaErrorInvalidValue;
  switch (bitdepth) {
    case 8: return launch<8>(frames, frame_elems, w, h, slots, pairs, scratch, sms, stream);
    case 10: return launch<10>(frames, frame_elems, w, h, slots, pairs, scratch, sms, stream);
    case 12: return launch<12>(frames, frame_elems, w, h, slots, pairs, scratch, sms, stream);
    case 16: return launch<16>(frames, frame_elems, w, h, slots, pairs, scratch, sms, stream);
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace twinproof::motion::kernels
