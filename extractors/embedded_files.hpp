// Data files built into the binary (a feature's models/ folder: extractors/CMakeLists.txt
// generates embedded_<feature>.cpp), so that an installed twinproof needs no path to find them.
#pragma once

#include <span>
#include <string_view>

namespace twinproof {

struct EmbeddedFile {
  std::string_view name;   // the file's name in its folder: "vmaf_v0.6.1.json"
  std::string_view bytes;  // its contents, byte for byte
};

// Each feature with a models/ folder defines std::span<const EmbeddedFile> embedded_files_<feature>()
// in its generated source; the feature's own code declares and reads it.

}  // namespace twinproof
