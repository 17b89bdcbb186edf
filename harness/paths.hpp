// Where the project's data (vectors/, goldens/, ci/) and the vector cache are.
#pragma once

#include <filesystem>

namespace twinproof {

// The folder holding vectors/manifest.json, goldens/ and ci/: $TWINPROOF_DATA, else the folder
// above the executable when it holds them (bundles: bin/twinproof), else the source tree this
// binary was built from.
std::filesystem::path data_root();

// Decoded real-content vectors: $TWINPROOF_CACHE, else $XDG_CACHE_HOME/twinproof, else
// ~/.cache/twinproof. Never inside the source tree.
std::filesystem::path cache_root();

}  // namespace twinproof
