// float_ansnr's frame loop, shared by every backend, and the engine interface a backend
// implements: a frame pair's signal and noise energy, as the reference's fp32 sums hold them.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "extractors/extractor.hpp"
#include "extractors/float_ansnr/arithmetic.hpp"
#include "extractors/frame_loop.hpp"

namespace twinproof::float_ansnr {

class EnergyEngine : public PairEngine<Energy> {
 public:
  virtual void init(const Format& fmt) = 0;
};

class FloatAnsnrExtractor final : public PairFrameLoop<EnergyEngine> {
 public:
  FloatAnsnrExtractor(std::unique_ptr<EnergyEngine> engine, const ExtractorContext& ctx)
      : PairFrameLoop("float_ansnr", std::move(engine), ctx) {}

  void init(const Format& fmt, const OptionList& options) override;
  std::vector<std::string> metrics() const override { return {"float_ansnr", "float_anpsnr"}; }
  int planes_read() const override { return 1; }

 private:
  void emit_scores(const Energy& energy, const Emit& emit) const override;

  FloatPsnrLimits params_;
};

// The stages: both filtered pictures (w x h each), each row's energy, the frame's energy.
Probe filtered_probe(std::span<const float> ref, std::span<const float> dis, int w, int h);
Probe row_energy_probe(std::span<const Energy> rows);
Probe energy_probe(const Energy& e);

}  // namespace twinproof::float_ansnr
