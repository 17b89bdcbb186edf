// float_moment's options: libvmaf's float_moment extractor takes none, so the table is empty and
// any option given is refused by name (extractors/float_moment/CONTRACT.md).
#pragma once

#include <span>

#include "extractors/feature.hpp"

namespace twinproof::float_moment {

struct FloatMomentOptions {};

std::span<const OptionSpec> option_table();
// The options given, checked: ConfigError names the first one (there are none to give).
FloatMomentOptions parse_options(const OptionList& given);

}  // namespace twinproof::float_moment
