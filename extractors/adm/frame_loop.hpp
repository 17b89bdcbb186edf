// adm's frame loop, shared by every backend, and the engine interface a backend implements: the
// nine exact sums of each scale of a frame pair.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "extractors/adm/arithmetic.hpp"
#include "extractors/adm/options.hpp"
#include "extractors/extractor.hpp"
#include "extractors/frame_loop.hpp"

namespace twinproof::adm {

// What an engine needs of the options.
struct EngineParams {
  bool skip_scale0 = false;  // scale 0's bands are decimated but not scored
  bool skip_aim = false;     // the AIM sums stay zero
  double gain_limit = 100;   // adm_enhn_gain_limit
  float cos_1deg_sq = 0;     // cos(1 degree)^2 as libvmaf rounds it to float
  std::array<CsfWeights, kScales> weights{};
};

// What every adm backend computes: each scale's sums of a frame pair (scale 0's stay zero when it
// is skipped).
class AdmEngine : public PairEngine<FrameSums> {
 public:
  using Params = EngineParams;
  virtual void init(const Format& fmt, const EngineParams& params) = 0;
};

// The Extractor every adm backend is: options, the sizes the contract takes, and the scores of a
// frame from its sums (arithmetic.hpp) around a backend's engine.
class AdmExtractor final : public PairFrameLoop<AdmEngine> {
 public:
  AdmExtractor(std::unique_ptr<AdmEngine> engine, const ExtractorContext& ctx) : PairFrameLoop("adm", std::move(engine), ctx) {}

  void init(const Format& fmt, const OptionList& options) override;
  std::vector<std::string> metrics() const override;
  int planes_read() const override { return 1; }  // luma alone

 private:
  void emit_scores(const FrameSums& sums, const Emit& emit) const override;

  AdmOptions opts_;
  Scorer scorer_;
};

// Stages (a frame's, in pipeline order). Band arrays are a scale's w x h bands; the decoupled and
// CSF arrays hold values inside the scale's written rect only (0 outside).
struct ScaleBands {
  std::vector<std::int32_t> ref[4], dist[4];  // a, h, v, d
  std::vector<std::int32_t> restored[kAngles], impairment[kAngles];
};
// dwt_bands: every scale's reference and distorted bands.
Probe dwt_bands_probe(std::span<const ScaleBands, kScales> bands, const Format& fmt, int first_scale);
// decoupled_bands: every scored scale's restored and impairment bands.
Probe decoupled_bands_probe(std::span<const ScaleBands, kScales> bands, const Format& fmt, int first_scale);
// row_sums: each scored row's nine sums per scale (after the row's rounding shift), as two exact
// halves (high, low 32 bits).
Probe row_sums_probe(std::span<const std::vector<ScaleSums>, kScales> rows, int first_scale);
// scale_sums: each scale's nine sums as two exact halves.
Probe scale_sums_probe(const FrameSums& sums, int first_scale);

}  // namespace twinproof::adm
