// float_moment's frame loop, shared by every backend, and the engine interface a backend
// implements: the four sums of a frame pair's luma, as the reference's doubles hold them.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "extractors/extractor.hpp"
#include "extractors/float_moment/arithmetic.hpp"
#include "extractors/frame_loop.hpp"

namespace twinproof::float_moment {

class MomentEngine : public PairEngine<MomentSums> {
 public:
  virtual void init(const Format& fmt) = 0;
};

class FloatMomentExtractor final : public PairFrameLoop<MomentEngine> {
 public:
  FloatMomentExtractor(std::unique_ptr<MomentEngine> engine, const ExtractorContext& ctx)
      : PairFrameLoop("float_moment", std::move(engine), ctx) {}

  void init(const Format& fmt, const OptionList& options) override;
  std::vector<std::string> metrics() const override {
    return {kMomentNames[0], kMomentNames[1], kMomentNames[2], kMomentNames[3]};
  }
  int planes_read() const override { return 1; }

 private:
  void emit_scores(const MomentSums& sums, const Emit& emit) const override;
};

// The reference's four running sums after each row (the "running_sums" stage: h rows of 4) and
// the frame's four sums (the "sums" stage).
Probe running_sums_probe(std::span<const MomentSums> after_row);
Probe sums_probe(const MomentSums& sums);

}  // namespace twinproof::float_moment
