#include "extractors/float_moment/options.hpp"

namespace twinproof::float_moment {

std::span<const OptionSpec> option_table() { return {}; }

FloatMomentOptions parse_options(const OptionList& given) { return parse_options_as<FloatMomentOptions>(option_table(), given); }

}  // namespace twinproof::float_moment
