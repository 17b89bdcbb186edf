#include "harness/support/process.hpp"

#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <stdexcept>
#include <thread>

#include <boost/process.hpp>

#include "extractors/extractor.hpp"
#include "harness/support/interrupt.hpp"

namespace twinproof {
namespace bp = boost::process;
namespace fs = std::filesystem;

namespace {

// Waits a while for a child to end, waking the moment it does: its pidfd (Linux 5.3 and later)
// becomes readable when it exits. Without one, sleeps in steps that grow from 1 to
// 20 ms. A timed run (bench) must not read a child's end up to a polling step late.
class ChildWaiter {
 public:
  explicit ChildWaiter(pid_t pid) : fd_(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0))) {}
  ~ChildWaiter() {
    if (fd_ >= 0) ::close(fd_);
  }
  ChildWaiter(const ChildWaiter&) = delete;
  ChildWaiter& operator=(const ChildWaiter&) = delete;

  void wait_a_while() {
    if (fd_ >= 0) {
      pollfd p{fd_, POLLIN, 0};
      ::poll(&p, 1, 50);  // returns at the child's end, at a signal, or after 50 ms (interrupts and timeouts are checked between)
      return;
    }
    std::this_thread::sleep_for(pause_);
    pause_ = std::min(pause_ * 2, std::chrono::milliseconds(20));
  }

 private:
  int fd_;
  std::chrono::milliseconds pause_{1};
};

}  // namespace

fs::path find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  return bp::search_path(name).string();  // empty when not found
}

ToolExit run_tool(const ToolRun& run) {
  ToolExit out;
  if (run.argv.empty()) {
    out.status = 127;
    out.start_error = "no program";
    return out;
  }
  const fs::path program = find_program(run.argv[0]);
  if (program.empty()) {
    out.status = 127;
    out.start_error = run.argv[0] + ": not found in PATH";
    return out;
  }
  const std::vector<std::string> args(run.argv.begin() + 1, run.argv.end());
  const std::string cwd = run.cwd.empty() ? fs::current_path().string() : run.cwd.string();
  const std::string out_file = run.stdout_file.empty() ? std::string() : run.stdout_file.string();
  const std::string err_file = run.stderr_file.empty() ? std::string() : run.stderr_file.string();
  std::error_code ec;
  // The tool runs in a process group of its own, so that a timeout, an interrupt or its own end
  // takes every process it started with it (a shell's `sleep`, a program's helpers): none outlives
  // the run that started it. The group's destructor kills whatever is left of it.
  bp::group group;
  bp::child child;
  // Each stream goes to its file, or stays the caller's (bp::std_out > stdout is not a file).
  if (!out_file.empty() && !err_file.empty())
    child = bp::child(program.string(), bp::args(args), bp::start_dir(cwd), bp::std_out > out_file, bp::std_err > err_file,
                      bp::std_in < bp::null, group, ec);
  else if (!out_file.empty())
    child =
        bp::child(program.string(), bp::args(args), bp::start_dir(cwd), bp::std_out > out_file, bp::std_in < bp::null, group, ec);
  else if (!err_file.empty())
    child =
        bp::child(program.string(), bp::args(args), bp::start_dir(cwd), bp::std_err > err_file, bp::std_in < bp::null, group, ec);
  else child = bp::child(program.string(), bp::args(args), bp::start_dir(cwd), bp::std_in < bp::null, group, ec);
  if (ec) {
    out.status = 127;
    out.start_error = run.argv[0] + ": " + ec.message();
    return out;
  }
  const auto t0 = std::chrono::steady_clock::now();
  ChildWaiter waiter(child.id());
  while (child.running(ec)) {
    if (const int sig = interrupt_signal()) {
      out.interrupted_by = sig;
      if (group.valid()) group.terminate(ec);
      break;
    }
    if (run.timeout_s > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > run.timeout_s) {
      out.timed_out = true;
      if (group.valid()) group.terminate(ec);
      break;
    }
    waiter.wait_a_while();
  }
  child.wait(ec);
  if (group.valid()) group.terminate(ec);  // what the tool left running in the background ends with it
  const int native = child.native_exit_code();
  out.status = WIFEXITED(native) ? WEXITSTATUS(native) : 128 + (WIFSIGNALED(native) ? WTERMSIG(native) : 0);
  out.signal = WIFSIGNALED(native) ? WTERMSIG(native) : 0;
  // A stop sent to the process group (timeout(1), a CI runner) reaches the child too, often before
  // this loop sees it: a child that failed while the run was stopping was stopped, not faulty.
  if (out.status != 0 && !out.interrupted_by && !out.timed_out) out.interrupted_by = interrupt_signal();
  return out;
}

int run_process(const std::vector<std::string>& argv, const fs::path& cwd, const fs::path& stdout_file) {
  ToolRun run;
  run.argv = argv;
  run.cwd = cwd;
  run.stdout_file = stdout_file;
  return run_tool(run).status;
}

std::string shell_words(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& a : argv) {
    if (!out.empty()) out += ' ';
    const bool plain = !a.empty() && a.find_first_of(" \t\n'\"\\$`*?[]{}()<>|&;!#~") == std::string::npos;
    if (plain) {
      out += a;
    } else {
      out += '\'';
      for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
      out += '\'';
    }
  }
  return out;
}

std::vector<std::string> split_shell_words(std::string_view text) {
  std::vector<std::string> out;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) out.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\'') {
      const std::size_t close = text.find('\'', i + 1);
      if (close == std::string_view::npos) throw std::invalid_argument("a quote left open in: " + std::string(text));
      word += text.substr(i + 1, close - i - 1);
      i = close;
    } else if (c == '\\' && i + 1 < text.size()) {
      word += text[++i];
    } else {
      word += c;
    }
  }
  if (in_word) out.push_back(std::move(word));
  return out;
}

std::string file_tail(const fs::path& file, std::size_t max_bytes) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  const std::streamoff from = size > static_cast<std::streamoff>(max_bytes) ? size - static_cast<std::streamoff>(max_bytes) : 0;
  in.seekg(from);
  std::string text(static_cast<std::size_t>(size - from), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (from > 0)
    if (const auto nl = text.find('\n'); nl != std::string::npos && nl + 1 < text.size()) text.erase(0, nl + 1);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  return escape_control(text);
}

}  // namespace twinproof
