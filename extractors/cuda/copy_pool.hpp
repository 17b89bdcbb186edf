// A few persistent threads that copy rows into pinned staging memory in parallel: one thread's
// memcpy is far slower than host-to-device DMA, so a single-threaded staging copy would cap the
// end-to-end frame rate well below the PCIe link. The threads are a RowBands pool.
#pragma once

#include <cstddef>
#include <cstdint>

#include "extractors/row_bands.hpp"

namespace twinproof::cuda {

class CopyPool {
 public:
  // `threads` helpers beside the caller's own thread.
  explicit CopyPool(unsigned threads) : bands_(threads + 1) {}

  // Copies `rows` rows of `row_bytes` from src (pitch src_stride) to dst (pitch row_bytes),
  // split over the pool; returns when every row is copied.
  void copy_rows(std::uint8_t* dst, const std::uint8_t* src, std::ptrdiff_t src_stride, std::size_t row_bytes, std::size_t rows);

 private:
  RowBands bands_;
};

}  // namespace twinproof::cuda
