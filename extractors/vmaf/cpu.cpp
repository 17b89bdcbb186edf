// vmaf's reference: every model feature by its feature's reference (cpu), then the prediction.
#include "extractors/vmaf/model_backend.hpp"

namespace twinproof {
std::unique_ptr<Extractor> make_vmaf_cpu(const ExtractorContext& ctx) { return vmaf::make_model_backend(ctx, "cpu"); }
}  // namespace twinproof
