#include "extractors/cuda/merged_upload.hpp"

#include "extractors/cuda/runtime.hpp"

namespace twinproof::cuda {

namespace {
// The largest host stride a run takes (a frame may hold 1 GiB), well within a copy's pitch limit.
constexpr std::size_t kMaxPitch = std::size_t{1} << 30;
}  // namespace

bool MergedUpload::continues(const std::uint8_t* dst, const std::uint8_t* src, std::size_t bytes, const void* owner,
                             cudaStream_t stream) const {
  if (count_ == 0 || count_ >= max_ || bytes != bytes_ || stream != stream_) return false;
  if (owner == nullptr || owner != owner_) return false;
  if (dst != dst_ + bytes_ * static_cast<std::size_t>(count_)) return false;
  if (src <= src_) return false;
  const auto step = static_cast<std::size_t>(src - src_);
  if (count_ == 1) return step >= bytes_ && step <= kMaxPitch;
  return step == pitch_ * static_cast<std::size_t>(count_);
}

void MergedUpload::add(std::uint8_t* dst, const std::uint8_t* src, std::size_t src_pitch, std::size_t row_bytes, std::size_t rows,
                       const void* owner, cudaStream_t stream) {
  if (src_pitch != row_bytes) {  // padded rows: a plane no run can take
    flush();
    TP_CUDA(cudaMemcpy2DAsync(dst, row_bytes, src, src_pitch, row_bytes, rows, cudaMemcpyHostToDevice, stream));
    return;
  }
  const std::size_t bytes = row_bytes * rows;
  if (continues(dst, src, bytes, owner, stream)) {
    if (count_ == 1) pitch_ = static_cast<std::size_t>(src - src_);
    ++count_;
    if (count_ == max_) flush();
    return;
  }
  flush();
  dst_ = dst;
  src_ = src;
  bytes_ = bytes;
  owner_ = owner;
  stream_ = stream;
  count_ = 1;
  if (max_ <= 1) flush();
}

void MergedUpload::flush() {
  if (count_ == 0) return;
  if (count_ == 1) {
    TP_CUDA(cudaMemcpyAsync(dst_, src_, bytes_, cudaMemcpyHostToDevice, stream_));
  } else {
    TP_CUDA(
        cudaMemcpy2DAsync(dst_, bytes_, src_, pitch_, bytes_, static_cast<std::size_t>(count_), cudaMemcpyHostToDevice, stream_));
    merged_ += static_cast<std::uint64_t>(count_);
  }
  count_ = 0;
}

}  // namespace twinproof::cuda
