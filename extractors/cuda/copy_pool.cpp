#include "extractors/cuda/copy_pool.hpp"

#include <cstring>

namespace twinproof::cuda {

CopyPool::CopyPool(unsigned threads) {
  for (unsigned i = 0; i < threads; ++i) threads_.emplace_back([this, i] { worker(i); });
}

CopyPool::~CopyPool() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  start_.notify_all();
  for (auto& t : threads_) t.join();
}

void CopyPool::worker(unsigned index) {
  unsigned seen = 0;
  for (;;) {
    const std::function<void(unsigned, unsigned)>* job = nullptr;
    {
      std::unique_lock lock(mu_);
      start_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      job = job_;
    }
    (*job)(index + 1, static_cast<unsigned>(threads_.size()) + 1);
    std::lock_guard lock(mu_);
    if (--pending_ == 0) done_.notify_all();
  }
}

void CopyPool::run_parts(const std::function<void(unsigned, unsigned)>& job) {
  if (threads_.empty()) {
    job(0, 1);
    return;
  }
  {
    std::lock_guard lock(mu_);
    job_ = &job;
    pending_ = static_cast<unsigned>(threads_.size());
    ++generation_;
  }
  start_.notify_all();
  job(0, static_cast<unsigned>(threads_.size()) + 1);  // the caller takes part 0
  std::unique_lock lock(mu_);
  done_.wait(lock, [&] { return pending_ == 0; });
}

void CopyPool::copy_rows(std::uint8_t* dst, const std::uint8_t* src, std::ptrdiff_t src_stride, std::size_t row_bytes,
                         std::size_t rows) {
  const auto copy = [&](std::size_t first, std::size_t last) {
    if (src_stride == static_cast<std::ptrdiff_t>(row_bytes)) {
      std::memcpy(dst + first * row_bytes, src + first * row_bytes, (last - first) * row_bytes);
      return;
    }
    for (std::size_t r = first; r < last; ++r) std::memcpy(dst + r * row_bytes, src + r * src_stride, row_bytes);
  };
  // Small planes: one memcpy beats waking the pool.
  if (rows * row_bytes < (1u << 18) || threads_.empty()) {
    copy(0, rows);
    return;
  }
  run_parts([&](unsigned part, unsigned parts) { copy(rows * part / parts, rows * (part + 1) / parts); });
}

}  // namespace twinproof::cuda
