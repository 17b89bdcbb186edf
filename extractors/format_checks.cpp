#include "extractors/format_checks.hpp"

#include <string>

#include <fmt/format.h>

namespace twinproof {

void refuse_unsupported_bitdepth(const Format& fmt) {
  if (fmt.bitdepth != 8 && fmt.bitdepth != 10 && fmt.bitdepth != 12 && fmt.bitdepth != 16)
    throw RefusedConfiguration("bitdepth", std::to_string(fmt.bitdepth),
                               fmt::format("bit depth {} is not one of 8, 10, 12, 16", fmt.bitdepth));
}

void refuse_unsupported_picture(const Format& fmt, int min, std::string_view subject, const std::string& message) {
  refuse_unsupported_bitdepth(fmt);
  if (fmt.width < min || fmt.height < min)
    throw RefusedConfiguration(std::string(subject), fmt::format("{}x{}", fmt.width, fmt.height), message);
}

void refuse_small_luma(const Format& fmt, std::string_view feature, int min, std::string_view why) {
  refuse_unsupported_picture(fmt, min, "picture",
                             fmt::format("{0} needs a luma plane of at least {1}x{1} samples, this one is {2}x{3}: {4}", feature,
                                         min, fmt.width, fmt.height, why));
}

}  // namespace twinproof
