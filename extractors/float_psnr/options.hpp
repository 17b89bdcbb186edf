// float_psnr's options: libvmaf's float_psnr extractor takes none, so the table is empty and any
// option given is refused by name (extractors/float_psnr/CONTRACT.md).
#pragma once

#include <span>

#include "extractors/feature.hpp"

namespace twinproof::float_psnr {

struct FloatPsnrOptions {};

std::span<const OptionSpec> option_table();
// The options given, checked: ConfigError names the first one (there are none to give).
FloatPsnrOptions parse_options(const OptionList& given);

}  // namespace twinproof::float_psnr
