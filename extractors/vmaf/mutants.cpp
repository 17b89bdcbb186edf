// vmaf's mutant (registered only with --with-mutants): adm's mutant-band under the model, the rest
// by the references. The gate must fail it, and repro must lead from the score to adm2, then into
// adm's stages.
#include "extractors/vmaf/model_backend.hpp"

namespace twinproof::vmaf {
std::unique_ptr<Extractor> make_mutant_adm(const ExtractorContext& ctx) {
  return make_model_backend(ctx, "cpu", {{"adm", "mutant-band"}});
}
}  // namespace twinproof::vmaf
