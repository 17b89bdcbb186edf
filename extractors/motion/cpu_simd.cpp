// Integer motion's cpu-simd: the exact SIMD twin and the fast CPU path. One fused pass over the
// rows (the vertical pass of the difference for 4 rows and 8 or 16 columns at once, then each
// row's horizontal pass and |X| summed per lane), int32 lanes throughout with products split
// where they could overflow (cpu_simd_kernels.inc). It exposes its own row sums and total; the planes exist only as rows.
// TWINPROOF_SIMD=scalar|avx2|avx512 lowers the level; the scalar level is the reference itself.
#include "extractors/motion/cpu_simd.hpp"
#include "extractors/motion/cpu.hpp"
#include "extractors/simd.hpp"

namespace twinproof::motion {
namespace {

class CpuSimdSadEngine final : public CpuSadEngine {
 public:
  explicit CpuSimdSadEngine(const ExtractorContext& ctx) : CpuSadEngine(ctx), level_(simd_level()), scratch_(bands_.threads()) {}

  std::optional<Probe> inspect(std::string_view stage) const override {
    if (level_ != SimdLevel::scalar && stage != "row_sums" && stage != "total") return std::nullopt;
    return CpuSadEngine::inspect(stage);
  }

 protected:
  std::uint64_t pair_total(const std::uint16_t* p, const std::uint16_t* c) override {
    if (level_ == SimdLevel::scalar) return CpuSadEngine::pair_total(p, c);
    // Bands of rows, each with its own row of V.
    bands_.run(fmt_.height, [&](int slot, int begin, int end) {
      const SadJob job{p, c, fmt_.width, fmt_.height, fmt_.bitdepth, rows_.data(), begin, end};
      if (level_ == SimdLevel::avx512) row_sums_avx512(job, scratch_[slot]);
      else row_sums_avx2(job, scratch_[slot]);
    });
    return total_of_rows();
  }

 private:
  SimdLevel level_;
  std::vector<SimdScratch<std::int32_t>> scratch_;  // a row of V per thread (RowBands slot)
};

}  // namespace
std::unique_ptr<Extractor> make_cpu_simd(const ExtractorContext& ctx) {
  return with_engine<IntegerMotionExtractor, CpuSimdSadEngine>(ctx);
}

}  // namespace twinproof::motion
