// float_ansnr's CPU engine: the reference (`cpu`) is the contract line by line on one thread. The
// rows of a frame may run on a band of threads (cpu-simd's base): each row is filtered and summed
// exactly as the reference does it, and the rows' energies are added in fp32 top to bottom on the
// caller's thread, the same order for every sum.
#pragma once

#include <cstdint>
#include <vector>

#include "extractors/float_ansnr/frame_loop.hpp"
#include "extractors/ready_queue.hpp"
#include "extractors/row_bands.hpp"

namespace twinproof::float_ansnr {

// Row y of a frame pair: its filtered samples (into ref_out and dis_out when given, w each) and its
// energy, left to right.
Energy row_energy(const PictureView& ref, const PictureView& dist, int y, float* ref_out, float* dis_out);

class CpuEnergyEngine : public EnergyEngine {
 public:
  // threads: 1 for the reference, the context's for cpu-simd.
  CpuEnergyEngine(const ExtractorContext& ctx, unsigned threads) : ctx_(ctx), bands_(threads) {}
  void init(const Format& fmt) override;
  void submit(const PictureView& ref, const PictureView& dist) override;
  std::optional<Energy> take(bool) override { return queue_.take(); }
  std::optional<Probe> inspect(std::string_view stage) const override;

 protected:
  // Rows [begin, end) of a frame pair: each row's energy (and filtered samples when captured).
  virtual void rows(const PictureView& ref, const PictureView& dist, int begin, int end);
  std::vector<Energy> rows_;
  std::vector<float> ref_filtered_, dis_filtered_;  // only when stages are captured
  const ExtractorContext ctx_;

 private:
  RowBands bands_;
  Format fmt_{};
  Energy energy_{};
  bool have_frame_ = false;
  ReadyQueue<Energy> queue_;
};

}  // namespace twinproof::float_ansnr
