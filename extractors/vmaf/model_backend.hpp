// A vmaf backend: the model's features, each computed by one backend of its own feature, then the
// prediction (predict.hpp) of every frame once all its features are in, in frame order.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "extractors/extractor.hpp"

namespace twinproof::vmaf {

// `backend`: the backend of every feature the model needs ("cpu", "cpu-simd", "cuda");
// `overrides`: another backend for some features (a mutant's, by feature name).
std::unique_ptr<Extractor> make_model_backend(const ExtractorContext& ctx, std::string backend,
                                              std::map<std::string, std::string> overrides = {});

}  // namespace twinproof::vmaf
