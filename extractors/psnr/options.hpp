// psnr's options (extractors/psnr/CONTRACT.md), as a table the shared parser reads: libvmaf's
// integer PSNR extractor's own, with its defaults and ranges.
#pragma once

#include <span>

#include "extractors/feature.hpp"

namespace twinproof::psnr {

struct PsnrOptions {
  bool enable_chroma = true;      // psnr_cb and psnr_cr too (never for 4:0:0)
  bool enable_mse = false;        // mse_y, mse_cb, mse_cr beside the PSNRs
  bool enable_apsnr = false;      // libvmaf's aggregate APSNR at the end of the clip: refused (see CONTRACT.md)
  bool reduced_hbd_peak = false;  // peak 255 << (bitdepth - 8) instead of 2^bitdepth - 1
  double min_sse = 0.0;           // a floor on the SSE, which lowers the PSNR's ceiling
};

std::span<const OptionSpec> option_table();
// The options given, checked: ConfigError for what the table refuses, RefusedConfiguration for
// enable_apsnr=true (an aggregate score twinproof does not carry).
PsnrOptions parse_options(const OptionList& given);

}  // namespace twinproof::psnr
