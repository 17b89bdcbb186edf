// Checks of a clip's format that every feature makes alike, with one wording.
#pragma once

#include "extractors/extractor.hpp"

namespace twinproof {

// Refuses (RefusedConfiguration) a bit depth that is not one of libvmaf's: 8, 10, 12, 16.
void refuse_unsupported_bitdepth(const Format& fmt);

}  // namespace twinproof
