// Work split over the rows of a plane: contiguous bands of rows on threads an engine owns. A band
// is computed exactly as one thread would compute those rows (each row's own arithmetic, and the
// order of every sum inside it, are untouched); only which thread computes which rows changes.
// So a backend whose rows are independent of each other gives the same bits with any number of
// threads, and what combines rows (a plane total) stays sequential, after the bands.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace twinproof {

class RowBands {
 public:
  // `threads` bands at most run at once: 1 runs everything on the caller's thread (no thread is
  // started), 0 means one per hardware thread.
  explicit RowBands(unsigned threads);
  ~RowBands();
  RowBands(const RowBands&) = delete;
  RowBands& operator=(const RowBands&) = delete;

  unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }
  // Fewer rows than this per band cost a plane's passes more in hand-over than they save.
  static constexpr int kMinRows = 16;
  // Calls band(index, begin, end) for each band of [0, rows) (band 0 on the caller's thread) and
  // returns when every band is done; the first exception a band threw is rethrown. There are at
  // most threads() bands, none shorter than `min_rows` unless there is only one.
  using Band = std::function<void(int index, int begin, int end)>;
  void run(int rows, const Band& band, int min_rows = kMinRows);

 private:
  int bands_for(int rows, int min_rows) const;
  void work(int index);

  std::vector<std::jthread> workers_;
  std::mutex mu_;
  std::condition_variable start_, done_;
  unsigned generation_ = 0;
  bool stop_ = false;
  // The job of the current generation.
  const Band* job_ = nullptr;
  int rows_ = 0, bands_ = 0;
  unsigned pending_ = 0;
  std::exception_ptr error_;
};

// The number of threads `threads` stands for (0: the hardware's, at least 1).
unsigned resolve_threads(unsigned threads);

}  // namespace twinproof
