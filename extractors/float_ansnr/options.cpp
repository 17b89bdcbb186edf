#include "extractors/float_ansnr/options.hpp"

namespace twinproof::float_ansnr {

std::span<const OptionSpec> option_table() { return {}; }

FloatAnsnrOptions parse_options(const OptionList& given) { return parse_options_as<FloatAnsnrOptions>(option_table(), given); }

}  // namespace twinproof::float_ansnr
