// Running external tools (npm, apt-get, ffmpeg) without a shell.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace twinproof {

// Runs argv[0] (looked up in PATH) in `cwd`, with stdout redirected to `stdout_file` when it
// is not empty. Returns the exit status; 127 when the program cannot be started.
int run_process(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                const std::filesystem::path& stdout_file = {});

// argv joined for messages, each word quoted when needed.
std::string shell_words(const std::vector<std::string>& argv);

}  // namespace twinproof
