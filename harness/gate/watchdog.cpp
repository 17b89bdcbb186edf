#include "harness/gate/watchdog.hpp"

#include <algorithm>

namespace twinproof {
namespace {
double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

// The grace doubles short limits (at least 10 s): a cell that overran its limit a little is
// reported by its own worker as a timeout; only one that does not come back at all is a hang.
HangWatchdog::HangWatchdog(double limit_s, std::function<void(const std::string&)> on_hang, double grace_s, Heartbeat heartbeat)
    : limit_s_(limit_s),
      grace_s_(grace_s >= 0 ? grace_s : std::max(10.0, limit_s)),
      on_hang_(std::move(on_hang)),
      heartbeat_(std::move(heartbeat)) {
  if (limit_s_ > 0 || heartbeat_.every_s > 0) thread_ = std::thread([this] { watch(); });
}

HangWatchdog::~HangWatchdog() {
  finished_ = true;
  if (thread_.joinable()) thread_.join();
}

std::size_t HangWatchdog::begin(const std::string& name) {
  std::lock_guard lock(mu_);
  running_.push_back({name, std::chrono::steady_clock::now(), true});
  return running_.size() - 1;
}

void HangWatchdog::end(std::size_t slot) {
  std::lock_guard lock(mu_);
  running_[slot].active = false;
}

void HangWatchdog::watch() {
  auto last_beat = std::chrono::steady_clock::now();
  while (!finished_) {
    std::this_thread::sleep_for(std::chrono::milliseconds(grace_s_ < 1 ? 10 : 200));
    std::string stuck, longest;
    double longest_s = -1;
    std::size_t running = 0;
    {
      std::lock_guard lock(mu_);
      for (const Running& r : running_) {
        if (!r.active) continue;
        const double s = since(r.since);
        if (limit_s_ > 0 && s > limit_s_ + grace_s_) stuck = r.name;
        ++running;
        if (s > longest_s) {
          longest_s = s;
          longest = r.name;
        }
      }
    }
    if (!stuck.empty()) {
      on_hang_(stuck);
      return;
    }
    if (heartbeat_.every_s > 0 && since(last_beat) >= heartbeat_.every_s) {
      last_beat = std::chrono::steady_clock::now();
      // Only a cell that has run a whole interval is news: short ones print their own lines.
      if (running > 0 && longest_s >= heartbeat_.every_s) heartbeat_.beat(longest, longest_s, running);
    }
  }
}

}  // namespace twinproof
