// float_moment's cpu-simd: the exact SIMD twin and the fast CPU path. Each row's four sums as
// integers of their units (arithmetic.hpp) by the SIMD kernel of the CPU's level
// (cpu_simd_isa.cpp; TWINPROOF_SIMD=scalar|avx2|avx512 lowers it), rows on a band of threads, the
// rows' integers added, each total scaled once. Integer sums are the same in any order, and while
// a total stays below 2^53 units every partial sum of the reference's double is exact too, so the
// frame's doubles are the reference's bit for bit. A frame whose squares reach that (a 16-bit
// picture of more than 2^21 samples, bright) is added the reference's way instead.
#include <cmath>
#include <cstdint>
#include <vector>

#include "extractors/float_moment/cpu.hpp"
#include "extractors/float_moment/cpu_simd.hpp"
#include "extractors/row_bands.hpp"
#include "extractors/simd.hpp"

namespace twinproof::float_moment {
namespace {

constexpr std::uint64_t kExactUnits = std::uint64_t{1} << 53;

template <class Sample>
RowUnits scalar_units(const Sample* r, const Sample* d, int w, int bitdepth) {
  RowUnits u{};
  for (int x = 0; x < w; ++x) {
    u[0] += r[x];
    u[1] += d[x];
    if (bitdepth <= 12) {
      // Below 16 bits the fp32 square is exact: the term is the integer sample squared.
      u[2] += static_cast<std::uint64_t>(r[x]) * r[x];
      u[3] += static_cast<std::uint64_t>(d[x]) * d[x];
    } else {
      // At 16 bits the sample is s / 256 exactly, so its fp32 square in units of 2^-16 is the
      // integer s^2 (below 2^32) converted to fp32, round to nearest even.
      u[2] += static_cast<std::uint64_t>(static_cast<float>(static_cast<std::uint32_t>(r[x]) * r[x]));
      u[3] += static_cast<std::uint64_t>(static_cast<float>(static_cast<std::uint32_t>(d[x]) * d[x]));
    }
  }
  return u;
}

class RowsMomentEngine : public MomentEngine {
 public:
  explicit RowsMomentEngine(const ExtractorContext& ctx) : ctx_(ctx), bands_(ctx.threads) {
    switch (simd_level()) {
      case SimdLevel::avx512: row_units_ = &row_units_avx512; break;
      case SimdLevel::avx2: row_units_ = &row_units_avx2; break;
      default: row_units_ = &scalar_row_units; break;
    }
  }

  void init(const Format& fmt) override {
    fmt_ = fmt;
    rows_.assign(fmt.height, RowUnits{});
    after_row_.assign(fmt.height, MomentSums{});
    have_frame_ = false;
    queue_.clear();
  }

  void submit(const PictureView& ref, const PictureView& dist) override {
    const int w = fmt_.width, bitdepth = fmt_.bitdepth;
    bands_.run(fmt_.height, [&](int, int begin, int end) {
      for (int y = begin; y < end; ++y)
        rows_[y] = row_units_(ref.data[0] + ref.stride[0] * y, dist.data[0] + dist.stride[0] * y, w, bitdepth);
    });
    RowUnits total{};
    for (const RowUnits& row : rows_)
      for (int k = 0; k < 4; ++k) total[k] += row[k];
    if (total[2] < kExactUnits && total[3] < kExactUnits) {  // the samples' totals always are
      const int unit_log2[4] = {sample_unit_log2(bitdepth), sample_unit_log2(bitdepth), square_unit_log2(bitdepth),
                                square_unit_log2(bitdepth)};
      RowUnits running{};
      for (std::size_t y = 0; y < rows_.size(); ++y)
        for (int k = 0; k < 4; ++k) after_row_[y][k] = std::ldexp(static_cast<double>(running[k] += rows_[y][k]), unit_log2[k]);
      for (int k = 0; k < 4; ++k) sums_[k] = std::ldexp(static_cast<double>(total[k]), unit_log2[k]);
    } else {
      sums_ = sequential_sums(ref, dist, after_row_);
    }
    have_frame_ = true;
    queue_.push(sums_);
  }

  std::optional<MomentSums> take(bool) override { return queue_.take(); }

  std::optional<Probe> inspect(std::string_view stage) const override {
    if (!ctx_.capture_stages || !have_frame_) return std::nullopt;
    if (stage == "running_sums") return running_sums_probe(after_row_);
    if (stage == "sums") return sums_probe(sums_);
    return std::nullopt;
  }

 private:
  const ExtractorContext ctx_;
  RowBands bands_;
  RowUnits (*row_units_)(const std::uint8_t*, const std::uint8_t*, int, int) = nullptr;
  Format fmt_{};
  std::vector<RowUnits> rows_;
  std::vector<MomentSums> after_row_;
  MomentSums sums_{};
  bool have_frame_ = false;
  ReadyQueue<MomentSums> queue_;
};

}  // namespace

RowUnits scalar_row_units(const std::uint8_t* ref, const std::uint8_t* dist, int w, int bitdepth) {
  return bitdepth > 8 ? scalar_units(reinterpret_cast<const std::uint16_t*>(ref), reinterpret_cast<const std::uint16_t*>(dist), w,
                                     bitdepth)
                      : scalar_units(ref, dist, w, bitdepth);
}

std::unique_ptr<Extractor> make_cpu_simd(const ExtractorContext& ctx) {
  return with_engine<FloatMomentExtractor, RowsMomentEngine>(ctx);
}

}  // namespace twinproof::float_moment
