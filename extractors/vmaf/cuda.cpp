// vmaf's CUDA twin: every model feature by its feature's cuda twin, then the same host prediction.
#include "extractors/vmaf/model_backend.hpp"

namespace twinproof::vmaf {
std::unique_ptr<Extractor> make_cuda(const ExtractorContext& ctx) { return make_model_backend(ctx, "cuda"); }
}  // namespace twinproof::vmaf
