// psnr's scalar CPU engine (the reference): each row's squared error summed left to right in 64
// bits, each plane's rows top to bottom. The rows of a plane may be split over threads; integer
// sums give the same bits in any order.
#pragma once

#include <vector>

#include "extractors/psnr/frame_loop.hpp"
#include "extractors/ready_queue.hpp"
#include "extractors/row_bands.hpp"

namespace twinproof::psnr {

// One plane's rows of one frame pair, for a row kernel.
struct PlaneJob {
  int plane;  // 0 Y, 1 U, 2 V
  const std::uint8_t* ref;
  const std::uint8_t* dist;
  std::ptrdiff_t ref_stride, dist_stride;
  int w, h;
  bool wide;               // 16-bit samples
  std::uint64_t* row_sse;  // h out
  int first_row, end_row;  // [first_row, end_row) of h
};

class CpuSseEngine : public SseEngine {
 public:
  explicit CpuSseEngine(const ExtractorContext& ctx) : ctx_(ctx), bands_(ctx.threads) {}
  void init(const Format& fmt, int planes) override;
  void submit(const PictureView& ref, const PictureView& dist) override;
  std::optional<PlaneSse> take(bool) override { return queue_.take(); }
  std::optional<Probe> inspect(std::string_view stage) const override;

 protected:
  // The row SSE of rows [first_row, end_row) of one plane: the reference's row by row loop.
  virtual void rows(const PlaneJob& job);

 private:
  const ExtractorContext ctx_;
  RowBands bands_;
  Format fmt_{};
  int planes_ = 3;
  std::vector<std::uint64_t> rows_[3];  // the latest frame's row SSE per plane
  PlaneSse sse_{};
  bool have_frame_ = false;
  ReadyQueue<PlaneSse> queue_;
};

}  // namespace twinproof::psnr
