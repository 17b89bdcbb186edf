#include "harness/support/interrupt.hpp"

#include <atomic>
#include <csignal>
#include <ctime>

#include <unistd.h>

namespace twinproof {
namespace {

std::atomic<int> requested{0};
std::atomic<long long> requested_at_ns{0};  // 0 until the first request's time is stored
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<long long>::is_always_lock_free,
              "the handler stores into them");

// A signal this soon after the first is the same request delivered twice: timeout(1) and CI
// runners signal both the process and its process group, so one stop arrives as two signals.
constexpr long long kSameRequestNs = 1'000'000'000;

long long monotonic_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);  // async-signal-safe
  return static_cast<long long>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

extern "C" void on_interrupt(int sig) {
  const long long now = monotonic_ns();
  int none = 0;
  if (requested.compare_exchange_strong(none, sig)) {
    requested_at_ns.store(now);
    static constexpr char kNote[] =
        "\ntwinproof: stopping: finishing the records and reports (again, a second later, to quit at once)\n";
    (void)!::write(2, kNote, sizeof kNote - 1);
    return;
  }
  const long long first = requested_at_ns.load();
  if (first == 0 || now - first < kSameRequestNs) return;  // the first request, delivered again
  ::_exit(128 + sig);                                      // a second request
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  ::sigaction(SIGHUP, &sa, nullptr);  // a closed terminal or a CI runner's hang-up is a stop, too
}

int interrupt_signal() { return requested.load(); }

}  // namespace twinproof
