// adm's options (extractors/adm/CONTRACT.md), as a table the shared parser reads: libvmaf's
// integer ADM extractor's own, with its defaults, aliases and ranges.
#pragma once

#include <span>

#include "extractors/feature.hpp"

namespace twinproof::adm {

struct AdmOptions {
  bool debug = false;                 // the combined score, its numerator and denominator, and each scale's
  double adm_csf_scale = 1.0;         // Barten's CSF (mode 1): the h and v factor's scale
  double adm_csf_diag_scale = 1.0;    // Barten's CSF (mode 1): the d factor's scale
  double adm_dlm_weight = 0.5;        // adm3 = dlm_weight x adm2 + (1 - dlm_weight) x (1 - aim)
  double adm_enhn_gain_limit = 100;   // the cap on a restored coefficient's gain (1: no enhancement counts)
  double adm_norm_view_dist = 3.0;    // viewing distance over display height
  int adm_ref_display_height = 1080;  // display height in lines
  int adm_csf_mode = 0;               // 0 Watson, 1 Barten, 2 and 3 Barten-Watson blends
  double adm_noise_weight = 0.03125;  // the noise floor added to each angle's sum
  bool adm_skip_aim = false;          // aim's numerator is not computed (aim = 0)
  bool adm_skip_scale0 = false;       // scale 0 is not scored (its numerator 0, denominator 1e-10)
  double adm_min_val = 0.0;           // adm3's floor
};

std::span<const OptionSpec> option_table();
AdmOptions parse_options(const OptionList& given);

}  // namespace twinproof::adm
