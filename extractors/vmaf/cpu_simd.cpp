// vmaf's cpu-simd twin: every model feature by its feature's cpu-simd twin, then the same prediction.
#include "extractors/vmaf/model_backend.hpp"

namespace twinproof::vmaf {
std::unique_ptr<Extractor> make_cpu_simd(const ExtractorContext& ctx) { return make_model_backend(ctx, "cpu-simd"); }
}  // namespace twinproof::vmaf
