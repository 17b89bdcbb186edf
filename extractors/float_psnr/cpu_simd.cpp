// float_psnr's cpu-simd: the exact SIMD twin and the fast CPU path. Each row's terms added as
// integers of the term unit (arithmetic.hpp, term_unit_log2) by the SIMD kernel of the CPU's level
// (cpu_simd_isa.cpp; TWINPROOF_SIMD=scalar|avx2|avx512 lowers it), rows on a band of threads, the
// rows' integers added, and the total scaled once. Integer sums are the same in any order, and while the total stays below 2^53
// units every partial sum of the reference's double is exact too, so the frame's double is the reference's bit for bit. A frame
// at or above that (a 16-bit picture of more than 2^21 samples with large differences) is added the reference's way instead.
#include <cmath>
#include <cstdint>
#include <vector>

#include "extractors/float_psnr/cpu.hpp"
#include "extractors/float_psnr/cpu_simd.hpp"
#include "extractors/row_bands.hpp"
#include "extractors/simd.hpp"

namespace twinproof::float_psnr {
namespace {

constexpr std::uint64_t kExactUnits = std::uint64_t{1} << 53;

template <class Sample>
std::uint64_t scalar_units(const Sample* r, const Sample* d, int w, int bitdepth) {
  std::uint64_t units = 0;
  if (bitdepth <= 12) {
    // Below 16 bits the fp32 square is exact: the term is the integer difference squared.
    for (int x = 0; x < w; ++x) {
      const std::int64_t diff = std::int64_t{r[x]} - std::int64_t{d[x]};
      units += static_cast<std::uint64_t>(diff * diff);
    }
  } else {
    // At 16 bits the square may round in fp32. The reference's difference is (r - d) / 256
    // exactly, so its fp32 square is the integer (r - d)^2 (below 2^32) rounded to 24 bits, times
    // 2^-16: the term in units of 2^-16 is that integer converted to fp32, round to nearest even.
    for (int x = 0; x < w; ++x) {
      const std::int64_t diff = std::int64_t{r[x]} - std::int64_t{d[x]};
      units += static_cast<std::uint64_t>(static_cast<float>(static_cast<std::uint32_t>(diff * diff)));
    }
  }
  return units;
}

class RowsNoiseEngine : public NoiseEngine {
 public:
  explicit RowsNoiseEngine(const ExtractorContext& ctx) : ctx_(ctx), bands_(ctx.threads) {
    switch (simd_level()) {
      case SimdLevel::avx512: row_units_ = &row_units_avx512; break;
      case SimdLevel::avx2: row_units_ = &row_units_avx2; break;
      default: row_units_ = &scalar_row_units; break;
    }
  }

  void init(const Format& fmt) override {
    fmt_ = fmt;
    rows_.assign(fmt.height, 0);
    after_row_.assign(fmt.height, 0);
    have_frame_ = false;
    queue_.clear();
  }

  void submit(const PictureView& ref, const PictureView& dist) override {
    const int w = fmt_.width, bitdepth = fmt_.bitdepth;
    bands_.run(fmt_.height, [&](int, int begin, int end) {
      for (int y = begin; y < end; ++y) {
        const std::uint8_t* r = ref.data[0] + ref.stride[0] * y;
        const std::uint8_t* d = dist.data[0] + dist.stride[0] * y;
        rows_[y] = row_units_(r, d, w, bitdepth);
      }
    });
    std::uint64_t total = 0;
    for (const std::uint64_t units : rows_) total += units;
    if (total < kExactUnits) {
      const int unit_log2 = term_unit_log2(bitdepth);
      std::uint64_t running = 0;
      for (std::size_t y = 0; y < rows_.size(); ++y)
        after_row_[y] = std::ldexp(static_cast<double>(running += rows_[y]), unit_log2);
      noise_ = std::ldexp(static_cast<double>(total), unit_log2);
    } else {
      noise_ = sequential_noise(ref, dist, after_row_);
    }
    have_frame_ = true;
    queue_.push(noise_);
  }

  std::optional<double> take(bool) override { return queue_.take(); }

  std::optional<Probe> inspect(std::string_view stage) const override {
    if (!ctx_.capture_stages || !have_frame_) return std::nullopt;
    if (stage == "running_noise") return running_noise_probe(after_row_);
    if (stage == "noise") return noise_probe(noise_);
    return std::nullopt;
  }

 private:
  const ExtractorContext ctx_;
  RowBands bands_;
  std::uint64_t (*row_units_)(const std::uint8_t*, const std::uint8_t*, int, int) = nullptr;
  Format fmt_{};
  std::vector<std::uint64_t> rows_;
  std::vector<double> after_row_;
  double noise_ = 0;
  bool have_frame_ = false;
  ReadyQueue<double> queue_;
};

}  // namespace

std::uint64_t scalar_row_units(const std::uint8_t* ref, const std::uint8_t* dist, int w, int bitdepth) {
  return bitdepth > 8 ? scalar_units(reinterpret_cast<const std::uint16_t*>(ref), reinterpret_cast<const std::uint16_t*>(dist), w,
                                     bitdepth)
                      : scalar_units(ref, dist, w, bitdepth);
}

std::unique_ptr<Extractor> make_cpu_simd(const ExtractorContext& ctx) {
  return with_engine<FloatPsnrExtractor, RowsNoiseEngine>(ctx);
}

}  // namespace twinproof::float_psnr
