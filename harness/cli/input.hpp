// The INPUT argument shared by commands: a file, '-' (stdin), or vector:ID (io/clip_spec.hpp),
// and its flags.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "harness/vectors/clip_spec.hpp"

namespace twinproof::cli {

// INPUT or -r/--reference, and the raw geometry flags (vmaf's short forms); the caller checks
// that a path was given (require_input).
void add_input_flags(CLI::App& sub, ClipSpec& a);
void require_input(const ClipSpec& a);

}  // namespace twinproof::cli
