// adm's cpu-simd: the exact SIMD twin and the fast CPU path. The wavelet's vertical and
// horizontal passes, decoupling, the CSF and each scored row's masked and denominator cubes run
// over 8 (AVX2) or 16 (AVX-512) columns at once in 64-bit integer lanes (decoupling's one-degree
// test through float and double lanes, operation for operation). Every value is the reference's
// integer and the sums are integers: exact by construction, and the gate shows it.
// TWINPROOF_SIMD=scalar|avx2|avx512 lowers the level; the scalar level is the reference itself.
#include "extractors/adm/cpu_simd.hpp"

#include "extractors/frames_in_flight.hpp"
#include "extractors/simd.hpp"

namespace twinproof::adm {
namespace {

class CpuSimdAdmEngine final : public CpuAdmEngine {
 public:
  explicit CpuSimdAdmEngine(const ExtractorContext& ctx) : CpuAdmEngine(ctx), level_(simd_level()) {}

 protected:
  void dwt_rows(const ScaleInput& in, int begin, int end, ScaleBands& out, DwtScratch& t) const override {
    if (level_ == SimdLevel::avx512) dwt_rows_avx512(in, begin, end, out, t);
    else if (level_ == SimdLevel::avx2) dwt_rows_avx2(in, begin, end, out, t);
    else CpuAdmEngine::dwt_rows(in, begin, end, out, t);
  }
  void decouple_rows(int scale, int begin, int end, ScaleBands& b) const override {
    if (level_ == SimdLevel::avx512) decouple_rows_avx512(simd_scale(scale), begin, end, b);
    else if (level_ == SimdLevel::avx2) decouple_rows_avx2(simd_scale(scale), begin, end, b);
    else CpuAdmEngine::decouple_rows(scale, begin, end, b);
  }
  void csf_rows(int scale, int begin, int end, const ScaleBands& b, ScaleMasks& m) const override {
    if (level_ == SimdLevel::avx512) csf_rows_avx512(simd_scale(scale), begin, end, b, m);
    else if (level_ == SimdLevel::avx2) csf_rows_avx2(simd_scale(scale), begin, end, b, m);
    else CpuAdmEngine::csf_rows(scale, begin, end, b, m);
  }
  void sum_rows(int scale, int begin, int end, const ScaleBands& b, const ScaleMasks& m, ScaleSums* rows) const override {
    if (level_ == SimdLevel::avx512) sum_rows_avx512(simd_scale(scale), begin, end, b, m, rows);
    else if (level_ == SimdLevel::avx2) sum_rows_avx2(simd_scale(scale), begin, end, b, m, rows);
    else CpuAdmEngine::sum_rows(scale, begin, end, b, m, rows);
  }

 private:
  SimdScale simd_scale(int scale) const {
    return {scale,
            &geometry(scale),
            &shifts(scale),
            &params().weights[static_cast<std::size_t>(scale)],
            params().skip_aim,
            params().gain_limit,
            params().cos_1deg_sq};
  }
  SimdLevel level_;
};

}  // namespace
// Several frames in flight where there are threads for them (frames_in_flight.hpp): luma alone is read.
std::unique_ptr<Extractor> make_cpu_simd(const ExtractorContext& ctx) {
  return std::make_unique<AdmExtractor>(host_engine_in_flight<AdmEngine, CpuSimdAdmEngine>(ctx, 1), ctx);
}

}  // namespace twinproof::adm
