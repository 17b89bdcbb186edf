// cuda: adm's exact CUDA twin. Frame pairs go to the device in batches of up to 8, two batches in
// flight (extractors/cuda/pair_batches.hpp); only the luma plane travels. Per batch and scale,
// three launches (extractors/adm/adm.cu): the wavelet of both pictures of every frame; per tile of the
// scored rect the decoupling, CSF and masking, each row's nine sums per tile; each row's total,
// shifted, into the frame's. Every scale's bands stay on the device, one set per frame of a batch
// (the compute stream runs one batch after the other). With stages captured, frames go one a
// batch, a fourth launch keeps the decoupled bands of the written rect, and the bands, decoupled
// bands and row sums come back too.
#include <algorithm>
#include <array>
#include <vector>

#include "extractors/adm/frame_loop.hpp"
#include "extractors/adm/kernels.hpp"
#include "extractors/cuda/pair_batches.hpp"

namespace twinproof::adm {
namespace {

using Batches = cuda::PairBatches<AdmEngine>;
static_assert(Batches::kMaxBatch <= kernels::kMaxFrames);
using kernels::kSums;  // per scale and frame: DLM h, v, d, AIM h, v, d, denominator h, v, d

class CudaAdmEngine final : public Batches {
 public:
  explicit CudaAdmEngine(const ExtractorContext& ctx) : Batches(ctx) {}

  void init(const Format& fmt, const EngineParams& params) override {
    cuda::use_device(context().device);
    params_ = params;
    const bool capture = context().capture_stages;
    const int batch = capture ? 1 : kMaxBatch;  // capture inspects every frame
    if (lookup_.size() == 0) {
      lookup_.resize(65537);
      TP_CUDA(cudaMemcpy(lookup_.get(), div_lookup(), lookup_.bytes(), cudaMemcpyHostToDevice));
    }
    std::size_t rows = 0, partials = 0;
    for (int s = 0; s < kScales; ++s) {
      const auto us = static_cast<std::size_t>(s);
      geometry_[us] = scale_geometry(fmt.width, fmt.height, s);
      shifts_[us] = sum_shifts(geometry_[us], s);
      const std::size_t elems = static_cast<std::size_t>(geometry_[us].w) * geometry_[us].h;
      bands_[us].resize(8 * elems * batch);
      partials = std::max(partials, kernels::partial_sums(geometry_[us], batch));
      // The reference leaves the decoupled bands 0 outside the written rect.
      decoupled_[us].resize(capture ? kernels::kDecoupledArrays * elems : 0);
      if (capture) TP_CUDA(cudaMemset(decoupled_[us].get(), 0, decoupled_[us].bytes()));
      row_offset_[us] = rows;
      rows += static_cast<std::size_t>(geometry_[us].scored.bottom - geometry_[us].scored.top);
      bands_host_[us].assign(capture ? 8 * elems : 0, 0);
      decoupled_host_[us].assign(capture ? kernels::kDecoupledArrays * elems : 0, 0);
      rows_[us].assign(capture ? static_cast<std::size_t>(geometry_[us].scored.bottom - geometry_[us].scored.top) : 0,
                       ScaleSums{});
    }
    for (int k = 0; k < kInFlight; ++k) {
      sums_[k].resize(static_cast<std::size_t>(kScales) * kSums * batch);
      sums_host_[k] = cuda::PinnedBuffer<unsigned long long>(cuda::HostUse::kCopies);
      sums_host_[k].resize(static_cast<std::size_t>(kScales) * kSums * batch);
    }
    partials_.resize(partials);  // one set: the compute stream runs the scales one after the other
    rows_dev_.resize(capture ? kSums * rows : 0);
    rows_host_ = cuda::PinnedBuffer<unsigned long long>(cuda::HostUse::kCopies);
    rows_host_.resize(capture ? kSums * rows : 0);
    last_ = {};
    have_frame_ = false;
    setup(fmt, 1, batch);
  }

  std::optional<Probe> inspect(std::string_view stage) const override {
    if (!context().capture_stages || !have_frame_) return std::nullopt;
    const int first = params_.skip_scale0 ? 1 : 0;
    if (stage == "dwt_bands" || stage == "decoupled_bands") {
      std::array<ScaleBands, kScales> b;
      for (int s = 0; s < kScales; ++s) {
        const auto us = static_cast<std::size_t>(s);
        const std::size_t elems = static_cast<std::size_t>(geometry_[us].w) * geometry_[us].h;
        auto part = [&](const std::vector<std::int32_t>& v, int k) {
          return std::vector<std::int32_t>(v.begin() + static_cast<std::ptrdiff_t>(k * elems),
                                           v.begin() + static_cast<std::ptrdiff_t>((k + 1) * elems));
        };
        for (int k = 0; k < 4; ++k) {
          b[us].ref[k] = part(bands_host_[us], k);
          b[us].dist[k] = part(bands_host_[us], 4 + k);
        }
        for (int k = 0; k < kAngles; ++k) {
          b[us].restored[k] = part(decoupled_host_[us], kernels::kRestored + k);
          b[us].impairment[k] = part(decoupled_host_[us], kernels::kImpairment + k);
        }
      }
      return stage == "dwt_bands" ? dwt_bands_probe(b, format(), first) : decoupled_bands_probe(b, format(), first);
    }
    if (stage == "row_sums") return row_sums_probe(rows_, first);
    if (stage == "scale_sums") return scale_sums_probe(last_, first);
    return std::nullopt;
  }

 private:
  kernels::Arrays arrays(const cuda::DeviceBuffer<std::int32_t>& buf, int s, int count, int n) const {
    const auto us = static_cast<std::size_t>(s);
    const std::size_t elems = static_cast<std::size_t>(geometry_[us].w) * geometry_[us].h;
    return {buf.get(), elems * count, elems, n};
  }

  void compute(int slot, int n, cudaStream_t stream) override {
    const Format& fmt = format();
    const bool capture = context().capture_stages;
    TP_CUDA(cudaMemsetAsync(sums_[slot].get(), 0, sums_[slot].bytes(), stream));
    if (capture) TP_CUDA(cudaMemsetAsync(rows_dev_.get(), 0, rows_dev_.bytes(), stream));
    kernels::Input in;
    in.frames = n;
    in.pitch = stored_plane_size(fmt, 0).w;
    in.sample_bytes = fmt.bytes_per_sample();
    for (int f = 0; f < n; ++f) {
      in.ref[f] = frame_plane(0, slot, f, 0);
      in.dist[f] = frame_plane(1, slot, f, 0);
    }
    int in_w = fmt.width, in_h = fmt.height;
    for (int s = 0; s < kScales; ++s) {
      const auto us = static_cast<std::size_t>(s);
      const ScaleGeometry& g = geometry_[us];
      const kernels::Arrays bands = arrays(bands_[us], s, 8, n);
      TP_CUDA(kernels::dwt(in, in_w, in_h, s, fmt.bitdepth, bands, stream));
      // The next scale reads this one's low-pass bands.
      for (int f = 0; f < n; ++f) {
        in.ref[f] = bands.base + bands.frame_stride * f;
        in.dist[f] = bands.base + bands.frame_stride * f + 4 * bands.elems;
      }
      in.pitch = g.w;
      in.sample_bytes = 4;
      in_w = g.w;
      in_h = g.h;
      if (s == 0 && params_.skip_scale0) continue;
      const kernels::ScaleParams p{
          g, shifts_[us], params_.weights[us], s, params_.skip_aim, params_.gain_limit, params_.cos_1deg_sq, lookup_.get()};
      if (capture) TP_CUDA(kernels::decoupled_bands(bands, arrays(decoupled_[us], s, kernels::kDecoupledArrays, n), p, stream));
      TP_CUDA(kernels::masked_sums(bands, p, partials_.get(), stream));
      TP_CUDA(kernels::row_sums(partials_.get(), p, n, sums_[slot].get() + static_cast<std::size_t>(s) * kSums, kScales * kSums,
                                capture ? rows_dev_.get() + kSums * row_offset_[us] : nullptr, stream));
    }
  }

  void read_back(int slot, int n, cudaStream_t stream) override {
    TP_CUDA(cudaMemcpyAsync(sums_host_[slot].get(), sums_[slot].get(), sizeof(unsigned long long) * kScales * kSums * n,
                            cudaMemcpyDeviceToHost, stream));
    if (!context().capture_stages) return;
    TP_CUDA(cudaMemcpyAsync(rows_host_.get(), rows_dev_.get(), rows_dev_.bytes(), cudaMemcpyDeviceToHost, stream));
    for (std::size_t s = 0; s < kScales; ++s) {
      TP_CUDA(cudaMemcpyAsync(bands_host_[s].data(), bands_[s].get(), bands_host_[s].size() * sizeof(std::int32_t),
                              cudaMemcpyDeviceToHost, stream));
      TP_CUDA(cudaMemcpyAsync(decoupled_host_[s].data(), decoupled_[s].get(), decoupled_host_[s].size() * sizeof(std::int32_t),
                              cudaMemcpyDeviceToHost, stream));
    }
  }

  FrameSums result(int slot, int f) override {
    FrameSums sums{};
    for (int s = params_.skip_scale0 ? 1 : 0; s < kScales; ++s)
      sums.scale[static_cast<std::size_t>(s)] =
          scale_sums(sums_host_[slot].get() + (static_cast<std::size_t>(f) * kScales + s) * kSums);
    if (context().capture_stages) {
      for (std::size_t s = 0; s < kScales; ++s)
        for (std::size_t y = 0; y < rows_[s].size(); ++y)
          rows_[s][y] = scale_sums(rows_host_.get() + kSums * (row_offset_[s] + y));
      last_ = sums;
      have_frame_ = true;
    }
    return sums;
  }

  // Nine sums as the kernels add them (64-bit two's complement).
  static ScaleSums scale_sums(const unsigned long long* v) {
    ScaleSums s;
    for (int k = 0; k < kAngles; ++k) {
      s.dlm[k] = static_cast<std::int64_t>(v[k]);
      s.aim[k] = static_cast<std::int64_t>(v[kAngles + k]);
      s.den[k] = v[2 * kAngles + k];
    }
    return s;
  }

  EngineParams params_;
  cuda::DeviceBuffer<std::int32_t> lookup_;  // div_lookup(), once per engine
  std::array<ScaleGeometry, kScales> geometry_{};
  std::array<SumShifts, kScales> shifts_{};
  std::array<cuda::DeviceBuffer<std::int32_t>, kScales> bands_;  // per scale, every frame of a batch
  cuda::DeviceBuffer<unsigned long long> partials_;              // masked_sums() to row_sums()
  std::array<std::size_t, kScales> row_offset_{};
  cuda::DeviceBuffer<unsigned long long> sums_[kInFlight];  // [frame][scale][9]
  cuda::PinnedBuffer<unsigned long long> sums_host_[kInFlight];
  // Stages (captured only): the latest frame's bands, decoupled bands and row sums.
  cuda::DeviceBuffer<unsigned long long> rows_dev_;
  cuda::PinnedBuffer<unsigned long long> rows_host_{cuda::HostUse::kCopies};
  std::array<cuda::DeviceBuffer<std::int32_t>, kScales> decoupled_;
  std::array<std::vector<std::int32_t>, kScales> bands_host_, decoupled_host_;
  std::array<std::vector<ScaleSums>, kScales> rows_;
  FrameSums last_{};
  bool have_frame_ = false;
};

}  // namespace
std::unique_ptr<Extractor> make_cuda(const ExtractorContext& ctx) { return with_engine<AdmExtractor, CudaAdmEngine>(ctx); }

}  // namespace twinproof::adm
