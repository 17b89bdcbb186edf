#include "extractors/vmaf/options.hpp"

#include <cstddef>

namespace twinproof::vmaf {

std::span<const OptionSpec> option_table() {
  using O = VmafOptions;
  // None names the output: libvmaf calls the score by the model's name ("vmaf") whatever the flags.
  static const OptionSpec table[] = {
      {.name = "model",
       .alias = nullptr,
       .type = OptionType::text,
       .default_text = "vmaf_v0.6.1",
       .min = 0,
       .max = 0,
       .offset = offsetof(O, model),
       .help = "a built-in model (vmaf_v0.6.1, vmaf_v0.6.1neg, vmaf_4k_v0.6.1, vmaf_4k_v0.6.1neg) or a libvmaf JSON model file's "
               "path",
       .names_output = false,
       .names_file = true},
      flag_option("disable_clip", nullptr, offsetof(O, disable_clip), "do not clip the score to the model's score_clip",
                  /*names_output=*/false),
      flag_option("enable_transform", nullptr, offsetof(O, enable_transform),
                  "apply the model's score_transform even where the file leaves it off", /*names_output=*/false),
  };
  return table;
}

VmafOptions parse_options(const OptionList& given) { return parse_options_as<VmafOptions>(option_table(), given); }

Model load_model(const VmafOptions& o) {
  return load_model(o.model, {.disable_clip = o.disable_clip, .enable_transform = o.enable_transform});
}

}  // namespace twinproof::vmaf
