// The INPUT argument shared by commands: a file, '-' (stdin), or vector:ID.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "harness/io/frame.hpp"
#include "harness/vectors/vectors.hpp"

namespace twinproof::cli {

struct InputArgs {
  std::string path;
  std::optional<int> width, height, bitdepth;
  std::string pixfmt;
};

// Whether the command line names a pair (--distorted, or a vector:ID~DISTORTION), read from the
// arguments alone (stdin is not touched).
bool names_a_pair(const InputArgs& a, const std::string& distorted);

// INPUT or -r/--reference, and the raw geometry flags (vmaf's short forms); the caller checks
// that a path was given (require_input).
void add_input_flags(CLI::App& sub, InputArgs& a);
void require_input(const InputArgs& a);
std::unique_ptr<FrameSource> open_cli_input(const InputArgs& a);
// The reference clip and, when `distorted` names a file (read with the same geometry flags) or
// the input is a pair of the manifest (vector:VECTOR~DISTORTION), its distorted clip.
ClipPair open_cli_pair(const InputArgs& a, const std::string& distorted);

}  // namespace twinproof::cli
