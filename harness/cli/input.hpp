// The INPUT argument shared by commands: a file, '-' (stdin), or vector:ID.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "harness/io/frame.hpp"

namespace twinproof::cli {

struct InputArgs {
  std::string path;
  std::optional<int> width, height, bitdepth;
  std::string pixfmt;
};

void add_input_flags(CLI::App& sub, InputArgs& a);
std::unique_ptr<FrameSource> open_cli_input(const InputArgs& a);

}  // namespace twinproof::cli
