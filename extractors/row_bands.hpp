// Work split over the rows of a plane: contiguous bands of rows on threads an engine owns. A band
// is computed exactly as one thread would compute those rows (each row's own arithmetic, and the
// order of every sum inside it, are untouched); only which thread computes which rows changes.
// So a backend whose rows are independent of each other gives the same bits with any number of
// threads, and what combines rows (a plane total) stays sequential, after the bands.
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "extractors/worker_threads.hpp"

namespace twinproof {

class RowBands {
 public:
  // `threads` bands at most run at once: 1 runs everything on the caller's thread (no thread is
  // started), 0 means one per hardware thread.
  explicit RowBands(unsigned threads);
  ~RowBands();
  RowBands(const RowBands&) = delete;
  RowBands& operator=(const RowBands&) = delete;

  unsigned threads() const { return workers_ ? static_cast<unsigned>(workers_->size()) + 1 : 1; }
  // Fewer rows than this per band cost a plane's passes more in hand-over than they save.
  static constexpr int kMinRows = 16;
  // Bands per thread: a plane is cut finer than one band per thread, and each thread takes the
  // next band left when it is free, so a thread slowed by another process (or by the harness's
  // own readers, on a machine with few cores) leaves its share to the others instead of holding
  // every thread at the end of the plane.
  static constexpr int kBandsPerThread = 4;
  // Calls band(slot, begin, end) for each band of [0, rows) and returns when every band is done;
  // the first exception a band threw is rethrown. `slot` is the thread's (0: the caller's, up to
  // threads() - 1): a slot runs its bands one after another, so per-slot scratch is never shared.
  // With one thread the whole range is one band; otherwise no band is shorter than `min_rows`
  // unless there is only one.
  using Band = std::function<void(int slot, int begin, int end)>;
  void run(int rows, const Band& band, int min_rows = kMinRows);

 private:
  int bands_for(int rows, int min_rows) const;
  // Runs the bands left of the current job on `slot`; the first exception is kept in error_.
  void take_bands(int slot);
  void work(int slot);

  std::mutex mu_;
  std::condition_variable start_, done_;
  unsigned generation_ = 0;
  bool stop_ = false;
  // The job of the current generation.
  const Band* job_ = nullptr;
  int rows_ = 0, bands_ = 0;
  std::atomic<int> next_band_{0};
  unsigned pending_ = 0;
  std::exception_ptr error_;
  std::unique_ptr<WorkerThreads> workers_;  // last: started once everything above exists
};

// The number of threads `threads` stands for (0: the hardware's, at least 1).
unsigned resolve_threads(unsigned threads);

}  // namespace twinproof
