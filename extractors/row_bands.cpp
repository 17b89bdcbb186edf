#include "extractors/row_bands.hpp"

#include <algorithm>

namespace twinproof {

unsigned resolve_threads(unsigned threads) {
  if (threads != 0) return threads;
  return std::max(1u, std::thread::hardware_concurrency());
}

RowBands::RowBands(unsigned threads) {
  const unsigned n = resolve_threads(threads);
  workers_.reserve(n - 1);
  for (unsigned i = 1; i < n; ++i) workers_.emplace_back([this, i] { work(static_cast<int>(i)); });
}

RowBands::~RowBands() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  start_.notify_all();
  workers_.clear();  // joins
}

int RowBands::bands_for(int rows, int min_rows) const {
  if (rows <= 0) return 0;
  const int by_size = std::max(1, rows / std::max(1, min_rows));
  return std::min(static_cast<int>(threads()), by_size);
}

namespace {
int band_begin(int rows, int bands, int b) { return static_cast<int>(static_cast<long long>(rows) * b / bands); }
}  // namespace

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
    pending_ = static_cast<unsigned>(workers_.size());
    error_ = nullptr;
    ++generation_;
  }
  start_.notify_all();
  std::exception_ptr mine;
  try {
    band(0, 0, band_begin(rows, bands, 1));
  } catch (...) {
    mine = std::current_exception();
  }
  std::unique_lock lock(mu_);
  done_.wait(lock, [this] { return pending_ == 0; });
  job_ = nullptr;
  if (mine) std::rethrow_exception(mine);
  if (error_) std::rethrow_exception(error_);
}

void RowBands::work(int index) {
  unsigned seen = 0;
  std::unique_lock lock(mu_);
  for (;;) {
    start_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    const Band* job = job_;
    const int rows = rows_, bands = bands_;
    lock.unlock();
    if (index < bands) {
      try {
        (*job)(index, band_begin(rows, bands, index), band_begin(rows, bands, index + 1));
      } catch (...) {
        std::lock_guard guard(mu_);
        if (!error_) error_ = std::current_exception();
      }
    }
    lock.lock();
    if (--pending_ == 0) done_.notify_one();
  }
}

}  // namespace twinproof
