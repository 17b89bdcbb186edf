// vmaf's reference: every model feature by its feature's reference (cpu), then the prediction.
#include "extractors/vmaf/model_backend.hpp"

namespace twinproof::vmaf {
std::unique_ptr<Extractor> make_cpu(const ExtractorContext& ctx) { return make_model_backend(ctx, "cpu"); }
}  // namespace twinproof::vmaf
