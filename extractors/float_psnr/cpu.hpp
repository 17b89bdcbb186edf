// float_psnr's scalar CPU engine (the reference): the contract line by line, every sample's
// squared difference added to one double in raster order.
#pragma once

#include <vector>

#include "extractors/float_psnr/frame_loop.hpp"
#include "extractors/ready_queue.hpp"

namespace twinproof::float_psnr {

// The reference's sum of one frame pair's luma, its running value after each row kept in
// `after_row` (h entries).
double sequential_noise(const PictureView& ref, const PictureView& dist, std::vector<double>& after_row);

class CpuNoiseEngine : public NoiseEngine {
 public:
  explicit CpuNoiseEngine(const ExtractorContext& ctx) : ctx_(ctx) {}
  void init(const Format& fmt) override;
  void submit(const PictureView& ref, const PictureView& dist) override;
  std::optional<double> take(bool) override { return queue_.take(); }
  std::optional<Probe> inspect(std::string_view stage) const override;

 protected:
  // One frame pair's noise sum, the running sum after each row kept: the reference's loop.
  virtual double noise(const PictureView& ref, const PictureView& dist, std::vector<double>& after_row) const {
    return sequential_noise(ref, dist, after_row);
  }

 private:
  const ExtractorContext ctx_;
  std::vector<double> after_row_;
  double noise_ = 0;
  bool have_frame_ = false;
  ReadyQueue<double> queue_;
};

}  // namespace twinproof::float_psnr
