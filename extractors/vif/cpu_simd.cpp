// vif's cpu-simd: the exact SIMD twin and the fast CPU path. The vertical and horizontal passes of
// every scale run over 8 (AVX2) or 16 (AVX-512) columns at once in 32- and 64-bit integer lanes,
// and each pixel's variances come out of the same vectors; the per-pixel log2 and double steps
// run over 4 (8) pixels at once, the contract's operations in its order. Every value is the
// reference's integer, and the sums are integers: exact by construction, and the gate shows it.
// TWINPROOF_SIMD=scalar|avx2|avx512 lowers the level; the scalar level is the reference itself.
#include "extractors/vif/cpu_simd.hpp"

#include "extractors/frames_in_flight.hpp"
#include "extractors/simd.hpp"

namespace twinproof::vif {
namespace {

class CpuSimdVifEngine final : public CpuVifEngine {
 public:
  explicit CpuSimdVifEngine(const ExtractorContext& ctx) : CpuVifEngine(ctx), level_(simd_level()) {}

 protected:
  void statistic_rows(const ScalePictures& p, int begin, int end, ScaleSums* rows, RowScratch& t) const override {
    const VerticalShift vs = vertical_shift(p.scale, p.bpc);
    if (level_ == SimdLevel::avx512) statistic_rows_avx512(p, vs, begin, end, rows, t, log2t(), params().gain_limit);
    else if (level_ == SimdLevel::avx2) statistic_rows_avx2(p, vs, begin, end, rows, t, log2t(), params().gain_limit);
    else CpuVifEngine::statistic_rows(p, begin, end, rows, t);
  }
  void subsample_rows(const ScalePictures& p, int begin, int end, std::uint16_t* ref_out, std::uint16_t* dist_out,
                      std::ptrdiff_t out_stride, RowScratch& t) const override {
    const VerticalShift vs = subsample_shift(p.scale + 1, p.bpc);
    if (level_ == SimdLevel::avx512) subsample_rows_avx512(p, vs, begin, end, ref_out, dist_out, out_stride, t);
    else if (level_ == SimdLevel::avx2) subsample_rows_avx2(p, vs, begin, end, ref_out, dist_out, out_stride, t);
    else CpuVifEngine::subsample_rows(p, begin, end, ref_out, dist_out, out_stride, t);
  }

 private:
  SimdLevel level_;
};

}  // namespace
// Several frames in flight where there are threads for them (frames_in_flight.hpp): luma alone is read.
std::unique_ptr<Extractor> make_cpu_simd(const ExtractorContext& ctx) {
  return std::make_unique<VifExtractor>(host_engine_in_flight<VifEngine, CpuSimdVifEngine>(ctx, 1), ctx);
}

}  // namespace twinproof::vif
