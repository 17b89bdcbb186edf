#include "extractors/row_bands.hpp"

#include <algorithm>

namespace twinproof {

unsigned resolve_threads(unsigned threads) {
  if (threads != 0) return threads;
  return std::max(1u, std::thread::hardware_concurrency());
}

RowBands::RowBands(unsigned threads) {
  const unsigned n = resolve_threads(threads);
  if (n > 1)
    workers_ = std::make_unique<WorkerThreads>(
        n - 1, [this](unsigned i) { work(static_cast<int>(i) + 1); }, "--threads");
}

RowBands::~RowBands() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  start_.notify_all();
  workers_.reset();  // joins
}

int RowBands::bands_for(int rows, int min_rows) const {
  if (rows <= 0) return 0;
  if (threads() == 1) return 1;
  const int by_size = std::max(1, rows / std::max(1, min_rows));
  return std::min(static_cast<int>(threads()) * kBandsPerThread, by_size);
}

namespace {
int band_begin(int rows, int bands, int b) { return static_cast<int>(static_cast<long long>(rows) * b / bands); }
}  // namespace

void RowBands::take_bands(int slot) {
  for (int b = next_band_.fetch_add(1, std::memory_order_relaxed); b < bands_;
       b = next_band_.fetch_add(1, std::memory_order_relaxed)) {
    try {
      (*job_)(slot, band_begin(rows_, bands_, b), band_begin(rows_, bands_, b + 1));
    } catch (...) {
      std::lock_guard guard(mu_);
      if (!error_) error_ = std::current_exception();
    }
  }
}

void RowBands::run(int rows, const Band& band, int min_rows) {
  const int bands = bands_for(rows, min_rows);
  if (bands == 0) return;
  if (bands == 1) {
    band(0, 0, rows);
    return;
  }
  {
    std::lock_guard lock(mu_);
    job_ = &band;
    rows_ = rows;
    bands_ = bands;
    next_band_.store(0, std::memory_order_relaxed);
    pending_ = threads() - 1;
    error_ = nullptr;
    ++generation_;
  }
  start_.notify_all();
  take_bands(0);
  std::unique_lock lock(mu_);
  done_.wait(lock, [this] { return pending_ == 0; });
  job_ = nullptr;
  if (error_) std::rethrow_exception(error_);
}

void RowBands::work(int slot) {
  unsigned seen = 0;
  std::unique_lock lock(mu_);
  for (;;) {
    start_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    lock.unlock();
    take_bands(slot);  // the job's fields were set under mu_ before generation_ changed
    lock.lock();
    if (--pending_ == 0) done_.notify_one();
  }
}

}  // namespace twinproof
