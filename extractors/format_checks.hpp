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
// The same for a feature that says "<feature> needs a luma plane of at least MINxMIN samples,
// this one is WxH: <why>" of the picture.
void refuse_small_luma(const Format& fmt, std::string_view feature, int min, std::string_view why);

}  // namespace twinproof
