// float_psnr's frame loop, shared by every backend, and the engine interface a backend implements:
// the luma's noise sum of a frame pair, as the reference's double holds it.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "extractors/extractor.hpp"
#include "extractors/float_psnr/arithmetic.hpp"
#include "extractors/frame_loop.hpp"

namespace twinproof::float_psnr {

// What every float_psnr backend computes per frame pair: the sum of the luma's squared
// differences, added in raster order (or in a way proven to give the same double).
class NoiseEngine : public PairEngine<double> {
 public:
  virtual void init(const Format& fmt) = 0;
};

class FloatPsnrExtractor final : public PairFrameLoop<NoiseEngine> {
 public:
  FloatPsnrExtractor(std::unique_ptr<NoiseEngine> engine, const ExtractorContext& ctx)
      : PairFrameLoop("float_psnr", std::move(engine), ctx) {}

  void init(const Format& fmt, const OptionList& options) override;
  std::vector<std::string> metrics() const override { return {"float_psnr"}; }
  int planes_read() const override { return 1; }

 private:
  void emit_scores(const double& noise_sum, const Emit& emit) const override;

  FloatPsnrLimits params_;
};

// The reference's running sum after each row (the "running_noise" stage) and the frame's sum.
Probe running_noise_probe(std::span<const double> after_row);
Probe noise_probe(double noise_sum);

}  // namespace twinproof::float_psnr
