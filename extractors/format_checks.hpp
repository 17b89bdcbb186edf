// Checks of a clip's format that every feature makes alike, with one wording.
#pragma once

#include <string>
#include <string_view>

#include "extractors/extractor.hpp"

namespace twinproof {

// Refuses (RefusedConfiguration) a bit depth that is not one of libvmaf's: 8, 10, 12, 16.
void refuse_unsupported_bitdepth(const Format& fmt);

// Refuses (RefusedConfiguration) an unsupported bit depth (as above), then a picture whose luma
// plane is narrower or lower than `min` samples: `subject` is what is refused ("picture",
// "plane Y"), its value the plane's WxH, and `message` the feature's own words for why.
void refuse_unsupported_picture(const Format& fmt, int min, std::string_view subject, const std::string& message);

}  // namespace twinproof
