// The VMAF prediction of one frame from its feature values, and the pooled scores, in libvmaf's
// order of operations (extractors/vmaf/CONTRACT.md). Every backend runs this same host code on its
// own features: a backend's VMAF is exact when its features are.
#pragma once

#include <span>

#include "extractors/pooling.hpp"
#include "extractors/vmaf/model.hpp"

namespace twinproof::vmaf {

// `values[i]` is the model's feature i for the frame.
double predict(const Model& m, std::span<const double> values);

}  // namespace twinproof::vmaf
