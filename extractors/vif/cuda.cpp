// cuda: vif's exact CUDA twin. Frame pairs go to the device in batches of up to 8, two batches in
// flight (extractors/cuda/pair_batches.hpp); only the luma plane travels. Per batch and scale, one
// launch makes every frame's pictures of the scale from the scale before (extractors/vif/vif.cu,
// subsample) and one adds every pixel's statistics into the frame's four 64-bit sums
// (statistics), in kernels::kBins copies that the host adds. The pictures of scales 1 to 3 stay on
// the device, one set per frame of a batch: the compute stream runs one batch after the other.
// With stages captured, frames go one a batch, and each row's sums and the pictures of scales 1
// to 3 come back too.
#include <algorithm>
#include <array>
#include <vector>

#include "extractors/cuda/pair_batches.hpp"
#include "extractors/vif/frame_loop.hpp"
#include "extractors/vif/kernels.hpp"

namespace twinproof::vif {
namespace {

using Batches = cuda::PairBatches<VifEngine>;
static_assert(Batches::kMaxBatch <= kernels::kMaxFrames);
constexpr int kSumsPerFrame = kScales * kernels::kBins * 4;  // [scale][bin][num_log, den_log, num_non_log, den_non_log]

class CudaVifEngine final : public Batches {
 public:
  explicit CudaVifEngine(const ExtractorContext& ctx) : Batches(ctx) {}

  void init(const Format& fmt, const EngineParams& params) override {
    cuda::use_device(context().device);
    params_ = params;
    const bool capture = context().capture_stages;
    const int batch = capture ? 1 : kMaxBatch;  // capture inspects every frame
    if (log2t_.size() == 0) {
      log2t_.resize(65536 + 2);
      TP_CUDA(cudaMemcpy(log2t_.get(), log2_table(), log2t_.bytes(), cudaMemcpyHostToDevice));
    }
    std::size_t rows = 0;
    for (int s = 0; s < kScales; ++s) {
      const PlaneSize ps = scale_size(fmt, s);
      row_offset_[s] = rows;
      rows += static_cast<std::size_t>(ps.h);
      picture_elems_[s] = s == 0 ? 0 : static_cast<std::size_t>(ps.w) * ps.h;
      ref_[s].resize(picture_elems_[s] * batch);
      dist_[s].resize(picture_elems_[s] * batch);
      ref_host_[s].assign(capture ? picture_elems_[s] : 0, 0);
      dist_host_[s].assign(capture ? picture_elems_[s] : 0, 0);
      rows_[s].assign(capture ? static_cast<std::size_t>(ps.h) : 0, ScaleSums{});
    }
    for (int k = 0; k < kInFlight; ++k) {
      sums_[k].resize(static_cast<std::size_t>(kSumsPerFrame) * batch);
      sums_host_[k] = cuda::PinnedBuffer<unsigned long long>(cuda::HostUse::kCopies);
      sums_host_[k].resize(static_cast<std::size_t>(kSumsPerFrame) * batch);
    }
    rows_dev_.resize(capture ? 4 * rows : 0);
    rows_host_ = cuda::PinnedBuffer<unsigned long long>(cuda::HostUse::kCopies);
    rows_host_.resize(capture ? 4 * rows : 0);
    for (auto* pics : {&pictures_host_ref_, &pictures_host_dist_}) {
      *pics = cuda::PinnedBuffer<std::uint16_t>(cuda::HostUse::kCopies);
      std::size_t n = 0;
      for (int s = 1; s < kScales; ++s) n += capture ? picture_elems_[s] : 0;
      pics->resize(n);
    }
    last_ = {};
    have_frame_ = false;
    setup(fmt, 1, batch);
  }

  std::optional<Probe> inspect(std::string_view stage) const override {
    if (!context().capture_stages || !have_frame_) return std::nullopt;
    if (stage == "scale_pictures") return scale_pictures_probe(ref_host_, dist_host_, format());
    if (stage == "row_sums") return row_sums_probe(rows_, params_.first_scale);
    if (stage == "scale_sums") return scale_sums_probe(last_, params_.first_scale);
    return std::nullopt;
  }

 private:
  void compute(int slot, int n, cudaStream_t s) override {
    const Format& fmt = format();
    const bool capture = context().capture_stages;
    TP_CUDA(cudaMemsetAsync(sums_[slot].get(), 0, sizeof(unsigned long long) * kSumsPerFrame * n, s));
    if (capture) TP_CUDA(cudaMemsetAsync(rows_dev_.get(), 0, rows_dev_.bytes(), s));
    kernels::Pictures in;
    in.frames = n;
    in.pitch = stored_plane_size(fmt, 0).w;
    for (int f = 0; f < n; ++f) {
      in.ref[f] = frame_plane(0, slot, f, 0);
      in.dist[f] = frame_plane(1, slot, f, 0);
    }
    for (int sc = 0; sc < kScales; ++sc) {
      const PlaneSize ps = scale_size(fmt, sc);
      if (sc > 0) {
        // This scale's pictures from the previous scale's (read as `in` describes them).
        const PlaneSize prev = scale_size(fmt, sc - 1);
        std::uint16_t* ref_out[kernels::kMaxFrames] = {};
        std::uint16_t* dist_out[kernels::kMaxFrames] = {};
        for (int f = 0; f < n; ++f) {
          ref_out[f] = ref_[sc].get() + picture_elems_[sc] * f;
          dist_out[f] = dist_[sc].get() + picture_elems_[sc] * f;
        }
        TP_CUDA(kernels::subsample(in, prev.w, prev.h, sc, fmt.bitdepth, fmt.bitdepth > 8, ref_out, dist_out, s));
        in.pitch = ps.w;
        for (int f = 0; f < n; ++f) {
          in.ref[f] = ref_out[f];
          in.dist[f] = dist_out[f];
        }
      }
      if (sc < params_.first_scale) continue;
      const kernels::Sums out{sums_[slot].get() + sc * kernels::kBins * 4, kSumsPerFrame,
                              capture ? rows_dev_.get() + 4 * row_offset_[sc] : nullptr};
      TP_CUDA(kernels::statistics(in, ps.w, ps.h, sc, fmt.bitdepth, fmt.bitdepth > 8, log2t_.get(), params_.gain_limit, out, s));
    }
  }

  void read_back(int slot, int n, cudaStream_t s) override {
    TP_CUDA(cudaMemcpyAsync(sums_host_[slot].get(), sums_[slot].get(), sizeof(unsigned long long) * kSumsPerFrame * n,
                            cudaMemcpyDeviceToHost, s));
    if (!context().capture_stages) return;
    TP_CUDA(cudaMemcpyAsync(rows_host_.get(), rows_dev_.get(), rows_dev_.bytes(), cudaMemcpyDeviceToHost, s));
    std::size_t at = 0;
    for (int sc = 1; sc < kScales; ++sc) {
      const std::size_t bytes = picture_elems_[sc] * sizeof(std::uint16_t);
      TP_CUDA(cudaMemcpyAsync(pictures_host_ref_.get() + at, ref_[sc].get(), bytes, cudaMemcpyDeviceToHost, s));
      TP_CUDA(cudaMemcpyAsync(pictures_host_dist_.get() + at, dist_[sc].get(), bytes, cudaMemcpyDeviceToHost, s));
      at += picture_elems_[sc];
    }
  }

  FrameSums result(int slot, int f) override {
    FrameSums sums{};
    const unsigned long long* frame = sums_host_[slot].get() + static_cast<std::size_t>(kSumsPerFrame) * f;
    for (int sc = params_.first_scale; sc < kScales; ++sc)
      for (int b = 0; b < kernels::kBins; ++b) sums.scale[sc] += bin_sums(frame + (sc * kernels::kBins + b) * 4);
    if (context().capture_stages) {
      std::size_t at = 0;
      for (int sc = 1; sc < kScales; ++sc) {
        std::copy_n(pictures_host_ref_.get() + at, picture_elems_[sc], ref_host_[sc].begin());
        std::copy_n(pictures_host_dist_.get() + at, picture_elems_[sc], dist_host_[sc].begin());
        at += picture_elems_[sc];
      }
      for (int sc = 0; sc < kScales; ++sc)
        for (std::size_t y = 0; y < rows_[sc].size(); ++y) rows_[sc][y] = bin_sums(rows_host_.get() + 4 * (row_offset_[sc] + y));
      last_ = sums;
      have_frame_ = true;
    }
    return sums;
  }

  // Four sums as the kernels add them: 64-bit two's complement.
  static ScaleSums bin_sums(const unsigned long long* v) {
    return {static_cast<std::int64_t>(v[0]), static_cast<std::int64_t>(v[1]), static_cast<std::int64_t>(v[2]),
            static_cast<std::int64_t>(v[3])};
  }

  EngineParams params_;
  cuda::DeviceBuffer<std::uint16_t> log2t_;           // log2_table(), once per engine
  std::array<std::size_t, kScales> picture_elems_{};  // samples of one picture of each scale (0 for scale 0)
  std::array<std::size_t, kScales> row_offset_{};
  std::array<cuda::DeviceBuffer<std::uint16_t>, kScales> ref_, dist_;  // scales 1..3, frame f of a batch at f * picture_elems_
  cuda::DeviceBuffer<unsigned long long> sums_[kInFlight];
  cuda::PinnedBuffer<unsigned long long> sums_host_[kInFlight];
  // Stages (captured only): each row's sums and the pictures of the latest frame.
  cuda::DeviceBuffer<unsigned long long> rows_dev_;
  cuda::PinnedBuffer<unsigned long long> rows_host_{cuda::HostUse::kCopies};
  cuda::PinnedBuffer<std::uint16_t> pictures_host_ref_{cuda::HostUse::kCopies}, pictures_host_dist_{cuda::HostUse::kCopies};
  std::array<std::vector<std::uint16_t>, kScales> ref_host_, dist_host_;
  std::array<std::vector<ScaleSums>, kScales> rows_;
  FrameSums last_{};
  bool have_frame_ = false;
};

}  // namespace
std::unique_ptr<Extractor> make_cuda(const ExtractorContext& ctx) { return with_engine<VifExtractor, CudaVifEngine>(ctx); }

}  // namespace twinproof::vif
