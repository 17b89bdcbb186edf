// psnr's frame loop, shared by every backend, and the engine interface a backend implements: the
// exact 64-bit SSE of each plane of a frame pair.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "extractors/extractor.hpp"
#include "extractors/frame_loop.hpp"
#include "extractors/psnr/arithmetic.hpp"
#include "extractors/psnr/options.hpp"

namespace twinproof::psnr {

using PlaneSse = std::array<std::uint64_t, 3>;

// What every psnr backend computes: the exact SSE of each plane read, per frame pair.
class SseEngine : public PairEngine<PlaneSse> {
 public:
  // `planes`: 1 (luma alone) or 3.
  virtual void init(const Format& fmt, int planes) = 0;
};

// The Extractor every psnr backend is: options, geometry, and the per-plane scores of the
// contract around a backend's engine.
class PsnrExtractor final : public PairFrameLoop<SseEngine> {
 public:
  PsnrExtractor(std::unique_ptr<SseEngine> engine, const ExtractorContext& ctx) : PairFrameLoop("psnr", std::move(engine), ctx) {}

  void init(const Format& fmt, const OptionList& options) override;
  std::vector<std::string> metrics() const override;
  int planes_read() const override { return planes_; }

 private:
  void emit_scores(const PlaneSse& sse, const Emit& emit) const override;

  PsnrOptions opts_;
  ScoreParams params_;
  int planes_ = 3;
};

// The planes' SSE as a stage: per plane its 64 bits as two exact halves (high, low 32 bits), as a
// double holds every 32-bit value.
Probe plane_sse_probe(const PlaneSse& sse, int planes);
// Every row's squared error as a stage, one column per plane (each below 2^53: exact as doubles).
Probe row_sums_probe(const std::array<std::span<const std::uint64_t>, 3>& rows, int planes);

}  // namespace twinproof::psnr
