#include "harness/support/exit_guard.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>
#include <unistd.h>

#include "harness/support/errors.hpp"

namespace twinproof {
namespace {

std::atomic<bool> guarded{false}, allowed{false};
thread_local ForeignCode* innermost = nullptr;  // exit() runs its handlers on the calling thread

}  // namespace

// Runs inside exit(), on the thread that called it.
extern "C" void twinproof_unexpected_exit() {
  if (!guarded.load() || allowed.load()) return;
  const std::string who = innermost != nullptr ? innermost->name() : std::string("code twinproof does not own");
  fmt::print(stderr,
             "\ntwinproof: error: {} called exit(), which would end the run without its verdicts; outside code must return a "
             "status, never end the process (exit status {})\n",
             who, kExitError);
  std::fflush(stderr);
  ::_exit(kExitError);
}

namespace {

// glibc's exit() first runs the calling thread's thread_local destructors, then the atexit
// handlers and static destructors (those of statics first used after guard_exit() ran before its
// handler). A plugin's exit() on a worker thread would otherwise destroy statics that the run's
// other threads still read. This watch, armed on the thread of every call into foreign code, ends
// the process before any of that runs.
struct ForeignExitWatch {
  ForeignExitWatch() = default;
  ForeignExitWatch(const ForeignExitWatch&) = delete;
  ForeignExitWatch& operator=(const ForeignExitWatch&) = delete;
  ~ForeignExitWatch() {
    if (innermost != nullptr) twinproof_unexpected_exit();  // the thread ends inside foreign code: exit()
  }
};
thread_local ForeignExitWatch watch;

}  // namespace

void guard_exit() {
  if (!guarded.exchange(true)) std::atexit(twinproof_unexpected_exit);
}

void allow_exit() { allowed.store(true); }

ForeignCode::ForeignCode(std::string_view who, std::string_view call) : who_(who), call_(call), outer_(innermost) {
  static_cast<void>(&watch);  // constructs this thread's watch, so that exit() runs its destructor first
  innermost = this;
}
std::string ForeignCode::name() const { return call_.empty() ? std::string(who_) : fmt::format("{} in {}", who_, call_); }
ForeignCode::~ForeignCode() { innermost = outer_; }

}  // namespace twinproof
