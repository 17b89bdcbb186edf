// Results an engine has finished (pair scores, pair totals), handed out in frame order: the queue
// behind every engine's take().
#pragma once

#include <deque>
#include <optional>

namespace twinproof {

template <class T>
class ReadyQueue {
 public:
  void push(T v) { ready_.push_back(v); }
  // The oldest ready result, or nullopt when none is ready.
  std::optional<T> take() {
    if (ready_.empty()) return std::nullopt;
    const T v = ready_.front();
    ready_.pop_front();
    return v;
  }
  void clear() { ready_.clear(); }

 private:
  std::deque<T> ready_;
};

}  // namespace twinproof
