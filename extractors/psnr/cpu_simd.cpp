// psnr's cpu-simd: the exact SIMD twin and the fast CPU path. Each row's squared error in int32
// lanes, added in 64-bit lanes (cpu_simd_kernels.inc); rows split over threads as the reference's.
// TWINPROOF_SIMD=scalar|avx2|avx512 lowers the level; the scalar level is the reference itself.
#include "extractors/psnr/cpu_simd.hpp"
#include "extractors/simd.hpp"

namespace twinproof::psnr {
namespace {

class CpuSimdSseEngine final : public CpuSseEngine {
 public:
  explicit CpuSimdSseEngine(const ExtractorContext& ctx) : CpuSseEngine(ctx), level_(simd_level()) {}

 protected:
  void rows(const PlaneJob& job) override {
    if (level_ == SimdLevel::avx512) rows_avx512(job);
    else if (level_ == SimdLevel::avx2) rows_avx2(job);
    else CpuSseEngine::rows(job);
  }

 private:
  SimdLevel level_;
};

}  // namespace
std::unique_ptr<Extractor> make_cpu_simd(const ExtractorContext& ctx) {
  return with_engine<PsnrExtractor, CpuSimdSseEngine>(ctx);
}

}  // namespace twinproof::psnr
