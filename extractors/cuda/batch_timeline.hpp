// The timeline of a device engine's batches, written once for every CUDA twin: an upload stream
// and a compute stream; per batch slot the events that order them (uploads done, compute timed,
// results back); the pictures a slot's uploads read in place, held until it is collected; the
// batches in flight in launch order; and their results, handed back in frame order. An engine
// stages its frames' uploads on upload(), then launch()es a slot with its kernels and the copies of
// its results, and collect()s the oldest batch when it needs the slot again or a result.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "extractors/cuda/runtime.hpp"
#include "extractors/ready_queue.hpp"

namespace twinproof::cuda {

template <class Result, int kSlots>
class BatchTimeline {
 public:
  struct Batch {
    int slot = 0;
    int count = 0;  // the results it brings back
  };

  // Streams and events on the current device, nothing in flight: an engine's init calls it after
  // use_device.
  void reset() {
    upload_ = std::make_unique<Stream>();
    compute_ = std::make_unique<Stream>();
    for (int k = 0; k < kSlots; ++k) {
      uploaded_[k] = std::make_unique<Event>();
      done_[k] = std::make_unique<Event>();
      start_[k] = std::make_unique<Event>(true);
      stop_[k] = std::make_unique<Event>(true);
      kept_[k].clear();
    }
    in_flight_.clear();
    ready_.clear();
    device_ms_ = 0;
  }

  cudaStream_t upload() const { return upload_->get(); }
  cudaStream_t compute() const { return compute_->get(); }
  std::size_t in_flight() const { return in_flight_.size(); }
  double device_ms() const { return device_ms_; }
  // Waits for every upload queued so far (a picture read in place whose owner does not keep it).
  void finish_uploads() const { upload_->sync(); }

  // Holds samples that slot `slot`'s uploads read in place until the slot is collected.
  void keep(int slot, std::shared_ptr<const void> samples) { kept_[slot].push_back(std::move(samples)); }

  // Sends slot `slot` on its way once every upload queued so far is done: `kernels(stream)` is
  // timed as its device time, then `read_back(stream)` queues the copies of its `count` results.
  template <class Kernels, class ReadBack>
  void launch(int slot, int count, Kernels&& kernels, ReadBack&& read_back) {
    const cudaStream_t s = compute();
    uploaded_[slot]->record(upload());
    TP_CUDA(cudaStreamWaitEvent(s, uploaded_[slot]->get(), 0));
    start_[slot]->record(s);
    kernels(s);
    stop_[slot]->record(s);
    read_back(s);
    done_[slot]->record(s);
    in_flight_.push_back({slot, count});
  }

  // Waits for the oldest batch, lets its samples go and passes it to `results(batch, ready)`,
  // which queues its results in frame order.
  template <class Results>
  void collect(Results&& results) {
    const Batch b = in_flight_.front();
    in_flight_.pop_front();
    done_[b.slot]->sync();
    kept_[b.slot].clear();  // uploaded: the samples go back to their owner
    device_ms_ += elapsed_ms(*start_[b.slot], *stop_[b.slot]);
    results(b, ready_);
  }

  // The next result in frame order: one already queued; else the oldest batch's, once it is done
  // (waited for when the caller waits); else, when the caller waits and nothing is in flight, the
  // `staged` frames not yet launched go now, since the caller needs their results. nullopt:
  // nothing ready yet (wait=false), or nothing outstanding. `collect()` and `launch()` are the
  // engine's own (they know its slots and buffers); `staged` is the engine's count, which launch()
  // sets back to 0.
  template <class Collect, class Launch>
  std::optional<Result> take(bool wait, const int& staged, Collect&& collect, Launch&& launch) {
    for (;;) {
      if (auto r = ready_.take()) return r;
      if (!in_flight_.empty() && (wait || done_[in_flight_.front().slot]->done())) {
        collect();
        continue;
      }
      if (wait && in_flight_.empty() && staged > 0) {
        launch();
        continue;
      }
      return std::nullopt;
    }
  }

 private:
  // Declared first, so released last: after the streams that may still read them.
  std::vector<std::shared_ptr<const void>> kept_[kSlots];  // samples uploaded from in place, per slot
  std::unique_ptr<Stream> upload_, compute_;
  std::unique_ptr<Event> uploaded_[kSlots], done_[kSlots], start_[kSlots], stop_[kSlots];
  std::deque<Batch> in_flight_;
  ReadyQueue<Result> ready_;
  double device_ms_ = 0;
};

}  // namespace twinproof::cuda
