// vif's frame loop, shared by every backend, and the engine interface a backend implements: the
// four exact sums of each scale of a frame pair.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "extractors/extractor.hpp"
#include "extractors/frame_loop.hpp"
#include "extractors/vif/arithmetic.hpp"
#include "extractors/vif/options.hpp"

namespace twinproof::vif {

// What an engine needs of the options.
struct EngineParams {
  int first_scale = 0;      // 1 with vif_skip_scale0: scale 0's statistics are not computed
  double gain_limit = 100;  // vif_enhn_gain_limit
};

// What every vif backend computes: each scale's sums of a frame pair (scales below first_scale
// stay zero).
class VifEngine : public PairEngine<FrameSums> {
 public:
  using Params = EngineParams;
  virtual void init(const Format& fmt, const EngineParams& params) = 0;
};

// The Extractor every vif backend is: options, the size the contract takes, and the scores of a
// frame from its sums (arithmetic.hpp) around a backend's engine.
class VifExtractor final : public PairFrameLoop<VifEngine> {
 public:
  VifExtractor(std::unique_ptr<VifEngine> engine, const ExtractorContext& ctx) : PairFrameLoop("vif", std::move(engine), ctx) {}

  void init(const Format& fmt, const OptionList& options) override;
  std::vector<std::string> metrics() const override;
  int planes_read() const override { return 1; }  // luma alone

 private:
  void emit_scores(const FrameSums& sums, const Emit& emit) const override;
  // The debug outputs' numerator and denominator: each scale's float widened to double and added
  // from first_scale up, as libvmaf adds them.
  std::pair<double, double> combined(std::span<const NumDen, kScales> scales) const;

  VifOptions opts_;
  EngineParams params_;
};

// Stages (a frame's, in pipeline order).
// scale_pictures: the reference's and the distorted picture of scales 1 to 3 (16-bit values).
Probe scale_pictures_probe(std::span<const std::vector<std::uint16_t>, kScales> ref,
                           std::span<const std::vector<std::uint16_t>, kScales> dist, const Format& fmt);
// row_sums: each row's four sums, per scale from first_scale (each below 2^53: exact as doubles).
Probe row_sums_probe(std::span<const std::vector<ScaleSums>, kScales> rows, int first_scale);
// scale_sums: each scale's four 64-bit sums as two exact halves (high, low 32 bits).
Probe scale_sums_probe(const FrameSums& sums, int first_scale);

}  // namespace twinproof::vif
