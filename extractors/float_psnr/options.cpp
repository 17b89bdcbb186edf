#include "extractors/float_psnr/options.hpp"

namespace twinproof::float_psnr {

std::span<const OptionSpec> option_table() { return {}; }

FloatPsnrOptions parse_options(const OptionList& given) { return parse_options_as<FloatPsnrOptions>(option_table(), given); }

}  // namespace twinproof::float_psnr
