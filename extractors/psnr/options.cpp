#include "extractors/psnr/options.hpp"

#include <cstddef>
#include <limits>

namespace twinproof::psnr {

std::span<const OptionSpec> option_table() {
  using O = PsnrOptions;
  // libvmaf marks none of these as naming its output: its metric keys stay psnr_y, mse_y.
  static const OptionSpec table[] = {
      {.name = "enable_chroma",
       .alias = nullptr,
       .type = OptionType::boolean,
       .default_text = "true",
       .min = 0,
       .max = 0,
       .offset = offsetof(O, enable_chroma),
       .help = "psnr_cb and psnr_cr (never for 4:0:0)",
       .names_output = false},
      flag_option("enable_mse", nullptr, offsetof(O, enable_mse), "emit mse_y, mse_cb, mse_cr too", /*names_output=*/false),
      flag_option("enable_apsnr", nullptr, offsetof(O, enable_apsnr), "libvmaf's aggregate APSNR (refused: no per-frame score)",
                  /*names_output=*/false),
      flag_option("reduced_hbd_peak", nullptr, offsetof(O, reduced_hbd_peak),
                  "peak 255 << (bitdepth - 8) instead of 2^bitdepth - 1", /*names_output=*/false),
      {.name = "min_sse",
       .alias = nullptr,
       .type = OptionType::real,
       .default_text = "0.0",
       .min = 0,
       .max = std::numeric_limits<double>::max(),
       .offset = offsetof(O, min_sse),
       .help = "a floor on the SSE: the PSNR's ceiling becomes ceil(10 log10(peak^2 / (min_sse / samples)))",
       .names_output = false},
  };
  return table;
}

PsnrOptions parse_options(const OptionList& given) {
  const PsnrOptions o = parse_options_as<PsnrOptions>(option_table(), given);
  // libvmaf sets apsnr_y/cb/cr as aggregate metrics of the whole clip, not per frame; twinproof's
  // score tables hold per-frame values only, so the option is refused rather than ignored.
  if (o.enable_apsnr)
    throw RefusedConfiguration("enable_apsnr", "true",
                               "enable_apsnr=true: libvmaf's APSNR is an aggregate of the whole clip, which twinproof does not "
                               "carry (its scores are per frame); leave it false");
  return o;
}

}  // namespace twinproof::psnr
