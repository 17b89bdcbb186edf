// cuda: the exact CUDA twin users run. For now it runs the row-thread engine; it is registered
// on its own so that it can be made fast without changing a bit of its results.
#include "extractors/float_motion/cuda_rowthread.hpp"

namespace twinproof {
std::unique_ptr<Extractor> make_float_motion_cuda(const ExtractorContext& ctx) {
  return float_motion::make_motion_extractor<float_motion::CudaRowThreadEngine>(ctx);
}
}  // namespace twinproof
