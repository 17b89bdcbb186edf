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
#include "extractors/psnr/arithmetic.hpp"
#include "extractors/psnr/options.hpp"

namespace twinproof::psnr {

using PlaneSse = std::array<std::uint64_t, 3>;

class SseEngine {
 public:
  virtual ~SseEngine() = default;
  // `planes`: 1 (luma alone) or 3.
  virtual void init(const Format& fmt, int planes) = 0;
  // Takes one frame pair; everything needed from the pictures is read or copied before it returns.
  virtual void submit(const PictureView& ref, const PictureView& dist) = 0;
  // The next frame's SSE per plane, in frame order. With wait=false, nullopt when it is not ready
  // yet; with wait=true, nullopt only when none is outstanding.
  virtual std::optional<PlaneSse> take(bool wait) = 0;
  // Stages of the latest frame ("row_sums", "plane_sse"), when the context asked to capture them.
  virtual std::optional<Probe> inspect(std::string_view) const { return std::nullopt; }
  virtual std::optional<double> device_ms() const { return std::nullopt; }
  virtual std::shared_ptr<HostMemory> frame_memory() const { return nullptr; }
};

// The Extractor every psnr backend is: options, geometry, and the per-plane scores of the
// contract around a backend's engine.
class PsnrExtractor final : public Extractor {
 public:
  PsnrExtractor(std::unique_ptr<SseEngine> engine, const ExtractorContext& ctx);

  void init(const Format& fmt, const OptionList& options) override;
  void extract(const PictureView& ref, const PictureView& dist, unsigned frame, ScoreSink& sink) override;
  void flush(ScoreSink& sink) override;
  std::vector<std::string> metrics() const override;
  std::optional<Probe> inspect(std::string_view stage) const override;
  std::optional<double> device_ms() const override { return engine_->device_ms(); }
  std::shared_ptr<HostMemory> frame_memory() const override { return engine_->frame_memory(); }
  int planes_read() const override { return planes_; }

 private:
  void drain(ScoreSink& sink, bool wait);

  std::unique_ptr<SseEngine> engine_;
  ExtractorContext ctx_;
  PsnrOptions opts_;
  ScoreParams params_;
  Format fmt_{};
  int planes_ = 3;
  bool initialised_ = false;
  unsigned first_label_ = 0;
  unsigned frames_ = 0;  // frames submitted
  unsigned scored_ = 0;  // frames whose scores were emitted
  std::vector<std::pair<std::string, double>> captured_outputs_;
};

// The planes' SSE as a stage: per plane its 64 bits as two exact halves (high, low 32 bits), as a
// double holds every 32-bit value.
Probe plane_sse_probe(const PlaneSse& sse, int planes);
// Every row's squared error as a stage, one column per plane (each below 2^53: exact as doubles).
Probe row_sums_probe(const std::array<std::span<const std::uint64_t>, 3>& rows, int planes);

template <class Engine>
std::unique_ptr<Extractor> make_psnr(const ExtractorContext& ctx) {
  return std::make_unique<PsnrExtractor>(std::make_unique<Engine>(ctx), ctx);
}

}  // namespace twinproof::psnr
