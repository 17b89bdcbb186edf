#include "extractors/cuda/copy_pool.hpp"

#include <cstring>

namespace twinproof::cuda {

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
  if (rows * row_bytes < (1u << 18) || bands_.threads() == 1) {
    copy(0, rows);
    return;
  }
  // Any split of the rows will do: a band of one row is still a large copy here.
  bands_.run(
      static_cast<int>(rows), [&](int, int first, int last) { copy(first, last); }, 1);
}

}  // namespace twinproof::cuda
