// vmaf's CUDA twin: every model feature by its feature's cuda twin, then the same host prediction.
#include "extractors/vmaf/model_backend.hpp"

namespace twinproof {
std::unique_ptr<Extractor> make_vmaf_cuda(const ExtractorContext& ctx) { return vmaf::make_model_backend(ctx, "cuda"); }
}  // namespace twinproof
