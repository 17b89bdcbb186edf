// A task that hangs inside a kernel or a driver call cannot be interrupted from its own thread.
// The watchdog watches the tasks in flight; once one has run past its limit plus a grace period,
// it calls on_hang with that task's name (once), which must end the process: the thread that
// hung is never coming back. It also beats: every heartbeat_s while a task has run that long it
// calls on_heartbeat with the longest-running one, so that a log without a terminal shows the run
// alive while a long cell runs.
#pragma once

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace twinproof {

// A watchdog's heartbeat: `beat(longest task, its seconds, tasks in flight)` every `every_s` (> 0)
// while a task has run for at least that long.
struct WatchdogHeartbeat {
  double every_s = 0;
  std::function<void(const std::string& longest, double seconds, std::size_t running)> beat;
};

class HangWatchdog {
 public:
  // limit_s <= 0: the watchdog watches nothing and starts no thread. grace_s < 0: the default
  // grace, max(10 s, limit_s).
  using Heartbeat = WatchdogHeartbeat;
  HangWatchdog(double limit_s, std::function<void(const std::string& stuck)> on_hang, double grace_s = -1,
               Heartbeat heartbeat = {});
  ~HangWatchdog();
  HangWatchdog(const HangWatchdog&) = delete;
  HangWatchdog& operator=(const HangWatchdog&) = delete;

  std::size_t begin(const std::string& name);  // a task starts; the slot for end()
  void end(std::size_t slot);                  // it finished (or was abandoned)
  double grace_s() const { return grace_s_; }

 private:
  struct Running {
    std::string name;
    std::chrono::steady_clock::time_point since;
    bool active;
  };
  void watch();

  const double limit_s_;
  const double grace_s_;
  std::function<void(const std::string&)> on_hang_;
  const Heartbeat heartbeat_;
  std::mutex mu_;
  std::deque<Running> running_;
  std::atomic<bool> finished_{false};
  std::thread thread_;
};

}  // namespace twinproof
