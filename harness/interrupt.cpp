#include "harness/interrupt.hpp"

#include <atomic>
#include <csignal>

#include <unistd.h>

namespace twinproof {
namespace {

std::atomic<int> requested{0};
static_assert(std::atomic<int>::is_always_lock_free, "the handler stores into it");

extern "C" void on_interrupt(int sig) {
  int none = 0;
  if (!requested.compare_exchange_strong(none, sig)) ::_exit(128 + sig);  // the second request
  static constexpr char kNote[] = "\ntwinproof: stopping: finishing the records and reports (again to quit at once)\n";
  (void)!::write(2, kNote, sizeof kNote - 1);
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa{};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

int interrupt_signal() { return requested.load(); }

}  // namespace twinproof
