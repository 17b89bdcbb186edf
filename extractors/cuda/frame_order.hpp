// How a device engine that keeps batches in flight hands its results back in frame order, written
// once for every such engine: a result already queued; else the oldest batch's, once that batch
// is done (waited for when the caller waits); else, when the caller waits and no batch is in
// flight, the partial batch being staged is launched, since the caller needs its results now.
// nullopt: nothing ready yet (wait=false), or nothing outstanding.
#pragma once

#include <deque>
#include <optional>

#include "extractors/ready_queue.hpp"

namespace twinproof::cuda {

// `done(batch)`: whether that batch's work is complete; `collect()` waits for the oldest batch and
// queues its results; `launch()` sends the `staged` frames on their way as a batch.
template <class Result, class Batch, class Done, class Collect, class Launch>
std::optional<Result> take_in_frame_order(bool wait, ReadyQueue<Result>& ready, const std::deque<Batch>& in_flight, Done&& done,
                                          const int& staged, Collect&& collect, Launch&& launch) {
  for (;;) {
    if (auto r = ready.take()) return r;
    if (!in_flight.empty() && (wait || done(in_flight.front()))) {
      collect();
      continue;
    }
    if (wait && in_flight.empty() && staged > 0) {
      launch();
      continue;
    }
    return std::nullopt;
  }
}

}  // namespace twinproof::cuda
