// Running external tools (npm, apt-get, ffmpeg, the programs of exec twins) without a shell.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace twinproof {

struct ToolRun {
  std::vector<std::string> argv;      // argv[0]: a path, or a name looked up in PATH
  std::filesystem::path cwd;          // empty: the current folder
  std::filesystem::path stdout_file;  // empty: inherited
  std::filesystem::path stderr_file;  // empty: inherited
  double timeout_s = 0;               // 0: none
};

struct ToolExit {
  int status = 0;           // the exit status; 128 + N when killed by signal N; 127 when it could not start
  int signal = 0;           // N when the tool was killed by signal N (a crash, an abort), else 0
  bool timed_out = false;   // killed after timeout_s
  int interrupted_by = 0;   // SIGINT/SIGTERM received by twinproof while waiting: the tool was killed
  std::string start_error;  // why it could not start, when it could not
};

// Runs the tool and waits for it, polling so that a timeout or an interrupt of twinproof kills
// it (and a tool that never ends never holds the run).
ToolExit run_tool(const ToolRun& run);

// A program name looked up in PATH (a name with a '/' is taken as it is); empty when not found.
std::filesystem::path find_program(const std::string& name);

// The simple form: exit status, stdout to `stdout_file` when not empty.
int run_process(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                const std::filesystem::path& stdout_file = {});

// argv joined for messages, each word quoted when needed.
std::string shell_words(const std::vector<std::string>& argv);
// The words shell_words wrote (plain words, single-quoted ones, backslash escapes), back; a
// quote left open is std::invalid_argument.
std::vector<std::string> split_shell_words(std::string_view text);

// The last `max_bytes` of a file (whole lines where possible), control bytes escaped: what a
// failing tool said last.
std::string file_tail(const std::filesystem::path& file, std::size_t max_bytes = 2000);

}  // namespace twinproof
