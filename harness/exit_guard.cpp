#include "harness/exit_guard.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>
#include <unistd.h>

#include "harness/errors.hpp"

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

void guard_exit() {
  if (!guarded.exchange(true)) std::atexit(twinproof_unexpected_exit);
}

void allow_exit() { allowed.store(true); }

ForeignCode::ForeignCode(std::string_view who, std::string_view call) : who_(who), call_(call), outer_(innermost) { innermost = this; }
std::string ForeignCode::name() const { return call_.empty() ? std::string(who_) : fmt::format("{} in {}", who_, call_); }
ForeignCode::~ForeignCode() { innermost = outer_; }

}  // namespace twinproof
