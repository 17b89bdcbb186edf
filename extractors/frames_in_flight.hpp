// Frames in flight on a host engine: several copies of one engine, each with its share of the
// threads and a thread of its own, each computing every copies-th frame; the results come back in
// frame order. A frame's arithmetic is its engine's whichever copy computes it, so the bits do not
// depend on the number of copies. What changes is the waiting: a frame's passes end at barriers
// of every thread it runs on (adm has three per wavelet scale, and scale 3 of a 1080p frame is 68
// rows), so one frame on 16 threads leaves most of them idle at each barrier, where four frames on
// four threads each keep them busy.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "extractors/extractor.hpp"
#include "extractors/row_bands.hpp"
#include "extractors/worker_threads.hpp"

namespace twinproof {

// How a host engine's threads are spent: `copies` frames at once, each on `threads_each`.
struct InFlightPlan {
  unsigned copies = 1;
  unsigned threads_each = 1;
};
// One frame per 4 of `threads` (0: the hardware's), each on its share; a single frame when the
// stages are captured (repro inspects the latest frame, which must be the one just submitted) or
// there are fewer than 8 threads.
inline InFlightPlan plan_frames_in_flight(unsigned threads, bool capture_stages) {
  const unsigned t = resolve_threads(threads);
  if (capture_stages || t < 8) return {1, t};
  const unsigned copies = t / 4;
  return {copies, t / copies};
}

// `Interface` is a feature's engine interface: a PairEngine<Sums> whose init takes the format and
// the feature's `Interface::Params`. `Engine` is the host engine it runs copies of.
template <class Interface, class Engine>
class FramesInFlight final : public Interface {
 public:
  using Sums = typename Interface::Result;

  // `planes`: the planes the engine reads (copied per frame unless the picture's owner keeps them).
  FramesInFlight(const ExtractorContext& ctx, InFlightPlan plan, int planes) : planes_(planes) {
    ExtractorContext each = ctx;
    each.threads = plan.threads_each;
    for (unsigned i = 0; i < std::max(1u, plan.copies); ++i)
      slots_.push_back(std::make_unique<Slot>(std::make_unique<Engine>(each)));
    workers_ = std::make_unique<WorkerThreads>(
        static_cast<unsigned>(slots_.size()), [this](unsigned i) { work(*slots_[i]); }, "--threads");
  }
  ~FramesInFlight() override {
    for (auto& s : slots_) {
      {
        const std::lock_guard lock(s->mu);
        s->stop = true;
      }
      s->cv.notify_all();
    }
    workers_.reset();  // joins
  }
  FramesInFlight(const FramesInFlight&) = delete;
  FramesInFlight& operator=(const FramesInFlight&) = delete;

  void submit(const PictureView& ref, const PictureView& dist) override {
    Slot& s = *slots_[submitted_ % slots_.size()];
    std::unique_lock lock(s.mu);
    s.cv.wait(lock, [&] { return s.jobs.size() < kQueued || s.error; });
    rethrow(s);
    Job job;
    if (!s.spare.empty()) {  // its buffers, already the frame's size
      job = std::move(s.spare.back());
      s.spare.pop_back();
    }
    hold(ref, job.ref);
    hold(dist, job.dist);
    s.jobs.push_back(std::move(job));
    lock.unlock();
    s.cv.notify_all();
    ++submitted_;
  }

  // On every copy, once none has a frame left: what init starts is a new clip.
  void init(const Format& fmt, const typename Interface::Params& params) override {
    for (auto& s : slots_) {
      std::unique_lock lock(s->mu);
      s->cv.wait(lock, [&] { return s->jobs.empty(); });
      s->done.clear();
      s->error = nullptr;
      s->engine->init(fmt, params);
    }
    submitted_ = taken_ = 0;
  }

  std::optional<Sums> take(bool wait) override {
    if (taken_ == submitted_) return std::nullopt;
    Slot& s = *slots_[taken_ % slots_.size()];
    std::unique_lock lock(s.mu);
    if (wait) s.cv.wait(lock, [&] { return !s.done.empty() || s.error; });
    if (s.done.empty()) {
      rethrow(s);
      return std::nullopt;
    }
    Sums v = std::move(s.done.front());
    s.done.pop_front();
    ++taken_;
    return v;
  }

 private:
  // A picture as a copy holds it: the owner's samples where it keeps them, else a copy.
  struct Held {
    PictureView view;
    std::vector<std::uint8_t> bytes[3];
  };
  struct Job {
    Held ref, dist;
  };
  // Frames a copy may have waiting besides the one it computes: the caller runs ahead of a slow
  // copy instead of waiting on it, so that the other features of a model (their own copies,
  // submitted by the same caller) keep getting frames meanwhile.
  static constexpr std::size_t kQueued = 3;
  struct Slot {
    explicit Slot(std::unique_ptr<Engine> e) : engine(std::move(e)) {}
    std::unique_ptr<Engine> engine;
    std::mutex mu;
    std::condition_variable cv;
    std::deque<Job> jobs;    // given and not finished; the front one is being computed
    std::vector<Job> spare;  // finished ones, whose buffers the next frames reuse
    bool stop = false;
    std::deque<Sums> done;
    std::exception_ptr error;
  };

  void hold(const PictureView& pic, Held& h) const {
    h.view = pic;
    if (pic.keep) return;  // unchanged for as long as the view holds it
    for (int p = 0; p < std::min(planes_, pic.fmt.planes()); ++p) {
      const PlaneSize size = stored_plane_size(pic.fmt, p);
      const std::size_t row = static_cast<std::size_t>(size.w) * pic.fmt.bytes_per_sample();
      h.bytes[p].resize(row * size.h);
      for (int y = 0; y < size.h; ++y) std::memcpy(h.bytes[p].data() + row * y, pic.data[p] + pic.stride[p] * y, row);
      h.view.data[p] = h.bytes[p].data();
      h.view.stride[p] = static_cast<std::ptrdiff_t>(row);
    }
    for (int p = planes_; p < 3; ++p) h.view.data[p] = nullptr;  // the engine reads no more than its planes
  }

  static void rethrow(Slot& s) {
    if (!s.error) return;
    std::exception_ptr e = s.error;
    s.error = nullptr;
    std::rethrow_exception(e);
  }

  void work(Slot& s) {
    std::unique_lock lock(s.mu);
    for (;;) {
      s.cv.wait(lock, [&] { return !s.jobs.empty() || s.stop; });
      if (s.stop) return;
      Job& job = s.jobs.front();  // stays put: the caller only appends
      lock.unlock();
      std::optional<Sums> result;
      std::exception_ptr error;
      try {
        s.engine->submit(job.ref.view, job.dist.view);
        result = s.engine->take(true);
        if (!result) throw std::logic_error("frames in flight: an engine returned no sums for the frame it was given");
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      if (result) s.done.push_back(std::move(*result));
      if (error) s.error = error;
      Job finished = std::move(s.jobs.front());
      s.jobs.pop_front();
      finished.ref.view.keep.reset();  // the owner's samples are theirs again
      finished.dist.view.keep.reset();
      if (s.spare.size() < kQueued) s.spare.push_back(std::move(finished));
      s.cv.notify_all();
    }
  }

  int planes_;
  std::vector<std::unique_ptr<Slot>> slots_;
  unsigned long long submitted_ = 0, taken_ = 0;
  std::unique_ptr<WorkerThreads> workers_;  // one per slot; last: started once the slots exist
};

// The engine of a host twin for `ctx`: copies of `Engine` in flight where the plan has more than
// one, else the engine itself. `planes`: the planes it reads.
template <class Interface, class Engine>
std::unique_ptr<Interface> host_engine_in_flight(const ExtractorContext& ctx, int planes) {
  const InFlightPlan plan = plan_frames_in_flight(ctx.threads, ctx.capture_stages);
  if (plan.copies <= 1) return std::make_unique<Engine>(ctx);
  return std::make_unique<FramesInFlight<Interface, Engine>>(ctx, plan, planes);
}

}  // namespace twinproof
