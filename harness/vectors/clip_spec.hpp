// A clip as a user names it: a file ('-': Y4M on stdin), raw with its geometry, or vector:ID
// (vector:ID~DISTORTION: a pair of the manifest). `score` and `bench --from-file` open it alike.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "harness/io/frame.hpp"
#include "harness/vectors/vectors.hpp"

namespace twinproof {

struct ClipSpec {
  std::string path;
  std::optional<int> width, height, bitdepth;  // raw input (--width, --height, --bitdepth)
  std::string pixfmt;                          // raw input (--pixfmt)
};

// Whether it names a pair (a `distorted` clip, or a vector:ID~DISTORTION), read from the names
// alone (stdin is not touched).
bool names_a_pair(const ClipSpec& a, const std::string& distorted);

// The clip; InputError naming the missing geometry flag of a raw file given only some of them.
std::unique_ptr<FrameSource> open_clip(const ClipSpec& a);
// The reference clip and, when `distorted` names a file (read with the same geometry) or the spec
// is a pair of the manifest (vector:VECTOR~DISTORTION), its distorted clip.
ClipPair open_clip_pair(const ClipSpec& a, const std::string& distorted);

}  // namespace twinproof
