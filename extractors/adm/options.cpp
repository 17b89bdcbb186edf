#include "extractors/adm/options.hpp"

#include <cstddef>

namespace twinproof::adm {

std::span<const OptionSpec> option_table() {
  using O = AdmOptions;
  // In libvmaf's order. Options marked names_output put their alias and value into the outputs'
  // names when they leave their defaults (libvmaf's VMAF_OPT_FLAG_FEATURE_PARAM).
  static const OptionSpec table[] = {
      {.name = "debug", .alias = nullptr, .type = OptionType::boolean, .default_text = "false", .min = 0, .max = 0,
       .offset = offsetof(O, debug), .help = "emit adm, adm_num, adm_den and each scale's numerator and denominator too",
       .names_output = false},
      {.name = "adm_csf_scale", .alias = "scf", .type = OptionType::real, .default_text = "1", .min = 0.0, .max = 50.0,
       .offset = offsetof(O, adm_csf_scale), .help = "Barten's CSF: the scale of the horizontal and vertical factor", .names_output = true},
      {.name = "adm_csf_diag_scale", .alias = "scfd", .type = OptionType::real, .default_text = "1", .min = 0.0, .max = 50.0,
       .offset = offsetof(O, adm_csf_diag_scale), .help = "Barten's CSF: the scale of the diagonal factor", .names_output = true},
      {.name = "adm_dlm_weight", .alias = "dlmw", .type = OptionType::real, .default_text = "0.5", .min = 0.0, .max = 1.0,
       .offset = offsetof(O, adm_dlm_weight), .help = "adm3's weight of adm2 against 1 - aim", .names_output = true},
      {.name = "adm_enhn_gain_limit", .alias = "egl", .type = OptionType::real, .default_text = "100", .min = 1.0, .max = 100.0,
       .offset = offsetof(O, adm_enhn_gain_limit), .help = "the cap on a restored coefficient's gain (1: no enhancement counts)",
       .names_output = true},
      {.name = "adm_norm_view_dist", .alias = "nvd", .type = OptionType::real, .default_text = "3", .min = 0.75, .max = 24.0,
       .offset = offsetof(O, adm_norm_view_dist), .help = "viewing distance over the display's height", .names_output = true},
      {.name = "adm_ref_display_height", .alias = "rdh", .type = OptionType::integer, .default_text = "1080", .min = 1, .max = 4320,
       .offset = offsetof(O, adm_ref_display_height), .help = "the display's height in lines", .names_output = true},
      {.name = "adm_csf_mode", .alias = "csf", .type = OptionType::integer, .default_text = "0", .min = 0, .max = 3,
       .offset = offsetof(O, adm_csf_mode), .help = "0 Watson 1997, 1 Barten, 2 Barten-Watson blend, 3 the blend fitted on MAE",
       .names_output = true},
      {.name = "adm_noise_weight", .alias = "nw", .type = OptionType::real, .default_text = "0.03125", .min = 0.0, .max = 1500.0,
       .offset = offsetof(O, adm_noise_weight), .help = "the noise floor's weight in each angle's numerator and denominator",
       .names_output = true},
      {.name = "adm_skip_aim", .alias = nullptr, .type = OptionType::boolean, .default_text = "false", .min = 0, .max = 0,
       .offset = offsetof(O, adm_skip_aim), .help = "do not compute aim's numerator (aim is 0)", .names_output = false},
      {.name = "adm_skip_scale0", .alias = "ssz", .type = OptionType::boolean, .default_text = "false", .min = 0, .max = 0,
       .offset = offsetof(O, adm_skip_scale0), .help = "do not score scale 0 (adm_scale0 is 0)", .names_output = true},
      {.name = "adm_min_val", .alias = "min", .type = OptionType::real, .default_text = "0", .min = 0.0, .max = 1.0,
       .offset = offsetof(O, adm_min_val), .help = "adm3's floor", .names_output = true},
  };
  return table;
}

AdmOptions parse_options(const OptionList& given) { return parse_options_as<AdmOptions>(option_table(), given); }

}  // namespace twinproof::adm
