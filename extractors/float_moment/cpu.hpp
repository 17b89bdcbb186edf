// float_moment's scalar CPU engine (the reference): the contract line by line, each picture's
// samples and squares added to their own double in raster order.
#pragma once

#include <vector>

#include "extractors/float_moment/frame_loop.hpp"
#include "extractors/ready_queue.hpp"

namespace twinproof::float_moment {

// The reference's four sums of one frame pair's luma, their running values after each row kept
// in `after_row` (h entries).
MomentSums sequential_sums(const PictureView& ref, const PictureView& dist, std::vector<MomentSums>& after_row);

class CpuMomentEngine : public MomentEngine {
 public:
  explicit CpuMomentEngine(const ExtractorContext& ctx) : ctx_(ctx) {}
  void init(const Format& fmt) override;
  void submit(const PictureView& ref, const PictureView& dist) override;
  std::optional<MomentSums> take(bool) override { return queue_.take(); }
  std::optional<Probe> inspect(std::string_view stage) const override;

 protected:
  // One frame pair's sums, the running sums after each row kept: the reference's loop.
  virtual MomentSums sums(const PictureView& ref, const PictureView& dist, std::vector<MomentSums>& after_row) const {
    return sequential_sums(ref, dist, after_row);
  }

 private:
  const ExtractorContext ctx_;
  std::vector<MomentSums> after_row_;
  MomentSums sums_{};
  bool have_frame_ = false;
  ReadyQueue<MomentSums> queue_;
};

}  // namespace twinproof::float_moment
