// float_ansnr's options: libvmaf's float_ansnr extractor takes none, so the table is empty and
// any option given is refused by name (extractors/float_ansnr/CONTRACT.md).
#pragma once

#include <span>

#include "extractors/feature.hpp"

namespace twinproof::float_ansnr {

struct FloatAnsnrOptions {};

std::span<const OptionSpec> option_table();
// The options given, checked: ConfigError names the first one (there are none to give).
FloatAnsnrOptions parse_options(const OptionList& given);

}  // namespace twinproof::float_ansnr
