// vmaf's options (extractors/vmaf/CONTRACT.md): which model, and libvmaf's two model flags.
#pragma once

#include <span>
#include <string>

#include "extractors/feature.hpp"
#include "extractors/vmaf/model.hpp"

namespace twinproof::vmaf {

struct VmafOptions {
  std::string model = "vmaf_v0.6.1";  // a built-in version or a model file's path
  bool disable_clip = false;          // libvmaf's disable_clip: the score is not clipped to the model's range
  bool enable_transform = false;      // libvmaf's enable_transform: the model's score transform applies
};

std::span<const OptionSpec> option_table();
VmafOptions parse_options(const OptionList& given);
// The model these options name, with their flags.
Model load_model(const VmafOptions& o);

}  // namespace twinproof::vmaf
