// A few persistent threads that copy rows into pinned staging memory in parallel: one thread's
// memcpy is far slower than host-to-device DMA, so a single-threaded staging copy would cap the
// end-to-end frame rate well below the PCIe link.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace twinproof::cuda {

class CopyPool {
 public:
  explicit CopyPool(unsigned threads);
  ~CopyPool();
  CopyPool(const CopyPool&) = delete;
  CopyPool& operator=(const CopyPool&) = delete;

  // Copies `rows` rows of `row_bytes` from src (pitch src_stride) to dst (pitch row_bytes),
  // split over the pool; returns when every row is copied.
  void copy_rows(std::uint8_t* dst, const std::uint8_t* src, std::ptrdiff_t src_stride, std::size_t row_bytes,
                 std::size_t rows);

 private:
  void worker(unsigned index);
  void run_parts(const std::function<void(unsigned part, unsigned parts)>& job);

  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable start_, done_;
  const std::function<void(unsigned, unsigned)>* job_ = nullptr;
  unsigned generation_ = 0, pending_ = 0;
  bool stop_ = false;
};

}  // namespace twinproof::cuda
