// What every fuzz target shares: the bytes libFuzzer hands over, as a file a parser of outside
// data reads, and the rule that the only acceptable failures are the harness's own refusals.
#pragma once

#include <unistd.h>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "extractors/extractor.hpp"
#include "harness/support/errors.hpp"

namespace twinproof::fuzz {

// A file of this process under the temporary folder, rewritten for every input.
inline const std::filesystem::path& scratch(const char* name) {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("twinproof-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  static thread_local std::filesystem::path p;
  p = dir / name;
  return p;
}

inline std::filesystem::path write_input(const char* name, const std::uint8_t* data, std::size_t size) {
  const std::filesystem::path p = scratch(name);
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return p;
}

// Runs `body`; an InputError or ConfigError is the expected answer to bad input. Anything else
// (another exception, a crash, a sanitizer report) escapes to libFuzzer as a finding.
template <class Body>
void expect_refusal_or_success(Body&& body) {
  try {
    body();
  } catch (const InputError&) {
  } catch (const ConfigError&) {
  }
}

}  // namespace twinproof::fuzz

// For the targets whose parsers consult the project's data (manifest, goldens): libFuzzer calls
// this once before the first input.
#define TWINPROOF_FUZZ_USES_PROJECT_DATA                 \
  extern "C" int LLVMFuzzerInitialize(int*, char***) {   \
    ::setenv("TWINPROOF_DATA", TWINPROOF_SOURCE_DIR, 0); \
    return 0;                                            \
  }
